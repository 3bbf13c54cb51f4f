/**
 * `cpe/react`: a React component for every CPE element, safe to render on the server.
 *
 *   <CpeElements pubKey="pk_test_…" intentUrl="/api/payment-intents">
 *     <CpeCard ref={card} layout="row" onCpeChange={(e) => setComplete(e.detail.complete)} />
 *   </CpeElements>
 *
 * Each renders its tag with the options as attributes (kebab-case, an object option one per key:
 * `total` → `total-amount`, `total-label`), so the server's HTML is what the browser's first render
 * is (hydration agrees), and the element reads them once the SDK defines it. `on…` props listen to
 * the element's events (`onCpeChange` → `cpe:change`, `onCpeElementsReady` → `cpe-elements:ready`);
 * `controller` is set as a property; `ref` is the element (`card.current.tokenise()`). Nothing here
 * touches `window` or `customElements`: the tags are defined by the SDK, loaded from the service
 * (`<script type="module" src="https://…/sdk/cpe.js">`), which finds its frames by where it came from.
 * The same approach as @lit/react's `createComponent`, but with attributes on the server too.
 *
 * Inside `<CpeElements>`, `useCpe()` gives a component the controller and the Payment Intent's id,
 * and `useElement('cpe-payment')` the element a sibling component rendered, without refs (as
 * Stripe's `useStripe()` and `useElements()`):
 *
 *   function PayButton() {
 *     const payment = useElement('cpe-payment');
 *     const { paymentIntentId } = useCpe();
 *     return <button onClick={() => payment?.pay()}>Pay</button>;
 *   }
 */
import {
  createContext,
  createElement,
  forwardRef,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ForwardRefExoticComponent,
  type HTMLAttributes,
  type ReactNode,
  type RefAttributes,
} from 'react';
import type {
  CpeCard as CardElement,
  CpeCardFields as CardFieldsElement,
  CpeCardFieldsProperties,
  CpeCardProperties,
  CpeElements as ElementsElement,
  CpeElementsProperties,
  CpeEvent,
  CpeEventName,
  CpePayment as PaymentElement,
  CpePaymentFlow as PaymentFlowElement,
  CpePaymentFlowProperties,
  CpePaymentProperties,
  CpeVerifyFlow as VerifyFlowElement,
  CpeWalletA as WalletAElement,
  CpeWalletAProperties,
  CpeWalletB as WalletBElement,
  CpeWalletBProperties,
  ElementsController,
} from 'cpe/sdk';

/** `cpe:processing:start` → `CpeProcessingStart`. */
type Pascal<S extends string> = S extends `${infer Head}:${infer Tail}` ? `${Capitalize<Head>}${Pascal<Tail>}` : Capitalize<S>;
/** `onCpeChange`… for events `K`. */
export type CpeEventProps<K extends CpeEventName> = { [N in K as `on${Pascal<N>}`]?: (event: CpeEvent<N>) => void };

type CardEvents = Exclude<CpeEventName, 'cpe:availability' | 'cpe:wallet:approved' | 'cpe:wallet:cancel'>;
type WalletEvents = Exclude<CpeEventName, 'cpe:change' | 'cpe:processing:start' | 'cpe:processing:end'>;

/** A component's props: the element's options, its events, `controller`, and what any element takes (`className`, `style`, `children`…). */
export type CpeProps<E extends HTMLElement, P, K extends CpeEventName> = Partial<P> &
  CpeEventProps<K> &
  Omit<HTMLAttributes<E>, keyof P> & {
    /** The Elements controller (else the enclosing `<CpeElements>`'s). */
    controller?: ElementsController;
    children?: ReactNode;
  };

export type CpeCardProps = CpeProps<CardElement, CpeCardProperties, CardEvents>;
export type CpeCardFieldsProps = CpeProps<CardFieldsElement, CpeCardFieldsProperties, CardEvents>;
export type CpePaymentFlowProps = CpeProps<PaymentFlowElement, CpePaymentFlowProperties, CardEvents>;
export type CpeVerifyFlowProps = CpeProps<VerifyFlowElement, CpePaymentFlowProperties, CardEvents>;
export type CpePaymentProps = CpeProps<PaymentElement, CpePaymentProperties, CpeEventName>;
export type CpeWalletAProps = CpeProps<WalletAElement, CpeWalletAProperties, WalletEvents>;
export type CpeWalletBProps = CpeProps<WalletBElement, CpeWalletBProperties, WalletEvents>;
export type CpeElementsProps = Omit<CpeProps<ElementsElement, CpeElementsProperties, 'cpe:error'>, 'controller'> & {
  /** The controller exists (again after each change of its options): `event.detail.controller`. */
  onCpeElementsReady?: (event: CustomEvent<{ controller: ElementsController }>) => void;
};

/** Props React renders as it always does (not options). */
const REACT_PROPS = new Set(['children', 'className', 'style', 'id', 'slot', 'hidden', 'title', 'lang', 'dir', 'tabIndex', 'role', 'suppressHydrationWarning']);
const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
/** `onCpeProcessingStart` → `cpe:processing:start`; `onCpeElementsReady` → `cpe-elements:ready`. */
const eventOf = (prop: string) => (prop === 'onCpeElementsReady' ? 'cpe-elements:ready' : kebab(prop.slice(2)).slice(1).replace(/-/g, ':'));

/** Options as attributes: strings, numbers and booleans as text, a list space-separated, an object one attribute per key; `null` and `undefined` none. */
function attributes(name: string, value: unknown, into: Record<string, string>): void {
  if (value == null) return;
  if (Array.isArray(value)) into[name] = value.join(' ');
  else if (typeof value === 'object') for (const [key, v] of Object.entries(value)) attributes(`${name}-${kebab(key)}`, v, into);
  else into[name] = String(value);
}

/** What `<CpeElements>` shares with the components inside it. */
interface CpeContext {
  controller?: ElementsController;
  paymentIntentId?: string;
  /** The CPE elements rendered inside, in the order they mounted. */
  elements: readonly HTMLElement[];
  register(element: HTMLElement): () => void;
}
const Context = createContext<CpeContext>({ elements: [], register: () => () => {} });

/**
 * The enclosing `<CpeElements>`'s controller (undefined until it made one, and outside a provider)
 * and the id of its Payment Intent, once an element has one (it mounted with its session, or a
 * payment made one): re-rendered when either changes.
 */
export function useCpe(): { controller?: ElementsController; paymentIntentId?: string } {
  const { controller, paymentIntentId } = useContext(Context);
  return { controller, paymentIntentId };
}

type CpeTag = 'cpe-card' | 'cpe-card-fields' | 'cpe-payment' | 'cpe-payment-flow' | 'cpe-verify-flow' | 'cpe-wallet-a' | 'cpe-wallet-b';
/**
 * A CPE element rendered by a component inside the same `<CpeElements>` (the first one, or the first
 * of `tag`), once it is in the page: call its `pay()`, `tokenise()`… from a sibling, without a ref.
 */
export function useElement<T extends CpeTag = CpeTag>(tag?: T): HTMLElementTagNameMap[T] | undefined {
  const { elements } = useContext(Context);
  return elements.find((element) => !tag || element.localName === tag) as HTMLElementTagNameMap[T] | undefined;
}

// Layout effects do not run on the server, where React 18 would warn about them: plain effects there.
const useIsomorphicLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;

function component<E extends HTMLElement, Props extends object>(tag: string, displayName: string): ForwardRefExoticComponent<Props & RefAttributes<E>> {
  const Component = forwardRef<E, Props>((props, forwarded) => {
    const element = useRef<E | null>(null);
    const rendered: Record<string, unknown> = {};
    const handlers: Record<string, (event: Event) => void> = {};
    let controller: ElementsController | undefined;
    for (const [name, value] of Object.entries(props)) {
      if (name === 'controller') controller = value as ElementsController;
      else if (/^onCpe[A-Z]/.test(name)) handlers[eventOf(name)] = value as (event: Event) => void;
      else if (REACT_PROPS.has(name) || /^(on[A-Z]|aria-|data-)/.test(name)) rendered[name] = value;
      else attributes(kebab(name), value, rendered as Record<string, string>);
    }
    // The latest handlers, read when an event comes: listeners change only when the set of events does.
    const latest = useRef(handlers);
    latest.current = handlers;
    const events = Object.keys(handlers).sort().join(' ');
    useIsomorphicLayoutEffect(() => {
      const target = element.current;
      if (!target || !events) return;
      const listener = (event: Event) => latest.current[event.type]?.(event);
      for (const type of events.split(' ')) target.addEventListener(type, listener);
      return () => {
        for (const type of events.split(' ')) target.removeEventListener(type, listener);
      };
    }, [events]);
    useIsomorphicLayoutEffect(() => {
      if (controller && element.current) (element.current as unknown as { controller?: ElementsController }).controller = controller;
    }, [controller]);
    // Known to the enclosing <CpeElements> (useElement) while mounted.
    const { register } = useContext(Context);
    useIsomorphicLayoutEffect(() => (element.current && tag !== 'cpe-elements' ? register(element.current) : undefined), [register]);
    const ref = useCallback(
      (node: E | null) => {
        element.current = node;
        if (typeof forwarded === 'function') forwarded(node);
        else if (forwarded) forwarded.current = node;
      },
      [forwarded],
    );
    return createElement(tag, { ...rendered, ref });
  });
  Component.displayName = displayName;
  return Component as ForwardRefExoticComponent<Props & RefAttributes<E>>;
}

/** `<cpe-card>`: the hosted card form. */
export const CpeCard = component<CardElement, CpeCardProps>('cpe-card', 'CpeCard');
/** `<cpe-card-fields>`: the four hosted fields, in the `[data-cpe-field]` children you give it. */
export const CpeCardFields = component<CardFieldsElement, CpeCardFieldsProps>('cpe-card-fields', 'CpeCardFields');
/** `<cpe-payment-flow>`: the card form with its own Pay button. */
export const CpePaymentFlow = component<PaymentFlowElement, CpePaymentFlowProps>('cpe-payment-flow', 'CpePaymentFlow');
/** `<cpe-verify-flow>`: a card check that takes no money. */
export const CpeVerifyFlow = component<VerifyFlowElement, CpeVerifyFlowProps>('cpe-verify-flow', 'CpeVerifyFlow');
/** `<cpe-wallet-a>`: wallet A's button. */
export const CpeWalletA = component<WalletAElement, CpeWalletAProps>('cpe-wallet-a', 'CpeWalletA');
/** `<cpe-wallet-b>`: wallet B's button. */
export const CpeWalletB = component<WalletBElement, CpeWalletBProps>('cpe-wallet-b', 'CpeWalletB');
/** `<cpe-payment>`: every method in one element, as tabs; its Pay button, or yours calling `pay()`. */
export const CpePayment = component<PaymentElement, CpePaymentProps>('cpe-payment', 'CpePayment');

const ProviderElement = component<ElementsElement, CpeElementsProps>('cpe-elements', 'CpeElementsElement');

/**
 * `<cpe-elements>`: the provider, making the controller of the elements inside it, and the context
 * of `useCpe()` and `useElement()` for the components inside it.
 */
export const CpeElements = forwardRef<ElementsElement, CpeElementsProps>(function CpeElements(props, forwarded) {
  const [controller, setController] = useState<ElementsController>();
  const [paymentIntentId, setPaymentIntentId] = useState<string>();
  const [elements, setElements] = useState<readonly HTMLElement[]>([]);
  const register = useCallback((element: HTMLElement) => {
    setElements((all) => [...all, element]);
    return () => setElements((all) => all.filter((e) => e !== element));
  }, []);
  const { onCpeElementsReady, ...rest } = props;
  const element = useRef<ElementsElement | null>(null);
  // The intent's id appears with an element's session (its ready) or a payment's (Checkout Context).
  useIsomorphicLayoutEffect(() => {
    const target = element.current;
    if (!target) return;
    const seen = () => setPaymentIntentId(target.controller?.current?.paymentIntentId);
    target.addEventListener('cpe:ready', seen);
    target.addEventListener('cpe:payment:end', seen);
    return () => {
      target.removeEventListener('cpe:ready', seen);
      target.removeEventListener('cpe:payment:end', seen);
    };
  }, []);
  const ref = useCallback(
    (node: ElementsElement | null) => {
      element.current = node;
      if (node?.controller) setController(node.controller);
      if (typeof forwarded === 'function') forwarded(node);
      else if (forwarded) forwarded.current = node;
    },
    [forwarded],
  );
  const ready = useCallback(
    (event: CustomEvent<{ controller: ElementsController }>) => {
      setController(event.detail.controller);
      setPaymentIntentId(undefined);
      onCpeElementsReady?.(event);
    },
    [onCpeElementsReady],
  );
  const value = useMemo(() => ({ controller, paymentIntentId, elements, register }), [controller, paymentIntentId, elements, register]);
  return createElement(Context.Provider, { value }, createElement(ProviderElement, { ...rest, onCpeElementsReady: ready, ref }));
});
CpeElements.displayName = 'CpeElements';
