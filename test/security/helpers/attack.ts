import type { Page } from 'playwright-core';
import { CpeClient, toSession } from '../../../client/index.ts';
import type { RunningService } from '../../../server/start.ts';
import { scaled } from '../../../testkit/time.ts';

/**
 * What an attacker uses against the frames: a merchant of its own (keys, an intent and its session,
 * as any test merchant can make), and scripts run on the victim merchant's page.
 */
export interface AttackerMerchant {
  publicKey: string;
  merchantId: number;
  client: CpeClient;
  /** A new £50 intent of the attacker's merchant and its browser session. */
  session(): Promise<{ paymentIntentId: string; sessionToken: string }>;
  /** Card tokens the service issued to the attacker's merchant. */
  tokens(): Promise<number>;
}

export async function attackerMerchant(service: RunningService): Promise<AttackerMerchant> {
  const { merchants, store } = service.services;
  const credentials = await merchants.create({ origins: ['https://attacker.example'], name: 'Attacker Ltd' });
  const client = new CpeClient({ licenceKey: credentials.licenceKey, baseUrl: service.url });
  let n = 0;
  return {
    publicKey: credentials.publicKey,
    merchantId: credentials.merchantId,
    client,
    async session() {
      const created = await client.createPaymentIntent({ merchantid: credentials.merchantId, amount: 5000, currency: 'GBP', identifier: `attack-${++n}` });
      const { paymentIntentId, sessionToken } = toSession(created);
      return { paymentIntentId, sessionToken };
    },
    tokens: async () => (await store.collection<{ id: string; merchant_id: number }>('card_tokens').all()).filter((t) => t.merchant_id === credentials.merchantId).length,
  };
}

/** What came back on the attacker's port: every message the frame sent. */
export type PortLog = Array<{ kind?: string; name?: string; ok?: boolean; result?: unknown; error?: { code: string } }>;

/**
 * A script on the merchant page re-initialises a live frame (the first iframe whose address contains
 * `app`, looking into open shadow roots): it reads the session uuid from the iframe's address, posts
 * a new `init` with `config` (another merchant's key and session) and a port of its own, asks for a
 * token on that port and listens for `wait` ms (scaled). A frame that ignores it never answers: the
 * window only bounds how long the attacker listens (a shorter one could miss a slow answer, never
 * fail a frame that is right).
 */
export function reinitFrame(page: Page, app: string, config: { pubKey: string; session?: { paymentIntentId: string; sessionToken: string } }, wait = scaled(3000)): Promise<PortLog> {
  return page.evaluate(
    async ({ app, config, wait }) => {
      const all: HTMLIFrameElement[] = [];
      const roots: Array<Document | ShadowRoot> = [document];
      while (roots.length) for (const el of roots.pop()!.querySelectorAll('*')) (el instanceof HTMLIFrameElement && all.push(el), el.shadowRoot && roots.push(el.shadowRoot));
      const iframe = all.find((f) => f.src.includes(app));
      if (!iframe) throw new Error(`no frame ${app}`);
      // The fragment: the mount's uuid, then its look.
      const uuid = new URL(iframe.src).hash.slice(1).split('&')[0];
      const { port1, port2 } = new MessageChannel();
      const log: unknown[] = [];
      port1.onmessage = (event) => log.push(event.data);
      iframe.contentWindow!.postMessage({ cpe: 1, type: 'init', session: uuid, config: { ...config, tokens: {} } }, '*', [port2]);
      port1.postMessage({ cpe: 1, kind: 'request', id: 1, method: 'tokenise', params: {} });
      await new Promise((resolve) => setTimeout(resolve, wait));
      return log as never;
    },
    { app, config, wait },
  );
}

/**
 * Installed before the SDK runs (`addInitScript`): keeps every MessageChannel's first port the page
 * creates in `window.__ports`, as a compromised script loaded before the SDK could. With one, the
 * script speaks on the element's own bridge.
 */
export const CAPTURE_PORTS = `(() => {
  if (window !== window.top) return;
  const Original = window.MessageChannel;
  window.__ports = [];
  window.MessageChannel = class extends Original {
    constructor() { super(); window.__ports.push(this.port1); }
  };
})();`;

/**
 * With the captured ports: `configure` every frame with `session`, then ask each for a token; the
 * answers, once every port that answers (a frame's: the page's other channels never do) has answered
 * both requests.
 */
export function requestOnCapturedPorts(page: Page, config: { pubKey: string; session: { paymentIntentId: string; sessionToken: string } }, timeoutMs = scaled(20_000)): Promise<PortLog> {
  return page.evaluate(
    async ({ config, timeoutMs }) => {
      const log: unknown[] = [];
      const answered = new Map<MessagePort, Set<number>>();
      let done!: () => void;
      const complete = new Promise<void>((resolve) => (done = resolve));
      for (const port of (window as unknown as { __ports: MessagePort[] }).__ports) {
        port.addEventListener('message', (event) => {
          const id = (event.data as { id?: number }).id;
          if (id === undefined || id < 900) return;
          log.push(event.data);
          answered.set(port, (answered.get(port) ?? new Set()).add(id));
          if ([...answered.values()].every((ids) => ids.size === 2)) done();
        });
        port.postMessage({ cpe: 1, kind: 'request', id: 900, method: 'configure', params: { ...config, tokens: {} } });
        port.postMessage({ cpe: 1, kind: 'request', id: 901, method: 'tokenise', params: {} });
      }
      const late = new Promise((_, reject) => setTimeout(() => reject(new Error(`the frames did not answer within ${timeoutMs} ms: ${JSON.stringify(log)}`)), timeoutMs));
      await Promise.race([complete, late]);
      return log as never;
    },
    { config, timeoutMs },
  );
}

/** Whether any answer on the attacker's port carried a token. */
export const gotToken = (log: PortLog) => log.some((m) => m.kind === 'response' && m.ok === true && JSON.stringify(m.result ?? {}).includes('tok_'));
