import { css, unsafeCSS } from 'lit';

/**
 * Default palettes (WCAG AA against their own backgrounds), each overridable by the `--cpe-*` token
 * of the same name that the element passed in and the frame set on :root.
 */
const LIGHT = {
  bg: '#ffffff', 'bg-alt': '#f3f4f6', fg: '#1a1c1f', 'fg-muted': '#50565f', border: '#6b7280', 'border-subtle': '#c9ced6',
  focus: '#1a5fd6', error: '#b42318', success: '#1a7f37', accent: '#1a5fd6',
  'input-bg': '#ffffff', 'input-fg': '#1a1c1f', 'input-placeholder': '#5f6670',
};
const DARK: typeof LIGHT = {
  bg: '#16181c', 'bg-alt': '#24282e', fg: '#eef0f3', 'fg-muted': '#b6bcc5', border: '#8d95a0', 'border-subtle': '#3d434c',
  focus: '#7cb1ff', error: '#ff968e', success: '#5fd381', accent: '#7cb1ff',
  'input-bg': '#1f2328', 'input-fg': '#eef0f3', 'input-placeholder': '#a3abb6',
};
const palette = (p: typeof LIGHT, scheme: string) =>
  unsafeCSS(
    Object.entries(p).map(([k, v]) => `--_${k}:var(--cpe-${k},${v});`).join('') +
      `--_input-border:var(--cpe-input-border,var(--cpe-border,${p.border}));color-scheme:${scheme};`,
  );

/**
 * The palettes, the spacing and type scale shared by every frame (the wallet sheet too). Sizes derive
 * from three tokens: `--cpe-gap` (between fields; half of it between a label and its input),
 * `--cpe-padding` (inside inputs) and `--cpe-control-height`. Type: 16 px inputs (no zoom on phones),
 * 14 px labels (12 px compact), 13 px messages.
 *
 * The colour scheme: `scheme="dark|light"` (what the element resolved: its `theme`, or with `auto`
 * the page around it), else `theme="dark"`, else `theme="auto"` following `prefers-color-scheme`.
 */
export const base = css`
  :host {
    ${palette(LIGHT, 'light')}
    --_font: var(--cpe-font, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    --_radius: var(--cpe-radius, 6px);
    --_gap: var(--cpe-gap, 12px);
    --_pad: var(--cpe-padding, 12px);
    --_h: var(--cpe-control-height, 44px);
    box-sizing: border-box;
    font: 400 16px/1.4 var(--_font);
    color: var(--_fg);
    background: var(--_bg);
  }
  :host([theme='dark']:not([scheme])),
  :host([scheme='dark']) {
    ${palette(DARK, 'dark')}
  }
  @media (prefers-color-scheme: dark) {
    :host([theme='auto']:not([scheme])) {
      ${palette(DARK, 'dark')}
    }
  }
  .sr {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
    border: 0;
  }
`;

/**
 * The card frames: no padding at the frame's edges (the inputs line up with the merchant's own
 * controls; focus rings are drawn inside the inputs). The fields sit in one grid whose arrangement
 * (`arr`, chosen in card-inputs.ts by measuring the texts against the width) is:
 *
 *   one     number | expiry | cvc | name       (row layouts, when every label and value fits)
 *   two     number | expiry | cvc, then name   (row layouts, when one row does not fit)
 *   split   number, then expiry | cvc, then name  (stack; row layouts when narrower still)
 *   column  one field per row                  (column layouts; anything narrower still)
 *
 * Labels share a grid row and are bottom-aligned, so the inputs of a row line up even when one label
 * wraps. Messages sit under their input; in `one` and `two` across the whole width.
 */
export const styles = css`
  ${base}
  :host {
    display: block;
    --_cgap: var(--_gap);
    --_lgap: calc(var(--_gap) / 2);
    --_ip: var(--_pad);
  }
  /* One row is tighter inside the inputs; the check of a complete field gives way (its green border stays). */
  :host([arr='one']) {
    --_ip: calc(var(--_pad) * 0.75);
  }
  :host([arr='one']) .check {
    display: none;
  }
  :host([layout^='row']) {
    --_cgap: calc(var(--_gap) * 2 / 3);
  }
  :host([layout$='-compact']) {
    --_lgap: calc(var(--_gap) / 3);
    --_h: calc(var(--cpe-control-height, 44px) - 4px);
  }
  .grid {
    display: grid;
    column-gap: var(--_cgap);
    row-gap: 0;
    grid-template-columns: minmax(0, 1fr);
  }
  .field {
    display: contents;
  }
  label,
  .box,
  .msg {
    grid-column: 1 / -1;
    min-width: 0;
  }
  label {
    display: block;
    align-self: end;
    margin-bottom: var(--_lgap);
    font-size: 0.875em;
    font-weight: 500;
    line-height: 18px;
  }
  :host([layout$='-compact']) label {
    font-size: 0.75em;
    line-height: 16px;
    color: var(--_fg-muted);
  }
  /* One row, or three then one: labels never wrap there (the arrangement is chosen so they fit). */
  :host([arr='one']) label,
  :host([arr='two']) :is(.number, .expiry, .cvc) > label {
    white-space: nowrap;
  }
  :host([arr='one']) .grid {
    grid-template-columns:
      minmax(var(--_m-number, 0px), 2.8fr) minmax(var(--_m-expiry, 0px), 1.15fr)
      minmax(var(--_m-cvc, 0px), 0.95fr) minmax(var(--_m-name, 0px), 1.6fr);
  }
  :host([arr='two']) .grid {
    grid-template-columns: minmax(var(--_m-number, 0px), 2fr) minmax(var(--_m-expiry, 0px), 1fr) minmax(var(--_m-cvc, 0px), 1fr);
  }
  :host([arr='split']) .grid {
    grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
  }
  /* Every item has its row (a visually hidden label takes no cell: nothing may flow into its place).
     Rows, by arrangement:      one      two            split
       number  label/box/msg    1, 2, 3  1, 2, 3        1, 2, 3
       expiry                   1, 2, 4  1, 2, 4        4, 5, 6 (column 1)
       cvc                      1, 2, 5  1, 2, 5        4, 5, 6 (column 2)
       name                     1, 2, 6  6, 7, 8        7, 8, 9                                     */
  :host(:not([arr='column'])) .number > label,
  :host(:is([arr='one'], [arr='two'])) .field > label {
    grid-row: 1;
  }
  :host(:not([arr='column'])) .number > .box,
  :host(:is([arr='one'], [arr='two'])) .field > .box {
    grid-row: 2;
  }
  :host(:not([arr='column'])) .number > .msg {
    grid-row: 3;
  }
  :host(:is([arr='one'], [arr='two'])) .expiry > .msg,
  :host([arr='split']) :is(.expiry, .cvc) > label {
    grid-row: 4;
  }
  :host(:is([arr='one'], [arr='two'])) .cvc > .msg,
  :host([arr='split']) :is(.expiry, .cvc) > .box {
    grid-row: 5;
  }
  :host([arr='one']) .name > .msg,
  :host([arr='two']) .name > label,
  :host([arr='split']) :is(.expiry, .cvc) > .msg {
    grid-row: 6;
  }
  :host([arr='two']) .name > .box,
  :host([arr='split']) .name > label {
    grid-row: 7;
  }
  :host([arr='two']) .name > .msg,
  :host([arr='split']) .name > .box {
    grid-row: 8;
  }
  :host([arr='split']) .name > .msg {
    grid-row: 9;
  }
  :host(:is([arr='one'], [arr='two'])) .number > :is(label, .box),
  :host([arr='split']) .expiry > * {
    grid-column: 1;
  }
  :host(:is([arr='one'], [arr='two'])) .expiry > :is(label, .box),
  :host([arr='split']) .cvc > * {
    grid-column: 2;
  }
  :host(:is([arr='one'], [arr='two'])) .cvc > :is(label, .box) {
    grid-column: 3;
  }
  :host([arr='one']) .name > :is(label, .box) {
    grid-column: 4;
  }
  /* The gap before each band of fields after the first, on its first visible item. */
  :host([arr='two']) .name > :is(label:not(.sr), .sr + .box),
  :host(:is([arr='split'], [arr='column'])) :is(.expiry, .cvc, .name) > :is(label:not(.sr), .sr + .box) {
    margin-top: var(--_gap);
  }
  .box {
    position: relative;
    display: flex;
    align-items: center;
  }
  .in {
    width: 100%;
    min-width: 0;
    box-sizing: border-box;
    height: var(--_h);
    margin: 0;
    padding: 0 var(--_ip);
    border: 1px solid var(--_input-border);
    border-radius: var(--_radius);
    background: var(--_input-bg);
    color: var(--_input-fg);
    font: inherit;
    outline: 0 solid transparent;
    outline-offset: -2px;
    transition: border-color 0.12s, outline-color 0.12s;
  }
  .in::placeholder {
    color: var(--_input-placeholder);
    opacity: 1;
  }
  /* States, all inside the input (nothing drawn past the frame's edges): focus a 2 px ring; invalid a
     red border (a red ring while focused); complete a green border and a check mark. */
  .in:focus {
    outline: 2px solid var(--_focus);
    border-color: var(--_focus);
  }
  .in.ok {
    border-color: var(--_success);
  }
  .in[aria-invalid='true'] {
    border-color: var(--_error);
  }
  .in[aria-invalid='true']:focus {
    outline-color: var(--_error);
  }
  @media (prefers-reduced-motion: reduce) {
    .in {
      transition: none;
    }
  }
  :host(:dir(rtl)) .in {
    text-align: right;
  }
  /* Room at the input's end for the scheme's mark or the check (numbers stay left to right). */
  .in.end {
    padding-right: var(--_end);
  }
  :host(:dir(rtl)) .in.end {
    padding-right: var(--_ip);
    padding-left: var(--_end);
  }
  .in.num {
    --_end: calc(var(--_ip) + 36px);
  }
  .in.ok:not(.num) {
    --_end: calc(var(--_ip) + 22px);
  }
  :host([arr='one']) .in.ok:not(.num) {
    --_end: var(--_ip);
  }
  .box > .logo,
  .box > .check {
    position: absolute;
    inset-inline-end: var(--_ip);
    pointer-events: none;
  }
  .logo {
    display: block;
    width: 30px;
    height: 19px;
  }
  .logo.blank {
    color: var(--_fg-muted);
    opacity: 0.7;
  }
  .check {
    width: 16px;
    height: 16px;
    color: var(--_success);
  }
  .msg {
    color: var(--_error);
    font-size: 0.8125em;
    line-height: 18px;
  }
  .msg:not(:empty) {
    margin-top: 4px;
  }
  .logos {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    margin: 0 0 var(--_lgap);
    padding: 0;
    list-style: none;
  }
  /* Every accepted scheme on one row down to 218 px (a mark is 26 to 32 px wide: lines are made at
     26); narrower, two rows of four and three, never one mark alone on a row. */
  .logos .logo {
    flex: 1 1 26px;
    max-width: 32px;
    height: 20px;
  }
  @media (max-width: 217px) {
    .logos {
      display: grid;
      grid-template-columns: repeat(4, 32px);
    }
  }
  .logos.picked .logo:not(.on) {
    opacity: 0.35;
  }
  .autofill {
    position: absolute;
    left: -2px;
    top: 0;
    width: 2px;
    height: 2px;
    opacity: 0;
    border: 0;
    padding: 0;
    pointer-events: none;
  }
  .unavailable {
    margin: 0;
    padding: 8px;
  }
`;
