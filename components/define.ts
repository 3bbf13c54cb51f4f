/** `cardSchemesDisplay` → `card-schemes-display`. */
export const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
/** `card-schemes-display` → `cardSchemesDisplay`. */
export const camel = (name: string) => name.replace(/-(.)/g, (_, c: string) => c.toUpperCase());

/**
 * An element whose options are properties: `el.layout` reads an option (its attribute, or its
 * default) and `el.layout = 'stack'` checks the value (an SdkError, as the factory would throw) and
 * reflects it to the attribute, whose change re-renders the element.
 */
export interface OptionProperties {
  readOption(name: string): unknown;
  writeOption(name: string, value: unknown): void;
}

const copies = globalThis as { __cpeSdk?: string };
/**
 * The address of another copy of the SDK on this page that defined the elements first (a
 * micro-frontend, a tag manager): this copy's classes are then not the registered ones, and
 * constructing one would throw "Illegal constructor". Undefined when this copy is the first.
 */
export const firstCopy = typeof customElements !== 'undefined' && copies.__cpeSdk !== import.meta.url ? copies.__cpeSdk : undefined;
if (typeof customElements !== 'undefined') copies.__cpeSdk ??= import.meta.url;

/** A custom element class; with `props`, its prototype implements OptionProperties. */
type Reflecting = CustomElementConstructor & { props?: readonly string[] };

/**
 * Registers a custom element once, and only where there is a registry: importing the SDK during
 * server-side rendering (no `customElements`) or twice on one page (two script tags) is harmless.
 * Its options (`props`) become accessors on its prototype.
 */
export function defineElement(tag: string, element: Reflecting): void {
  if (typeof customElements === 'undefined' || customElements.get(tag)) return;
  for (const name of element.props ?? [])
    Object.defineProperty(element.prototype, name, {
      configurable: true,
      get(this: OptionProperties) {
        return this.readOption(name);
      },
      set(this: OptionProperties, value: unknown) {
        this.writeOption(name, value);
      },
    });
  customElements.define(tag, element);
}

/**
 * A property a framework set before the SDK defined the tag is an own property of the element,
 * hiding the accessor: take it out and set it again through the accessor (what Lit does too).
 */
export function adoptEarlyProperties(element: HTMLElement, props: readonly string[]): void {
  for (const name of props)
    if (Object.hasOwn(element, name)) {
      const value = (element as unknown as Record<string, unknown>)[name];
      delete (element as unknown as Record<string, unknown>)[name];
      (element as unknown as Record<string, unknown>)[name] = value;
    }
}

/** `HTMLElement` in a browser; a plain class during server-side rendering, so importing never throws. */
export const HTMLElementOrStub = (typeof HTMLElement === 'undefined' ? class {} : HTMLElement) as typeof HTMLElement;
