/**
 * The peers, bundled from npm in this run the way a merchant's own build would: Vite's build API
 * (library mode, one ES module, minified, every dependency inside, `process.env.NODE_ENV` set to
 * "production" as an application build does), then gzip -9 of every file written.
 *
 * Each entry imports exactly the modules named in issue 6 by each SDK's documented import paths and
 * uses them (exported functions that call them), so tree-shaking keeps what a real page would keep.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'vite';
import { gzipSize } from './sizes.ts';

export interface PeerFile {
  file: string;
  raw: number;
  gzip: number;
}

export interface PeerResult {
  name: string;
  /** Which of several ways to bundle the same peer, when there are several. */
  variant?: string;
  version: string;
  contains: string;
  note?: string;
  /** Files Vite wrote (JS and CSS). */
  files: PeerFile[];
  js: { raw: number; gzip: number };
  css: { raw: number; gzip: number };
  total: { raw: number; gzip: number };
  /** node_modules packages whose code is in the bundle, with the number of their modules. */
  packages: Record<string, number>;
  /** What the peer loads at run time from its own servers and is not counted. */
  notCounted: string;
}

interface PeerSpec {
  name: string;
  variant?: string;
  contains: string;
  note?: string;
  entry: string;
  notCounted: string;
  /** Module resolution for this bundle, when not Vite's default. */
  resolve?: { mainFields: string[] };
}

const BRAINTREE_ENTRY = `import client from 'braintree-web/client';
import hostedFields from 'braintree-web/hosted-fields';
import threeDSecure from 'braintree-web/three-d-secure';
import applePay from 'braintree-web/apple-pay';
import googlePayment from 'braintree-web/google-payment';

export async function mount(authorization) {
  const clientInstance = await client.create({ authorization });
  const fields = await hostedFields.create({
    client: clientInstance,
    fields: {
      number: { container: '#card-number' },
      expirationDate: { container: '#expiration-date' },
      cvv: { container: '#cvv' },
      cardholderName: { container: '#cardholder-name' },
    },
  });
  const threeDS = await threeDSecure.create({ client: clientInstance, version: 2 });
  const apple = await applePay.create({ client: clientInstance });
  const google = await googlePayment.create({ client: clientInstance, googlePayVersion: 2 });
  return { fields, threeDS, apple, google };
}
`;
const BRAINTREE_CONTAINS = 'client + hosted-fields + three-d-secure + apple-pay + google-payment (imported as braintree-web/<module>, as its README shows)';
const BRAINTREE_NOT_COUNTED =
  'hosted-fields frames (assets.braintreegateway.com/web/<v>/html/hosted-fields-frame.min.html with its own bundle), the 3-D Secure Cardinal Commerce script (songbird) and frames, Google Pay pay.js and Apple Pay JS: all loaded from their CDNs at run time';

const PEERS: PeerSpec[] = [
  {
    name: 'braintree-web',
    variant: 'default resolution',
    contains: BRAINTREE_CONTAINS,
    note:
      "braintree-web's package.json `browser` map sends each braintree-web/<module> to its prebuilt standalone bundle (dist/browser/<module>.js), and Vite follows it by default: each of the five carries its own copy of the shared internals (framebus, promise helpers, errors).",
    entry: BRAINTREE_ENTRY,
    notCounted: BRAINTREE_NOT_COUNTED,
  },
  {
    name: 'braintree-web',
    variant: 'CommonJS sources',
    contains: BRAINTREE_CONTAINS,
    note: "Same entry with the `browser` map not used (resolve.mainFields without 'browser'): the package's CommonJS sources, shared internals once. The smallest bundle of these modules a merchant can get.",
    entry: BRAINTREE_ENTRY,
    notCounted: BRAINTREE_NOT_COUNTED,
    resolve: { mainFields: ['module', 'jsnext:main', 'jsnext'] },
  },
  {
    name: '@adyen/adyen-web',
    contains:
      "AdyenCheckout + Card + ApplePay + GooglePay from '@adyen/adyen-web' (the tree-shakable ES entry, not '@adyen/adyen-web/auto'), plus '@adyen/adyen-web/styles/adyen.css' which its docs tell you to import",
    entry: `import { AdyenCheckout, Card, ApplePay, GooglePay } from '@adyen/adyen-web';
import '@adyen/adyen-web/styles/adyen.css';

export async function mount(session, clientKey) {
  const checkout = await AdyenCheckout({ session, clientKey, environment: 'test', countryCode: 'GB' });
  const card = new Card(checkout).mount('#card');
  const apple = new ApplePay(checkout);
  const google = new GooglePay(checkout);
  return { card, apple, google };
}
`,
    notCounted:
      "Card's secured-field frames (checkoutshopper-<env>.adyen.com/checkoutshopper/securedfields/<key>/<v>/securedFields.html with their own scripts), the /sessions setup call, Google Pay pay.js and Apple Pay JS: all loaded from their servers at run time",
  },
];

/** The npm package a module id belongs to (the innermost node_modules/ in its path). */
const packageOf = (id: string): string | undefined => {
  const at = id.replace(/\\/g, '/').lastIndexOf('node_modules/');
  return at < 0 ? undefined : /^((?:@[^/]+\/)?[^/]+)/.exec(id.slice(at + 'node_modules/'.length))?.[1];
};

/** Bundles each peer into `work/<peer>/` and measures it. `nodeModules` is the project's node_modules. */
export async function bundlePeers(work: string, nodeModules: string): Promise<PeerResult[]> {
  const results: PeerResult[] = [];
  for (const peer of PEERS) {
    const dir = join(work, `${results.length}-${peer.name.replace(/[@/]/g, '_')}`);
    const outDir = join(dir, 'out');
    mkdirSync(dir, { recursive: true });
    // The entry lives outside the project; node_modules beside it resolves the installed peers.
    symlinkSync(nodeModules, join(dir, 'node_modules'), 'dir');
    const entry = join(dir, 'entry.js');
    writeFileSync(entry, peer.entry);
    const version = (JSON.parse(readFileSync(join(nodeModules, peer.name, 'package.json'), 'utf8')) as { version: string }).version;

    const output = await build({
      configFile: false,
      root: dir,
      logLevel: 'silent',
      publicDir: false,
      ...(peer.resolve ? { resolve: peer.resolve } : {}),
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: {
        outDir,
        emptyOutDir: true,
        write: true,
        target: 'es2022',
        minify: true,
        sourcemap: false,
        reportCompressedSize: false,
        cssCodeSplit: false,
        lib: { entry, formats: ['es'], fileName: () => 'bundle.js', cssFileName: 'bundle' },
        rolldownOptions: { external: [], output: { minify: true } },
      },
    });

    const packages: Record<string, number> = {};
    const outputs = (Array.isArray(output) ? output : [output]) as Array<{ output?: Array<{ type: string; fileName: string; moduleIds?: string[] }> }>;
    const files: PeerFile[] = [];
    for (const result of outputs) {
      for (const item of result.output ?? []) {
        if (item.type === 'chunk') {
          for (const id of item.moduleIds ?? []) {
            const name = packageOf(id);
            if (name) packages[name] = (packages[name] ?? 0) + 1;
          }
        }
        if (!/\.(m?js|css)$/.test(item.fileName)) continue;
        const bytes = readFileSync(join(outDir, item.fileName));
        files.push({ file: relative(outDir, join(outDir, item.fileName)), raw: bytes.length, gzip: gzipSize(bytes) });
      }
    }
    const sum = (list: PeerFile[]) => ({ raw: list.reduce((n, f) => n + f.raw, 0), gzip: list.reduce((n, f) => n + f.gzip, 0) });
    const js = sum(files.filter((f) => !f.file.endsWith('.css')));
    const css = sum(files.filter((f) => f.file.endsWith('.css')));
    results.push({ name: peer.name, variant: peer.variant, version, contains: peer.contains, note: peer.note, files, js, css, total: sum(files), packages, notCounted: peer.notCounted });
  }
  return results;
}
