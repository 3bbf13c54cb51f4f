/**
 * CSS without what it never needs: comments, and whitespace beyond one space (none next to
 * `{ } ; , :` and `>`). The frames' build minifies Lit's css`…` templates with it
 * (scripts/vite-minify-css.ts), and the service the styles it renders into the card form's page
 * (ssr/render.ts), so that the page's two copies of the styles read alike (gzip sends the second as a
 * reference to the first).
 */
export const minifyCss = (css: string): string =>
  css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/ ?([{};,>]) ?/g, '$1')
    .replace(/: /g, ':')
    .replace(/;}/g, '}')
    .trim();
