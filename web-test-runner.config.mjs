// Component tests in real Chromium (Debian's, or CHROME_PATH): `npm run test:components`.
// Run `node scripts/ensure-chromium.mjs` first (the npm script does).
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { CHROMIUM_FLAGS, chromiumPath } from './scripts/chromium-path.mjs';

export default {
  // Components and, once they exist, the iframe apps (test/iframe-app/).
  files: ['test/components/**/*.test.ts', 'test/iframe-app/**/*.test.ts'],
  // Lit's production build: no dev-mode warning in the output.
  nodeResolve: { exportConditions: ['production'] },
  plugins: [esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'es2022' })],
  browsers: [
    chromeLauncher({
      launchOptions: { executablePath: chromiumPath(), headless: true, args: [...CHROMIUM_FLAGS] },
    }),
  ],
  concurrency: 2,
  concurrentBrowsers: 1,
  browserStartTimeout: 60_000,
  testsStartTimeout: 60_000,
  testsFinishTimeout: 120_000,
  testFramework: { config: { timeout: 5_000 } },
};
