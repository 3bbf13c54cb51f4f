/** dist/sdk/cpe.js, absolute. */
export declare const SDK_FILE: string;
/** True when dist/sdk/cpe.js is missing or a source is newer than it. */
export declare function isStale(): boolean;
/** Runs `vite build` if stale; returns whether the SDK file exists afterwards. */
export declare function ensureBuilt(options?: { quiet?: boolean }): boolean;
/** Runs `build` holding a lock (a file holding the holder's pid, `.tmp/build-lock` by default) that one process of the checkout holds at a time; a dead holder's lock is taken over. */
export declare function locked<T>(build: () => T, lock?: string): T;
/** Removes `lock` if it still belongs to `owner` (a process that has gone), unless another waiter holds the claim to do so. */
export declare function takeOver(lock: string, owner: number): void;
