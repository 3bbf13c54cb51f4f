import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Json = Record<string, any>;

const BASE = 'https://cpe.invalid/openapi.json';
let doc: Json | undefined;
let ajv: Ajv2020 | undefined;

/**
 * Matches a concrete path to its OpenAPI template (`/v1/contacts/ctc_1` → `/v1/contacts/{id}`); a
 * template without parameters wins, as OpenAPI says (`/v1/payment_intents/attach` is not `…/{id}`).
 */
function templateOf(paths: Json, method: string, path: string): string | undefined {
  const bare = path.split('?')[0];
  const parameters = (template: string) => (template.match(/\{/g) ?? []).length;
  return Object.keys(paths).sort((a, b) => parameters(a) - parameters(b)).find((template) => {
    if (!paths[template][method]) return false;
    const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`);
    return pattern.test(bare);
  });
}

/**
 * Every JSON answer a test receives must match the service's own API description: the documented
 * 200 schema, or the error object for any other status. Paths not in the description (frames,
 * admin) are not checked.
 */
export async function assertMatchesOpenApi(url: string, method: string, path: string, status: number, body: unknown): Promise<void> {
  if (!doc || !ajv) {
    // The service's own description, as a client reads it (every app describes the same operations).
    doc = (await (await fetch(`${url}/v1/openapi.json`)).json()) as Json;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    // The whole description is one schema document, so its `#/components/...` refs resolve.
    ajv.addSchema({ $id: BASE, components: doc.components, paths: doc.paths });
  }
  const template = templateOf(doc.paths, method.toLowerCase(), path);
  if (!template) return;
  const responses = doc.paths[template][method.toLowerCase()].responses;
  const entry = responses[String(status)] ?? responses[`${String(status)[0]}XX`];
  assert.ok(entry, `${method} ${template} answered ${status}, which the API description does not list`);
  const status_ = responses[String(status)] ? String(status) : `${String(status)[0]}XX`;
  const pointer = ['paths', template, method.toLowerCase(), 'responses', status_, 'content', 'application/json', 'schema']
    .map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1'))
    .join('/');
  const validate = ajv.getSchema(`${BASE}#/${pointer}`)!;
  assert.ok(validate(body), `${method} ${path} → ${status} does not match the API description: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`);
}
