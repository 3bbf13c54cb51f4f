/**
 * The CPE browser SDK, served as one ES module at `<service>/sdk/cpe.js`:
 *
 *   import { createElements } from 'https://cpe.example/sdk/cpe.js';
 *   const elements = await createElements({ pubKey, createServerIntent, middleware });
 *
 * This module also defines the custom elements (through `defineElement`, which is a no-op during
 * server-side rendering).
 */
import { ElementsOptions } from '../protocol/elements-options.ts';
import { ElementsController } from './controller.ts';
import { describeIssues, SdkError } from './errors.ts';

export { ElementsController } from './controller.ts';
export { SdkError, type SdkErrorCode } from './errors.ts';
export { CPE_EVENTS, dispatchCpeEvent, type CpeEvent, type CpeEventDetails, type CpeEventName } from './events.ts';
export type { ElementsOptions, MiddlewareRoutes, CreateServerIntent } from '../protocol/elements-options.ts';
export type { PaymentIntentSession } from '../protocol/session.ts';

/** The service is whoever served this module: frames and session routes live on that origin. */
const serviceOrigin = (): string => new URL(import.meta.url).origin;

/**
 * Validates the options and returns the Elements controller. Invalid options reject with an
 * `SdkError` naming the option and the fix. No request is made until an element or
 * `getPaymentIntentId()` needs the session.
 */
export async function createElements(options: ElementsOptions): Promise<ElementsController> {
  const parsed = ElementsOptions.safeParse(options);
  if (!parsed.success) {
    const { message, option } = describeIssues('createElements', 'option', parsed.error.issues);
    throw new SdkError('invalid_options', message, option);
  }
  const { pubKey, createServerIntent, middleware } = parsed.data;
  return new ElementsController(serviceOrigin(), pubKey, createServerIntent, Object.freeze({ ...middleware }));
}
