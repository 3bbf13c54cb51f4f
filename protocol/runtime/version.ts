/** Version of the bridge messages (protocol/schemas/bridge.ts): zod-free, for the merchant-side SDK. */
export const BRIDGE_VERSION = 1;
