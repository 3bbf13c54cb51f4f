/**
 * Error codes are one typed table (api/error-codes.ts): the service answers only its codes (the
 * compiler holds ApiError to it), each row is answered somewhere, the API description lists the
 * service's codes, and the README's table is the table's (`npm run -s gen:docs`).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ERROR_CODES, ERROR_CODE_NAMES, SERVICE_ERROR_CODES } from '../../api/error-codes.ts';
import { OPERATIONS } from '../../api/operations.ts';
import { ApiError } from '../../server/http/api-error.ts';
import { openApiDocument } from '../../server/openapi.ts';
import { withGeneratedSections } from '../../scripts/gen-docs.ts';

const root = new URL('../../', import.meta.url);
const sources = (folder: string) =>
  readdirSync(new URL(folder, root), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => readFileSync(new URL(`${folder}${name}`, root), 'utf8'))
    .join('\n');

describe('error codes', () => {
  it("the README's table of codes is the table's (run npm run -s gen:docs after changing api/error-codes.ts)", () => {
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    assert.equal(readme, withGeneratedSections(readme), 'README.md is stale: npm run -s gen:docs');
  });

  it('every code of the table is answered by the service or cpe/server (no row for nothing)', () => {
    const code = sources('server/') + sources('client/');
    const unused = ERROR_CODE_NAMES.filter((name) => !code.includes(`'${name}'`));
    assert.deepEqual(unused, []);
  });

  it('an ApiError takes its status and type from its row', () => {
    for (const name of SERVICE_ERROR_CODES) {
      const error = new ApiError(name, 'x');
      assert.deepEqual([error.status, error.type], [ERROR_CODES[name].status, ERROR_CODES[name].type], name);
    }
  });

  it("the API description's error object lists the service's codes", () => {
    const document = openApiDocument('http://127.0.0.1:4242', OPERATIONS) as { components: { schemas: Record<string, any> } };
    const code = document.components.schemas.Error.properties.error.properties.code;
    assert.deepEqual([...code.enum].sort(), [...SERVICE_ERROR_CODES].sort());
  });
});
