/** The per-mount session uuid in a frame's or challenge page's fragment (`#…`), as `crypto.randomUUID()` writes it. */
export const SESSION_UUID = /^[0-9a-f-]{36}$/;
