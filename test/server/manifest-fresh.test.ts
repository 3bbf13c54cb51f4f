/**
 * The Custom Elements Manifest (custom-elements.json, package.json's `customElements`): up to date
 * with the element classes (run `npm run gen:manifest` after changing one), and complete: every tag,
 * each with every attribute it observes, its property, its events and the theme's CSS custom properties.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CpeCard, CpeCardFields, CpeElements, CpePayment, CpePaymentFlow, CpeVerifyFlow, CpeWalletA, CpeWalletB, CPE_EVENTS } from '../../components/index.ts';
import { TOKENS } from '../../components/internal/frame-mount.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
type Item = { name: string; fieldName?: string; attribute?: string; kind?: string };
type Declaration = { name: string; tagName?: string; customElement?: boolean; attributes?: Item[]; members?: Item[]; events?: Item[]; cssProperties?: Item[] };
type Manifest = { schemaVersion: string; modules: { path: string; declarations: Declaration[] }[] };

const CARD = CPE_EVENTS.filter((name) => !/availability|wallet/.test(name));
const WALLET = CPE_EVENTS.filter((name) => !/change|processing/.test(name));
const TAGS: [string, { observedAttributes: string[]; props: readonly string[] }, readonly string[]][] = [
  ['cpe-card', CpeCard, CARD],
  ['cpe-card-fields', CpeCardFields, CARD],
  ['cpe-payment-flow', CpePaymentFlow, CARD],
  ['cpe-verify-flow', CpeVerifyFlow, CARD],
  ['cpe-wallet-a', CpeWalletA, WALLET],
  ['cpe-wallet-b', CpeWalletB, WALLET],
  // Every method in one element: the card's events and the wallets'.
  ['cpe-payment', CpePayment, CPE_EVENTS],
  ['cpe-elements', CpeElements, ['cpe-elements:ready', 'cpe:error']],
];

/** A fresh manifest, generated into a temporary folder (the analyzer takes `outdir` relative to the project). */
function generate(): string {
  const out = mkdtempSync(join(tmpdir(), 'cpe-manifest-'));
  try {
    const cem = join(root, 'node_modules/@custom-elements-manifest/analyzer/cem.js');
    const run = spawnSync(process.execPath, [cem, 'analyze', '--config', 'custom-elements-manifest.config.mjs', '--outdir', relative(root, out)], { cwd: root, encoding: 'utf8' });
    assert.equal(run.status, 0, `the analyzer failed:\n${run.stdout}${run.stderr}`);
    return readFileSync(join(out, 'custom-elements.json'), 'utf8');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

describe('custom-elements.json', () => {
  const checkedIn = readFileSync(join(root, 'custom-elements.json'), 'utf8');
  const manifest = JSON.parse(checkedIn) as Manifest;
  const declarations = manifest.modules.flatMap((module) => module.declarations);

  it('is named by package.json and is what the analyzer makes of the classes today (npm run -s gen:manifest)', () => {
    assert.equal(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).customElements, 'custom-elements.json');
    assert.equal(checkedIn, generate(), 'custom-elements.json is stale: npm run -s gen:manifest');
  });

  for (const [tag, element, events] of TAGS)
    it(`lists <${tag}>: every attribute with its property, its events and CSS custom properties`, () => {
      const declaration = declarations.find((d) => d.tagName === tag);
      assert.ok(declaration?.customElement, `no custom element ${tag}`);
      assert.deepEqual(declaration.attributes!.map((a) => a.name).sort(), [...element.observedAttributes].sort());
      const fields = declaration.members!.filter((m) => m.kind === 'field').map((m) => m.name);
      for (const prop of element.props) assert.ok(fields.includes(prop), `${tag}: property ${prop} missing`);
      for (const attribute of declaration.attributes!.filter((a) => !/^(total|appearance)-/.test(a.name)))
        assert.equal(declaration.members!.find((m) => m.name === attribute.fieldName)?.attribute, attribute.name, `${tag}: ${attribute.name} is not linked to its property`);
      assert.deepEqual(declaration.events!.map((e) => e.name).sort(), [...events].sort());
      assert.deepEqual(declaration.cssProperties?.map((p) => p.name).sort() ?? [], tag === 'cpe-elements' ? [] : [...TOKENS].sort());
    });
});
