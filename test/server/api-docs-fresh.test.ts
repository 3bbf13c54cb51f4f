import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { API_DOCS_PATH, apiDocs } from '../../scripts/gen-api-docs.ts';
import { OPERATIONS } from '../../api/operations.ts';

/** docs/api-reference.md is generated from the operation table: it must be what a fresh generation writes. */
describe('docs/api-reference.md', () => {
  it('is what npm run -s gen:docs makes of the operation table today', () => {
    assert.equal(readFileSync(API_DOCS_PATH, 'utf8'), apiDocs(), 'docs/api-reference.md is stale: npm run -s gen:docs');
  });

  it('lists every public operation, by method and path', () => {
    const text = readFileSync(API_DOCS_PATH, 'utf8');
    for (const op of OPERATIONS.filter((op) => !op.internal)) assert.ok(text.includes(`### \`${op.method.toUpperCase()} ${op.path}\``), `${op.name} is missing`);
  });
});
