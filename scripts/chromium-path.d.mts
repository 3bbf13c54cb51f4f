/** Flags for headless Chromium in containers, as root. */
export declare const CHROMIUM_FLAGS: readonly string[];
/** The Chromium to use (CHROME_PATH, else chromium, chromium-browser, google-chrome), or undefined. */
export declare function findChromium(env?: NodeJS.ProcessEnv): string | undefined;
/** The message that names the fix when no Chromium is found. */
export declare function missingChromiumMessage(env?: NodeJS.ProcessEnv): string;
/** Like findChromium, but throws with the fix when there is none. */
export declare function chromiumPath(env?: NodeJS.ProcessEnv): string;
