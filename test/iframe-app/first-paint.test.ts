import { expect, waitUntil } from '@open-wc/testing';
import type { CardInputs } from '../../iframe-app/shared/card-inputs.ts';
import { LANGUAGES } from '../../iframe-app/shared/i18n.ts';
import { Hello } from '../../protocol/schemas/bridge.ts';
import { LAYOUTS, type Layout } from '../../protocol/schemas/frame-url.ts';
import { formHeight } from '../../components/card/form-height.ts';
import { scaled } from '../../testkit/time.ts';
import { withTimeout } from '../../testkit/wait.ts';

/**
 * No layout shift: the element reserves the card form's height before its frame exists
 * (components/card/form-height.ts), at its width and in its language, and puts the bands it reserved
 * in the frame's address; the card form's page as the service sends it (the form in it) reports its
 * height in `hello` before its first paint (before any module has run), and once its code has taken
 * the form over (hydrated, arranged again) the form is exactly that tall, and as tall as reserved: in
 * every layout and language, at the widths the layout tests cover (long-labels.test.ts), with each
 * scheme marks setting (1,908 page loads).
 */
const WIDTHS = [320, 375, 520, 768];
/** One page load's limit, before scaling. */
const LOAD_MS = 20_000;

/**
 * Loads the page at `width`, as the element would; the height reserved, its hello's, and the form's
 * once its code has taken it over. Each load has its own limit and says which step it was at: one
 * page that never answers fails its language at once, with its address, rather than leaving the
 * file to run into the runner's guard (which reports nothing of what it had run).
 */
async function heights(lang: string, layout: Layout, marks: string, width: number): Promise<{ reserved: number; hello: number; after: number; where: string }> {
  const session = crypto.randomUUID();
  const [reserved, bands] = formHeight(layout, width, marks, lang, getComputedStyle(document.body));
  const query = `lang=${lang}&layout=${layout}&marks=${marks}&bands=${bands}`;
  const iframe = document.createElement('iframe');
  iframe.style.width = `${width}px`;
  iframe.style.height = '600px';
  iframe.src = `/iframe-app/card-form/index.html?pk=pk_test_1&${query}#${session}&w=${width}`;
  let step = 'no hello';
  // The hello's height, and whether the page's code had taken the form over by then (it must not have:
  // checked below, not in the listener, where a failed check would leave this promise unsettled).
  let said: (e: MessageEvent) => void = () => {};
  const hello = new Promise<{ height: number; hydrated: boolean }>((resolve) => {
    said = (e) => {
      if (e.source !== iframe.contentWindow || !Hello.safeParse(e.data).success || e.data.session !== session) return;
      resolve({ height: e.data.height, hydrated: (iframe.contentDocument!.querySelector('cpe-card-form') as CardInputs).hasUpdated === true });
    };
    addEventListener('message', said);
  });
  const measure = async () => {
    const { height: h, hydrated } = await hello;
    expect(hydrated, `${query} ${width}: hydrated before the hello`).to.equal(false);
    step = 'its code did not take the form over';
    const el = await waitUntil(() => {
      const form = iframe.contentDocument?.querySelector('cpe-card-form') as CardInputs | null;
      return form?.hasUpdated && !form.hasAttribute('defer-hydration') ? form : undefined;
    }, step, { timeout: scaled(LOAD_MS) }).then(() => iframe.contentDocument!.querySelector('cpe-card-form') as CardInputs);
    await el.updateComplete;
    step = 'no animation frame after it did';
    await new Promise((resolve) => requestAnimationFrame(resolve));
    return { reserved, hello: h, after: Math.ceil(el.getBoundingClientRect().height), where: `${query} ${width}px (${el.getAttribute('arr')})` };
  };
  document.body.append(iframe);
  try {
    return await withTimeout(measure(), LOAD_MS, () => `${query} ${width}px: ${step}`);
  } finally {
    removeEventListener('message', said);
    iframe.remove();
  }
}

describe('the card form is as tall as the element reserved, and keeps the height it reported before its first paint', function () {
  this.timeout(scaled(120_000));
  // A language that failed ends the file: the next would most likely fail the same way, 2 minutes each.
  this.bail(true);
  for (const lang of LANGUAGES)
    it(`${lang}: every layout at ${WIDTHS.join(', ')} px, with the detected mark, all marks, none (each at 520 px)`, async () => {
      const MARKS = ['detected', 'all', 'none'];
      const cases = LAYOUTS.flatMap((layout) => WIDTHS.flatMap((width) => (width === 520 ? MARKS : [MARKS[width % 3]!]).map((marks) => ({ layout, marks, width }))));
      const found: string[] = [];
      // A few pages at a time.
      for (let i = 0; i < cases.length; i += 8) {
        const measured = await Promise.all(cases.slice(i, i + 8).map(({ layout, marks, width }) => heights(lang, layout, marks, width)));
        for (const m of measured) if (m.reserved !== m.hello || m.hello !== m.after) found.push(`${m.where}: ${m.reserved} px reserved, ${m.hello} px at the hello, ${m.after} px after`);
      }
      expect(found, found.join('\n')).to.deep.equal([]);
    });
});

describe('a card form page parsed before its iframe is laid out', () => {
  it('says hello only once it has a size, with the height the form has (never 0)', async () => {
    const session = crypto.randomUUID();
    const iframe = document.createElement('iframe');
    // Not laid out in the page yet: as a new iframe is until the page around it renders (on a busy machine, for longer than the page's wait for its width).
    iframe.style.cssText = 'display: none; width: 520px; height: 600px; border: 0';
    iframe.src = `/iframe-app/card-form/index.html?pk=pk_test_1&lang=en&layout=row&__nomodule#${session}&w=520`;
    const hellos: number[] = [];
    const said = (e: MessageEvent) => e.source === iframe.contentWindow && Hello.safeParse(e.data).success && e.data.session === session && hellos.push(e.data.height);
    addEventListener('message', said);
    try {
      const loaded = new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }));
      document.body.append(iframe);
      await loaded;
      // What the page's wait for its width ends on (a resize, or its 200 ms): the form has no box yet.
      iframe.contentWindow!.dispatchEvent(new Event('resize'));
      iframe.style.display = 'block';
      await waitUntil(() => hellos.length > 0, 'no hello once the iframe was laid out');
      const form = iframe.contentDocument!.querySelector('cpe-card-form')!;
      expect(hellos[0], 'the first hello').to.be.above(0);
      expect(hellos[0], 'the first hello').to.equal(Math.ceil(form.getBoundingClientRect().height));
      // One hello per page load.
      iframe.contentWindow!.dispatchEvent(new Event('resize'));
      await new Promise((resolve) => requestAnimationFrame(resolve));
      expect(hellos).to.have.length(1);
    } finally {
      removeEventListener('message', said);
      iframe.remove();
    }
  });
});
