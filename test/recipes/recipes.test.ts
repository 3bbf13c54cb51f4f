/**
 * The README's framework recipes, tried: a Vue, a Svelte and an Angular app, each a new project
 * with the packed package and the framework from the npm registry, built as the recipe says, then
 * loaded in Chromium from its own origin: the card mounts (its frame's handshake, `cpe:ready`, is
 * heard by the app through the framework's own event binding) against the real service.
 *
 *   npm run test:recipes      (not in npm test: the frameworks come from the registry, about 100 MB
 *                              the first time; afterwards npm's cache serves them)
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { boundSocket } from '../../testkit/processes.ts';
import { scaled } from '../../testkit/time.ts';
import { CHROMIUM_FLAGS, chromiumPath } from '../../scripts/chromium-path.mjs';
import { startService, type RunningService } from '../../server/start.ts';
import { freshProject, openShop, packTarball, shAsync, SHOP_BACKEND, start, temporary, typeCard, versionOf, write } from '../package/fresh-project.ts';

const folder = temporary('cpe-recipes-');
let tarball: string;
let service: RunningService;
let browser: Browser;

before(async () => {
  tarball = packTarball(folder.dir);
  service = await startService({ port: 0, demoPort: 0, dataDir: join(folder.dir, 'data'), publicUrl: 'http://127.0.0.1:0', rateLimit: { perSecond: 0, burst: 0 }, log: { level: 'silent' } });
  browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: [...CHROMIUM_FLAGS] });
});
after(async () => {
  await browser?.close();
  await service?.close();
  folder.remove();
});

/** The page every recipe builds from: the SDK from the service, the app's module, the public key for it to read. */
const page = (script: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title><link rel="icon" href="data:,">
<script type="module" src="%VITE_CPE_SERVICE%/sdk/cpe.js"></script></head>
<body data-public-key="%VITE_CPE_PUBLIC_KEY%">${body}<script type="module" src="${script}"></script></body></html>
`;

/**
 * Installs `packages` beside the tarball, writes `files`, runs `build` (commands in the project),
 * serves the result from a new origin and waits for the app to say the card is ready.
 */
async function tryRecipe(name: string, packages: string[], files: Record<string, string>, build: string[][]): Promise<void> {
  const { server: socket, port } = await boundSocket('localhost');
  const origin = `http://localhost:${port}`;
  const merchant = await service.services.merchants.create({ origins: [origin] });
  const project = freshProject(folder.dir, name, tarball, [...packages, `vite@${versionOf('vite')}`]);
  write(project, { ...files, 'backend.mjs': SHOP_BACKEND });
  const env = { VITE_CPE_SERVICE: service.url, VITE_CPE_PUBLIC_KEY: merchant.publicKey };
  for (const [command, ...args] of build) await shAsync(command!, args, project, env);
  const backend = await start('backend.mjs', project, { SERVICE_URL: service.url, LICENCE_KEY: merchant.licenceKey, MERCHANT_ID: String(merchant.merchantId) }, socket);
  // A cpe:error (a provider made before its framework set its properties, say) fails the recipe too.
  const { page: tab, problems, close } = await openShop(browser, origin);
  try {
    await tab.locator('output').getByText('ready', { exact: true }).waitFor({ timeout: scaled(30_000) });
    // The card frame is the service's form, on the service's origin.
    assert.equal(new URL((await tab.locator('cpe-card iframe').getAttribute('src'))!).origin, service.url);
    await typeCard(tab);
    // The framework heard cpe:change: the app enables its button.
    await tab.getByRole('button', { name: 'Pay', disabled: false }).waitFor({ timeout: scaled(10_000) });
    assert.deepEqual(problems, []);
  } finally {
    await close();
    backend.stop();
  }
}

const vite = ['node', 'node_modules/vite/bin/vite.js', 'build'];

describe('framework recipes (README), built and mounted in Chromium', { timeout: scaled(300_000) }, () => {
  it('Vue 3: compilerOptions.isCustomElement, @cpe:ready and @cpe:change', () =>
    tryRecipe('vue-shop', ['vue@3', '@vitejs/plugin-vue@6'], {
      'index.html': page('/src/main.js', '<div id="app"></div>'),
      'vite.config.js': `import vue from '@vitejs/plugin-vue';

export default {
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('cpe-') } } })],
};
`,
      'src/main.js': `import { createApp } from 'vue';
import App from './App.vue';

createApp(App).mount('#app');
`,
      'src/App.vue': `<script setup>
import { ref } from 'vue';

const pubKey = document.body.dataset.publicKey;
const status = ref('loading');
const complete = ref(false);
</script>

<template>
  <cpe-elements :pub-key="pubKey" intent-url="/api/intent">
    <cpe-card layout="stack" @cpe:ready="status = 'ready'" @cpe:change="complete = $event.detail.complete"></cpe-card>
  </cpe-elements>
  <button :disabled="!complete">Pay</button>
  <output>{{ status }}</output>
</template>
`,
    }, [vite]));

  it('Svelte 5: the tags as they are, oncpe:ready and oncpe:change', () =>
    tryRecipe('svelte-shop', ['svelte@5', '@sveltejs/vite-plugin-svelte@7'], {
      'index.html': page('/src/main.js', '<div id="app"></div>'),
      'vite.config.js': `import { svelte } from '@sveltejs/vite-plugin-svelte';

export default { plugins: [svelte()] };
`,
      'src/main.js': `import { mount } from 'svelte';
import App from './App.svelte';

mount(App, { target: document.getElementById('app') });
`,
      'src/App.svelte': `<script>
  const pubKey = document.body.dataset.publicKey;
  let status = $state('loading');
  let complete = $state(false);
</script>

<cpe-elements pub-key={pubKey} intent-url="/api/intent">
  <cpe-card layout="stack" oncpe:ready={() => (status = 'ready')} oncpe:change={(e) => (complete = e.detail.complete)}></cpe-card>
</cpe-elements>
<button disabled={!complete}>Pay</button>
<output>{status}</output>
`,
    }, [vite]));

  it('Angular 21: CUSTOM_ELEMENTS_SCHEMA, [pubKey] bound as a property, events through the element (ngc, strict templates)', () =>
    tryRecipe('angular-shop', ['@angular/core@21', '@angular/common@21', '@angular/compiler@21', '@angular/platform-browser@21', '@angular/compiler-cli@21', 'rxjs@7', 'tslib@2', 'typescript@5.9'], {
      'index.html': page('/out-tsc/main.js', '<app-root></app-root>'),
      'tsconfig.json': JSON.stringify({
        compilerOptions: { target: 'es2022', module: 'es2022', moduleResolution: 'bundler', lib: ['es2022', 'dom'], strict: true, skipLibCheck: true, useDefineForClassFields: false, outDir: 'out-tsc', rootDir: 'src' },
        angularCompilerOptions: { strictTemplates: true },
        files: ['src/main.ts'],
      }),
      'src/main.ts': `import '@angular/compiler';
import { provideZonelessChangeDetection } from '@angular/core';
import { bootstrapApplication } from '@angular/platform-browser';
import { App } from './app';

bootstrapApplication(App, { providers: [provideZonelessChangeDetection()] });
`,
      'src/app.ts': `import { Component, CUSTOM_ELEMENTS_SCHEMA, ElementRef, afterNextRender, signal, viewChild } from '@angular/core';
import type { CpeCard } from 'cpe/sdk';

@Component({
  selector: 'app-root',
  // The cpe-* tags are custom elements: Angular leaves them to the SDK.
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: \`
    <cpe-elements [pubKey]="pubKey" intent-url="/api/intent">
      <cpe-card #card layout="stack"></cpe-card>
    </cpe-elements>
    <button [disabled]="!complete()">Pay</button>
    <output>{{ status() }}</output>
  \`,
})
export class App {
  readonly pubKey = document.body.dataset['publicKey'];
  readonly status = signal('loading');
  readonly complete = signal(false);
  readonly card = viewChild.required<ElementRef<CpeCard>>('card');

  constructor() {
    // Angular's (event) bindings take no colon: listen on the element (typed: cpe/sdk's event map).
    afterNextRender(() => {
      const card = this.card().nativeElement;
      card.addEventListener('cpe:ready', () => this.status.set('ready'));
      card.addEventListener('cpe:change', (event) => this.complete.set(event.detail.complete));
    });
  }
}
`,
    }, [['node', 'node_modules/@angular/compiler-cli/bundles/src/bin/ngc.js', '-p', 'tsconfig.json'], vite]));
});
