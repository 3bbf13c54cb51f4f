/**
 * A web-test-runner command that looks into the page's frames of other origins, which the test's own
 * page cannot: `cpe-in-frame` waits until an element of a frame (by a part of its URL; open shadow
 * roots are searched) is present, enabled, focused, blurred or gone, or present and painted (`rendered`: two
 * of the frame's animation frames later, so what its layout caused, a resize message, has been
 * sent). The tests wait on it instead of sleeping: for focus to land in a frame before typing, for
 * the wallet sheet to arm its Approve. `cpe-window-listeners` counts the test page window's listeners
 * of an event type, as DevTools sees them (nothing in the page is wrapped to count them).
 * `cpe-key-down-unacked` presses a key down without waiting for the browser's acknowledgement.
 * Browser side: `inFrame` and `windowListeners` in test/components/helpers.ts.
 */
export function frameCommands() {
  return {
    name: 'cpe-frame-commands',
    async executeCommand({ command, payload, session }) {
      if (command === 'cpe-window-listeners') return windowListeners(session.browser.getPage(session.id), payload.type);
      if (command === 'cpe-key-down-unacked') {
        // Sent, not awaited: a key that makes its own frame go away (Escape in the challenge page) may
        // never be acknowledged by that frame, and send-keys then hangs for the runner's 20 s. The
        // test awaits what the key does instead.
        session.browser.getPage(session.id).keyboard.down(payload.key).catch(() => {});
        return true;
      }
      if (command !== 'cpe-in-frame') return undefined;
      // One call looks for at most `sliceMs` and then answers {ok: false}: the runner ends any command
      // at 20 s, so the page asks again until its own deadline (inFrame in helpers.ts).
      const { frameUrl, selector, state, sliceMs } = payload;
      const page = session.browser.getPage(session.id);
      const deadline = Date.now() + sliceMs;
      // What each candidate frame showed last (by its path), for the message when none matches.
      const seen = {};
      for (;;) {
        const frames = page.frames().filter((frame) => !frame.detached && isCandidate(frame.url(), frameUrl));
        // Every candidate is asked at once, and the first match answers: a frame that keeps its
        // evaluation waiting (one navigating) holds up neither the others nor the command, which
        // always answers by the slice's end.
        const looks = frames.map((frame) => {
          const name = new URL(frame.url()).pathname;
          return frame.evaluate(inspect, selector, state === 'rendered').then(
            (found) => {
              seen[name] = found;
              return matches(found, state);
            },
            (error) => {
              seen[name] = error.message; // navigated or removed meanwhile: look again
              return false;
            },
          );
        });
        // Puppeteer's view of a cross-site frame (its own process) was once missing under load: the
        // frame not listed, or its evaluation never answered. After a second without an answer the
        // frames are also asked as the browser's own targets, over the DevTools protocol.
        const answer = await anyWithin(looks, Math.max(0, Math.min(1_000, deadline - Date.now())));
        if (answer === true) return { ok: true };
        const listed = new Set(frames.map((frame) => frame.url()));
        const unseen = answer === 'timeout' || targetsOf(page, frameUrl).some((target) => !listed.has(target.url()));
        if (unseen && Date.now() < deadline && (await anyWithin(await targetLooks(page, frameUrl, selector, state, seen), Math.max(0, deadline - Date.now()))) === true) return { ok: true };
        if (Date.now() > deadline) return { ok: false, seen: `${frames.length ? JSON.stringify(seen) : 'no such frame'}; the page's frames: ${page.frames().map((f) => new URL(f.url() || 'about:blank').pathname).join(', ')}` };
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/** A frame whose address has `frameUrl`, not the SDK's hidden page of the service (components/internal/frame.ts: a hidden frame never paints). */
const isCandidate = (url, frameUrl) => url.includes(frameUrl) && !url.includes('/frames/keep/');

const targetsOf = (page, frameUrl) =>
  page
    .browser()
    .targets()
    .filter((target) => target.type() !== 'page' && isCandidate(target.url(), frameUrl));

/** The same look as frame.evaluate, in each frame target of the page's browser whose address has `frameUrl`. */
async function targetLooks(page, frameUrl, selector, state, seen) {
  const expression = `(${inspect.toString()})(${JSON.stringify(selector)}, ${state === 'rendered'})`;
  return targetsOf(page, frameUrl).map(async (target) => {
    const name = `target ${new URL(target.url()).pathname}`;
    let cdp;
    try {
      cdp = await target.createCDPSession();
      const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
      if (exceptionDetails) throw new Error(exceptionDetails.text);
      seen[name] = result.value;
      return matches(result.value, state);
    } catch (error) {
      seen[name] = error.message;
      return false;
    } finally {
      cdp?.detach().catch(() => {});
    }
  });
}

/** True as soon as one of `looks` is true; false when all are false; 'timeout' when `ms` have passed first. */
function anyWithin(looks, ms) {
  return new Promise((resolve) => {
    let left = looks.length;
    const timer = setTimeout(() => resolve('timeout'), ms);
    const done = (value) => {
      clearTimeout(timer);
      resolve(value);
    };
    if (left === 0) done(false);
    for (const look of looks)
      look.then((ok) => {
        if (ok) done(true);
        else if (--left === 0) done(false);
      });
  });
}

const matches = (found, state) =>
  state === 'absent'
    ? !found.present
    : state === 'present' || state === 'rendered'
      ? found.present
      : state === 'enabled'
        ? found.present && found.enabled && found.visible
        : state === 'blurred'
          ? found.present && !found.focused
          : found.focused;

/** Runs in the frame: the first element matching `selector` in the document or any open shadow root, and its state. */
async function inspect(selector, painted) {
  if (painted) for (let i = 0; i < 2; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
  const find = (root) => {
    const hit = root.querySelector(selector);
    if (hit) return hit;
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) {
      const inner = find(el.shadowRoot);
      if (inner) return inner;
    }
    return null;
  };
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  const el = find(document);
  return {
    present: !!el,
    enabled: !!el && !el.disabled && !el.closest('fieldset:disabled'),
    visible: !!el && el.getClientRects().length > 0,
    focused: !!el && document.hasFocus() && active === el,
    // For the message when a wait fails: where this frame's focus is.
    hasFocus: document.hasFocus(),
    active: active ? `${active.tagName.toLowerCase()}${active.id ? `#${active.id}` : ''}` : null,
  };
}

/** How many `type` listeners the page's window has, by the DevTools protocol. */
async function windowListeners(page, type) {
  const cdp = await page.createCDPSession();
  try {
    const { result } = await cdp.send('Runtime.evaluate', { expression: 'window' });
    const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId });
    return listeners.filter((listener) => listener.type === type).length;
  } finally {
    await cdp.detach();
  }
}
