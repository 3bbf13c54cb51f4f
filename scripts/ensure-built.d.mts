/** dist/sdk/cpe.js, absolute. */
export declare const SDK_FILE: string;
/** True when dist/sdk/cpe.js is missing or a source is newer than it. */
export declare function isStale(): boolean;
/** Runs `vite build` if stale; returns whether the SDK file exists afterwards. */
export declare function ensureBuilt(options?: { quiet?: boolean }): boolean;
