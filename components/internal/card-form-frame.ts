import type { FrameAppName, Layout } from '../../protocol/runtime/frame-address.ts';
import { formHeight } from '../card/form-height.ts';
import type { FrameHost } from './frame-host.ts';
import { hostedFrame } from './hosted-frame.ts';
import type { CardElementOptions } from './options.ts';

type CardFormOptions = Omit<CardElementOptions, 'layout'> & { layout?: Layout };

/**
 * An element's one frame with the card form in it (the card element, a Flow, the payment element;
 * hostedFrame): its address has the layout (`layout` unless the options say another), the theme and
 * the scheme marks and the bands reserved, then what `more` adds. Until the frame's hello the element
 * reserves the form's height at its own width and in its language (form-height.ts; the frame keeps
 * those bands where they fit) and `more`'s extra pixels beside it (a Flow's button, the tabs), or the
 * page's `height` when it is more. (Not the layout's minimum: the row layouts' form is 4 px below it,
 * and the element shrank by that at the hello.)
 */
export function cardFormFrame<O extends CardFormOptions>(
  host: FrameHost,
  where: string,
  known: string,
  app: FrameAppName,
  title: string,
  layout: Layout,
  more: (options: O, layout: Layout) => [number, Record<string, string | undefined>] = () => [0, {}],
): void {
  hostedFrame<O>(host, where, known, app, title, (options, host) => {
    const chosen = options.layout ?? layout;
    const marks = options.cardSchemesDisplay;
    const [extra, params] = more(options, chosen);
    const [height, bands] = formHeight(chosen, host.clientWidth, marks, options.language, getComputedStyle(host));
    return [Math.max(options.height ?? 0, height + extra), { layout: chosen, theme: options.theme, marks, bands: `${bands}`, ...params }];
  });
}
