/**
 * The option properties of an element (`el.layout`), typed from its factory's options `O`: each
 * reads its attribute, or its default (the keys `D`: never undefined), and setting one checks and
 * reflects it (components/define.ts). The options that are not attributes (`element`,
 * `resolveOptions`, `fields`) are not properties.
 */
export type OptionProperties<O, D extends keyof O = never> = {
  -readonly [K in Exclude<keyof O, 'element' | 'resolveOptions' | 'fields'>]-?: K extends D ? Exclude<O[K], undefined> : O[K];
};
