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

export const styles = css`
  :host {
    ${palette(LIGHT, 'light')}
    --_font: var(--cpe-font, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    --_radius: var(--cpe-radius, 6px);
    --_gap: var(--cpe-gap, 12px);
    --_pad: var(--cpe-padding, 12px);
    --_h: var(--cpe-control-height, 44px);
    display: block;
    box-sizing: border-box;
    padding: 4px;
    font-family: var(--_font);
    font-size: 16px;
    line-height: 1.3;
    color: var(--_fg);
    background: var(--_bg);
  }
  :host([theme='dark']) {
    ${palette(DARK, 'dark')}
  }
  @media (prefers-color-scheme: dark) {
    :host([theme='auto']) {
      ${palette(DARK, 'dark')}
    }
  }
  .grid {
    display: grid;
    gap: var(--_gap);
    grid-template-columns: minmax(0, 1fr);
    align-items: start;
  }
  :host([layout='stack']) .grid {
    grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
  }
  :host([layout='stack']) .number,
  :host([layout='stack']) .name {
    grid-column: 1 / -1;
  }
  /* One row: labels in the first grid row, inputs in the second (so they line up when a label
     wraps), and each message below across the whole width, still tied to its input. */
  :host([layout^='row']) .grid {
    grid-template-columns: minmax(0, 2.8fr) minmax(0, 1.15fr) minmax(0, 0.95fr) minmax(0, 1.6fr);
    column-gap: calc(var(--_gap) * 0.67);
    row-gap: 0;
  }
  :host([layout^='row']) .field {
    display: contents;
  }
  :host([layout^='row']) .number > * {
    grid-column: 1;
  }
  :host([layout^='row']) .expiry > * {
    grid-column: 2;
  }
  :host([layout^='row']) .cvc > * {
    grid-column: 3;
  }
  :host([layout^='row']) .name > * {
    grid-column: 4;
  }
  :host([layout^='row']) label {
    grid-row: 1;
    align-self: end;
  }
  :host([layout^='row']) .box {
    grid-row: 2;
  }
  :host([layout^='row']) .field > .msg {
    grid-column: 1 / -1;
  }
  :host([layout^='row']) .in {
    padding: 0 calc(var(--_pad) * 0.75);
  }
  /* Below 420 px a row cannot show a card number: the row wraps as stack does. */
  :host([layout^='row']) {
    container-type: inline-size;
  }
  @container (max-width: 419px) {
    :host([layout^='row']) .grid {
      grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
      grid-template-rows: none;
      row-gap: calc(var(--_gap) * 0.67);
    }
    :host([layout^='row']) .field {
      display: block;
    }
    :host([layout^='row']) .number,
    :host([layout^='row']) .name {
      grid-column: 1 / -1;
    }
  }
  :host([layout='column-compact']) .grid {
    gap: calc(var(--_gap) * 0.5);
  }
  :host([field]) .grid {
    grid-template-columns: minmax(0, 1fr);
  }
  label {
    display: block;
    margin-bottom: 4px;
    font-size: 0.875em;
    font-weight: 600;
  }
  :host([layout$='-compact']) label {
    margin-bottom: 2px;
    font-size: 0.75em;
    font-weight: 500;
    color: var(--_fg-muted);
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
    padding: 0 var(--_pad);
    border: 1px solid var(--_input-border);
    border-radius: var(--_radius);
    background: var(--_input-bg);
    color: var(--_input-fg);
    font: inherit;
  }
  :host([layout$='-compact']) .in {
    height: calc(var(--_h) - 6px);
  }
  .in::placeholder {
    color: var(--_input-placeholder);
    opacity: 1;
  }
  .in:focus {
    outline: 2px solid var(--_focus);
    outline-offset: 1px;
    border-color: var(--_focus);
  }
  .in.ok:not(:focus) {
    border-color: var(--_success);
  }
  .in[aria-invalid='true'] {
    border-color: var(--_error);
    box-shadow: inset 0 0 0 1px var(--_error);
  }
  /* The number is left to right in every language: its badge sits on the right. */
  .in.num {
    padding-right: 50px;
  }
  :host(:dir(rtl)) .in {
    text-align: right;
  }
  .msg {
    margin-top: 4px;
    color: var(--_error);
    font-size: 0.8125em;
  }
  .msg:empty {
    margin: 0;
  }
  .box .badge {
    position: absolute;
    right: 8px;
  }
  .badges {
    display: flex;
    flex-wrap: wrap;
    gap: 4px;
    margin-bottom: 8px;
  }
  .badge {
    display: inline-block;
    padding: 3px 4px;
    border: 1px solid var(--_border-subtle);
    border-radius: 3px;
    background: var(--_bg-alt);
    color: var(--_fg-muted);
    font: 700 10px/1 var(--_font);
    letter-spacing: 0.03em;
  }
  .badge.on {
    border-color: var(--_accent);
    color: var(--_fg);
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
