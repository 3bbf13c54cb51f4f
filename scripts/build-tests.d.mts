/** .tmp/node-tests, absolute: where `npm test` compiles the Node tests and the service to. */
export declare const OUT: string;
/** A CLI command's package.json script; its file without `.ts` (testkit's npmRun runs the compiled one). */
export declare const CLI_SCRIPT: RegExp;
/** Compiles `entryPoints` (paths from the root; default: the service, the CLI commands and every Node test) into `out`; how many. */
export declare function buildTests(options?: { out?: string; entryPoints?: string[] }): Promise<number>;
