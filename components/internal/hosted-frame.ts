import type { FrameAppName } from '../../protocol/runtime/frame-address.ts';
import { dispatchCpeEvent } from '../events.ts';
import type { FrameHost, HostController } from './frame-host.ts';
import { Frame } from './frame.ts';
import { resolveTarget, type SharedElementOptions } from './options.ts';

/**
 * Adds an element's one frame of the service, in its shadow root (the card form, a Flow, a wallet
 * button): a factory's element goes into its `element` container first (`where` names it in a bad
 * target's SdkError; `known` is the selector `resolveOptions.autoDiscover` finds it by), it reserves
 * `look`'s height until the frame is ready, and each `change` of the frame is the element's
 * `cpe:change` (a wallet button has none).
 */
export function hostedFrame<O extends Pick<SharedElementOptions, 'element' | 'language' | 'resolveOptions'>>(
  host: FrameHost,
  where: string,
  known: string,
  app: FrameAppName,
  title: string,
  /** The height to reserve (CSS pixels; the element is in the page) and the page's own address parameters. */
  look: (options: O, host: FrameHost) => [number, Record<string, string | undefined>],
): void {
  host.addController({
    hostInit(_controller, options, factory) {
      if (factory && !host.isConnected) resolveTarget(where, 'element', options.element, options.resolveOptions, known).append(host);
    },
    hostFrames(controller, options) {
      const [height, params] = look(options, host);
      host.style.minHeight = `${height}px`;
      return [new Frame(host, controller, app, options.language, params, title).place(host.shadowRoot!)];
    },
    hostFrameEvent(_frame, name, detail) {
      if (name === 'change') dispatchCpeEvent(host, 'cpe:change', detail as never);
    },
  } satisfies HostController<O>);
}
