/**
 * The tags in JSX (React 18.3 and 19 through `React.JSX`): `<cpe-card layout="stack" ref={card}>`
 * type-checks with every option, as its property (camelCase: React 19 sets it as a property in
 * the browser) or its attribute (kebab-case: what server rendering writes). Structural, so these
 * declarations need no framework's types. Events: listen on the element (a `ref`), or use
 * `cpe/react`, whose components take `onCpeChange`…
 */
import type { CpeCardFields, CpeCardFieldsProperties } from './card-fields/card-fields.component.ts';
import type { CpeCard, CpeCardProperties } from './card/card.component.ts';
import type { CpeElements, CpeElementsProperties } from './elements/elements.component.ts';
import type { CpePaymentFlow, CpePaymentFlowProperties } from './payment-flow/payment-flow.component.ts';
import type { CpeVerifyFlow } from './verify-flow/verify-flow.component.ts';
import type { CpeWalletA, CpeWalletAProperties } from './wallet-a/wallet-a.component.ts';
import type { CpeWalletB, CpeWalletBProperties } from './wallet-b/wallet-b.component.ts';
import type { CpePayment, CpePaymentProperties } from './payment/payment.component.ts';
// Makes 'react' known to the augmentation below when compiling here; declaration output drops it,
// so the SDK's types do not need React (the augmentation then only applies where React is).
import type {} from 'react';

/** `cardSchemesDisplay` → `card-schemes-display`. */
type Kebab<S extends string> = S extends `${infer Head}${infer Tail}` ? `${Head extends Lowercase<Head> ? Head : `-${Lowercase<Head>}`}${Kebab<Tail>}` : S;

/** The attributes of options `P`: one per option, an object option one per key (`total` → `total-amount`, `total-label`). */
export type OptionAttributes<P> = {
  [K in keyof P & string as NonNullable<P[K]> extends object ? `${Kebab<K>}-${Kebab<keyof NonNullable<P[K]> & string>}` : Kebab<K>]?: string | number | boolean;
};

/** What any tag takes besides its options. */
export interface BaseJsxProps<E> {
  ref?: { current: E | null } | ((element: E | null) => void) | null;
  children?: unknown;
  id?: string;
  class?: string;
  className?: string;
  slot?: string;
  hidden?: boolean;
  title?: string;
  lang?: string;
  dir?: string;
  tabIndex?: number;
  style?: string | Record<string, string | number | undefined>;
  [attribute: `aria-${string}`]: string | undefined;
  [attribute: `data-${string}`]: string | number | boolean | undefined;
}

/** A tag's JSX props: its option properties and attributes, all optional. */
export type JsxProps<E, P> = BaseJsxProps<E> & Partial<P> & OptionAttributes<P>;

/** Every tag's JSX props. */
export interface CpeJsxElements {
  'cpe-card': JsxProps<CpeCard, CpeCardProperties>;
  'cpe-card-fields': JsxProps<CpeCardFields, CpeCardFieldsProperties>;
  'cpe-payment-flow': JsxProps<CpePaymentFlow, CpePaymentFlowProperties>;
  'cpe-verify-flow': JsxProps<CpeVerifyFlow, CpePaymentFlowProperties>;
  'cpe-wallet-a': JsxProps<CpeWalletA, CpeWalletAProperties>;
  'cpe-wallet-b': JsxProps<CpeWalletB, CpeWalletBProperties>;
  'cpe-payment': JsxProps<CpePayment, CpePaymentProperties>;
  'cpe-elements': JsxProps<CpeElements, CpeElementsProperties>;
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements extends CpeJsxElements {}
  }
}
