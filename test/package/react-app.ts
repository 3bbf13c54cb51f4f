import { docBlock } from '../../testkit/docs.ts';
import { SHOP_BACKEND } from './fresh-project.ts';

/** The shop: a React page (the SDK from the service, the components from cpe/react: the documentation's example) and its backend. */
export const APP: Record<string, string> = {
  'index.html': `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Shop</title><link rel="icon" href="data:,">
<script type="module" src="%VITE_CPE_SERVICE%/sdk/cpe.js"></script></head>
<body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body>
</html>
`,
  'vite.config.mjs': `export default { oxc: { jsx: { runtime: 'automatic' } }, logLevel: 'warn' };\n`,
  // The documentation's React example (docs/components.md), as it stands.
  'src/main.tsx': docBlock('docs/components.md', '**React** (`cpe/react`)', 'tsx'),
  'backend.mjs': SHOP_BACKEND,
};
