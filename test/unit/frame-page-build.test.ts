import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { minifyCssIn } from '../../scripts/vite-minify-css.ts';
import { minifyCss } from '../../iframe-app/ssr/minify-css.ts';
import { MARKS, marksSprite } from '../../iframe-app/shared/marks.ts';
import { SCHEME_NAMES } from '../../protocol/runtime/card-schemes.ts';

/**
 * What the frames' build does to their pages' weight: Lit's css`…` templates minified (the service
 * minifies the served form's styles alike), and the card schemes' marks in one sprite.
 */
describe('css`…` templates in the frames', () => {
  it('drops comments and the whitespace CSS never needs, and keeps what it does need', () => {
    const source = "const a = css`\n  /* why */\n  :host([arr='one']) .grid > label,\n  .x :is(a, b) {\n    margin: 0 auto;\n    width: calc(var(--_gap) * 2 / 3);\n  }\n  @media (prefers-color-scheme: dark) {\n    :host { color: red; }\n  }\n`;";
    assert.equal(
      minifyCssIn(source),
      "const a = css`:host([arr='one']) .grid>label,.x :is(a,b){margin:0 auto;width:calc(var(--_gap) * 2 / 3)}@media (prefers-color-scheme:dark){:host{color:red}}`;",
    );
  });

  it('copies interpolations as they are, with one space beside them where the CSS may need it', () => {
    const source = 'const b = css`\n  ${base}\n  :host {\n    ${palette(LIGHT, `x`)}\n    margin: ${gap} auto;\n  }\n`;';
    assert.equal(minifyCssIn(source), 'const b = css`${base} :host{${palette(LIGHT, `x`)} margin:${gap} auto}`;');
  });

  it('leaves code outside css`…` alone, and minifies rendered styles the same way', () => {
    assert.equal(minifyCssIn('const s = `a  {  b }`; // css'), 'const s = `a  {  b }`; // css');
    assert.equal(minifyCss(' .a  >  .b  {\n  color : red ;\n} '), '.a>.b{color :red}');
  });
});

describe("the card schemes' marks", () => {
  it('are one sprite with a symbol per scheme the frames detect', () => {
    const sprite = marksSprite();
    const known = SCHEME_NAMES.filter((s) => s !== 'unknown');
    assert.deepEqual(Object.keys(MARKS).sort(), [...known].sort());
    for (const scheme of known) assert.match(sprite, new RegExp(`<symbol id="${scheme}" viewBox="0 0 32 20">`), scheme);
    assert.match(sprite, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg">/);
    assert.doesNotMatch(sprite, /\$\{|undefined/);
  });
});
