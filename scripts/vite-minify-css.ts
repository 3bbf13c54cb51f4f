import type { Plugin } from 'vite';
import { minifyCss } from '../iframe-app/ssr/minify-css.ts';

/**
 * Lit's `css` templates reach the bundle as written (comments, indentation): Vite minifies the code
 * around them, never a template's text. This minifies the static parts of each css`…` template in the
 * frames' sources: comments go, whitespace collapses to one space and goes entirely next to
 * `{ } ; , :` and `>`, where CSS never needs it. An interpolation (`${palette(…)}`) keeps one space
 * on a side where the source had some and the CSS there may need it (a value in the middle of a
 * declaration).
 */
export function minifyCssTemplates(): Plugin {
  return {
    name: 'cpe:minify-css-templates',
    enforce: 'pre',
    transform(code, id) {
      if (!/\/iframe-app\/.*\.ts$/.test(id) || !code.includes('css`')) return undefined;
      return { code: minifyCssIn(code), map: null };
    },
  };
}

/** Every css`…` template of `code`, its static parts minified. */
export function minifyCssIn(code: string): string {
  let out = '';
  let at = 0;
  for (let start = code.indexOf('css`', at); start >= 0; start = code.indexOf('css`', at)) {
    out += code.slice(at, start + 4);
    let i = start + 4;
    let chunk = '';
    let afterInterpolation = false;
    // One space stays between an interpolation and the CSS beside it where the source had some.
    const flush = (beforeInterpolation: boolean) => {
      const css = minifyCss(chunk);
      const lead = afterInterpolation && /^\s/.test(chunk) && !/^[{};,>)]/.test(css) ? ' ' : '';
      const trail = beforeInterpolation && /\s$/.test(chunk) && css && !/[{};,>:(]$/.test(css) ? ' ' : '';
      out += lead + css + trail;
      chunk = '';
    };
    while (i < code.length && code[i] !== '`') {
      if (code[i] === '\\') {
        chunk += code.slice(i, i + 2);
        i += 2;
      } else if (code[i] === '$' && code[i + 1] === '{') {
        flush(true);
        // An interpolation: copied as is, up to its closing brace (nested braces counted).
        let depth = 0;
        const from = i;
        for (i += 1; i < code.length; i++) {
          if (code[i] === '{') depth++;
          else if (code[i] === '}' && --depth === 0) break;
        }
        out += code.slice(from, ++i);
        afterInterpolation = true;
      } else chunk += code[i++];
    }
    flush(false);
    at = i;
  }
  return out + code.slice(at);
}
