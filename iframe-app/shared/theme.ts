import type { ColorScheme, FrameConfig } from '../../protocol/schemas/bridge.ts';

/** The nineteen theme tokens of the spec, the only custom properties a frame accepts. */
export const TOKEN_NAMES = [
  '--cpe-bg', '--cpe-bg-alt', '--cpe-fg', '--cpe-fg-muted', '--cpe-border', '--cpe-border-subtle', '--cpe-focus',
  '--cpe-error', '--cpe-success', '--cpe-accent', '--cpe-input-bg', '--cpe-input-fg', '--cpe-input-border',
  '--cpe-input-placeholder', '--cpe-font', '--cpe-radius', '--cpe-gap', '--cpe-padding', '--cpe-control-height',
] as const;
const LENGTHS = new Set(['--cpe-radius', '--cpe-gap', '--cpe-padding', '--cpe-control-height']);

/** Values that could escape a declaration or fetch something: dropped (inject-stylesheet's filters). */
const HOSTILE = /[;{}<>\\@]|url\s*\(|expression|javascript|image-set|src\s*\(/i;

/**
 * The tokens the frame applies: known names only, values re-validated here whatever the page sent.
 * A bare number for a length token (`8`) means pixels.
 */
export function safeTokens(tokens: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of TOKEN_NAMES) {
    const raw = tokens[name];
    if (typeof raw !== 'string' && typeof raw !== 'number') continue;
    let value = String(raw).trim();
    if (!value || value.length > 200 || HOSTILE.test(value) || /[\u0000-\u001f]/.test(value)) continue;
    if (LENGTHS.has(name) && /^-?\d+(\.\d+)?$/.test(value)) value += 'px';
    out[name] = value;
  }
  return out;
}

/** Sets the safe tokens as custom properties on :root, removing any applied before and now absent. */
export function applyTokens(tokens: Record<string, unknown>, root: HTMLElement = document.documentElement): Record<string, string> {
  const safe = safeTokens(tokens);
  for (const name of TOKEN_NAMES) {
    if (name in safe) root.style.setProperty(name, safe[name]!);
    else root.style.removeProperty(name);
  }
  return safe;
}

/** The frame element's colour scheme: `scheme` (light/dark) picks the palette in shared/styles.ts. */
export interface Themed {
  colorScheme?: ColorScheme;
}

/**
 * A frame config's look: the tokens on :root, and the colour scheme the element resolved (a forced
 * `theme`, or for `auto` the page around the element) on the app element. Without one (an older SDK)
 * the element keeps following `prefers-color-scheme`.
 */
export function applyTheme(el: Themed, config: Pick<FrameConfig, 'tokens' | 'scheme'>, root: HTMLElement = document.documentElement): void {
  applyTokens(config.tokens, root);
  if (!config.scheme) return;
  el.colorScheme = config.scheme;
  // The document's scheme matches its iframe's (the SDK sets that): the browser keeps the frame transparent.
  root.style.colorScheme = config.scheme;
}
