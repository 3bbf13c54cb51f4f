import { Hello, type FrameConfig } from '../../protocol/schemas/bridge.ts';
import { ElementEnd } from '../../protocol/runtime/rpc.ts';

export type FrameEventRecord = { name: string; detail: any };

/**
 * Mounts a bridge frame page (served by the test server from iframe-app/) as the SDK does and
 * completes the handshake: the frame's hello (its height and texts), then the init with the port;
 * `before` runs on the frame's window before `init`, and the init waits for the promise it may
 * return. The frame's requests go to the test server's fake service (fake-service.ts: unscripted,
 * GET /intent says that session pi_1 is this merchant's). `fragment` follows the uuid in the
 * address (the element's look).
 */
export async function mountFrame(app: string, query: string, config: Partial<FrameConfig> = {}, before?: (win: Window & typeof globalThis) => void | Promise<void>, fragment = '') {
  const session = crypto.randomUUID();
  const iframe = document.createElement('iframe');
  iframe.style.width = '600px';
  iframe.style.height = '400px';
  iframe.src = `/iframe-app/${app}/index.html?${query}#${session}${fragment}`;
  const events: FrameEventRecord[] = [];
  let said: Hello | undefined;
  const connected = new Promise<ElementEnd>((resolve) => {
    window.addEventListener('message', async function hello(e) {
      if (e.source !== iframe.contentWindow || !Hello.safeParse(e.data).success || e.data.session !== session) return;
      window.removeEventListener('message', hello);
      said = e.data;
      await before?.(iframe.contentWindow as Window & typeof globalThis);
      const channel = new MessageChannel();
      const end = new ElementEnd(channel.port1, (name, detail) => events.push({ name, detail }));
      iframe.contentWindow!.postMessage({ cpe: 1, type: 'init', session, config: { pubKey: 'pk_test_1', tokens: {}, ...config } }, location.origin, [channel.port2]);
      resolve(end);
    });
  });
  document.body.append(iframe);
  const end = await connected;
  // The frame's code has taken the port once it answers (the same config again changes nothing).
  await end.request('configure', { pubKey: 'pk_test_1', tokens: {}, ...config }).catch(() => {});
  return { iframe, end, events, hello: said!, doc: iframe.contentDocument!, win: iframe.contentWindow as Window & typeof globalThis, session };
}

/** Runs axe-core inside a same-origin frame document: its serious and critical violations (as the card form's test counts them). */
export async function axeIn(doc: Document): Promise<string[]> {
  type Violation = { id: string; help: string; impact: string; nodes: { target: string[] }[] };
  const win = doc.defaultView as Window & { axe?: { run(context: Node): Promise<{ violations: Violation[] }> } };
  if (!win.axe) {
    await new Promise<void>((resolve, reject) => {
      const s = doc.createElement('script');
      s.src = '/node_modules/axe-core/axe.min.js';
      s.onload = () => resolve();
      s.onerror = () => reject(new Error('axe-core did not load'));
      doc.head.append(s);
    });
  }
  const { violations } = await win.axe!.run(doc);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
