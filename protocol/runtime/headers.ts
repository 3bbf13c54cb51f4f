/**
 * Header names of the browser-facing routes, shared by the SDK, the frames and the service.
 * Session-backed requests (direct mode, the frames' tokenise) carry the public key and the intent's
 * session token; every POST may carry an idempotency key (the SDK sends one per attempt).
 */
export const PUBLIC_KEY_HEADER = 'X-CPE-Public-Key';
export const SESSION_TOKEN_HEADER = 'X-CPE-Session-Token';
export const IDEMPOTENCY_HEADER = 'X-Idempotency-Key';
