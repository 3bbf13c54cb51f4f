/**
 * Writes docs/api-reference.md: every operation of the service's table (api/routes.ts and
 * api/operations.ts), through the same OpenAPI document the service serves (server/openapi.ts): its
 * method and path, who may call it, what it takes (path, query and body fields, with their types,
 * whether required, and the schemas' own descriptions) and what it answers. Nothing here is written
 * by hand: test/server/api-docs-fresh.test.ts fails while the file differs from a fresh generation.
 *
 *   npm run -s gen:docs (with the README's generated sections)
 */
import { fileURLToPath } from 'node:url';
import { OPERATIONS } from '../api/operations.ts';
import type { Auth } from '../api/routes.ts';
import { openApiDocument } from '../server/openapi.ts';

export const API_DOCS_PATH = fileURLToPath(new URL('../docs/api-reference.md', import.meta.url));

type Json = Record<string, any>;

const AUTH: Record<Auth, string> = {
  accessToken: '`Authorization: Bearer <access token>` (messaging)',
  licenceKey: '`Authorization: Bearer <licence key>` (your server only)',
  licenceKeyOrAccessToken: '`Authorization: Bearer <licence key or access token>` (the owner of the events)',
  session: '`X-CPE-Public-Key` and `X-CPE-Session-Token` (the browser, for one intent)',
  none: 'none',
  admin: 'the CLI\'s admin secret (internal, not listed)',
};

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');

/** A schema as a short type: `string`, `integer 1–100`, `"a" \| "b"`, `object`, `array of string`, a component's name. */
function typeOf(schema: Json, components: Json): string {
  if (!schema) return 'any';
  if (schema.$ref) return `\`${String(schema.$ref).split('/').pop()}\``;
  for (const key of ['anyOf', 'oneOf'] as const)
    if (Array.isArray(schema[key])) return [...new Set((schema[key] as Json[]).map((s) => typeOf(s, components)))].join(' or ');
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (Array.isArray(schema.enum)) return schema.enum.map((v: unknown) => `\`${JSON.stringify(v)}\``).join(', ');
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : schema.type;
  if (type === 'array') return `array of ${typeOf(schema.items, components)}`;
  if (type === 'integer' || type === 'number') {
    const range = schema.minimum !== undefined && schema.maximum !== undefined && schema.maximum < 2 ** 40 ? ` ${schema.minimum} to ${schema.maximum}` : '';
    return `${type}${range}`;
  }
  return type ?? 'any';
}

/** One table row per field (a nested object's fields as `parent[child]`, the form notation). */
function fields(schema: Json | undefined, components: Json, prefix = ''): string[] {
  if (!schema) return [];
  if (schema.$ref) return fields(components[String(schema.$ref).split('/').pop()!], components, prefix);
  const required = new Set<string>(schema.required ?? []);
  const rows: string[] = [];
  for (const [name, property] of Object.entries<Json>(schema.properties ?? {})) {
    const path = prefix ? `${prefix}[${name}]` : name;
    const inner = property.$ref ? components[String(property.$ref).split('/').pop()!] : property;
    rows.push(`| \`${path}\` | ${cell(typeOf(property, components))} | ${required.has(name) ? 'yes' : ''} | ${cell(property.description ?? inner?.description ?? '')} |`);
    if (inner?.type === 'object' && inner.properties && path.split('[').length < 3) rows.push(...fields(inner, components, path));
  }
  return rows;
}

const table = (rows: string[]) => (rows.length ? ['| Field | Type | Required | |', '|---|---|---|---|', ...rows, ''] : []);

export function apiDocs(): string {
  const doc = openApiDocument('http://localhost:4242', OPERATIONS) as Json;
  const components = doc.components.schemas as Json;
  const out = [
    '# API reference',
    '',
    'Generated from the service\'s operation table (`api/routes.ts`, `api/operations.ts`) by `npm run -s gen:docs`; do not edit',
    'by hand. The same table mounts the routes, validates every request and writes the OpenAPI document',
    '(`GET /v1/openapi.json`). Bodies are JSON or form fields (`billTo[email]=…`); every error is',
    '`{"error":{"type","code","message","param"}}` ([the API\'s conventions](../README.md#messaging-api)).',
    '',
  ];
  let tag = '';
  for (const op of OPERATIONS.filter((op) => !op.internal)) {
    if (op.tag !== tag) out.push(`## ${(tag = op.tag)}`, '');
    const path = op.path.replace(/:(\w+)/g, '{$1}');
    const spec = doc.paths[path][op.method] as Json;
    out.push(`### \`${op.method.toUpperCase()} ${op.path}\``, '', `${op.summary}. Auth: ${AUTH[op.auth]}. (\`${op.name}\`)`, '');
    const params = (spec.parameters ?? []) as Json[];
    const pathParams = params.filter((p) => p.in === 'path').map((p) => `| \`${p.name}\` | path | yes | |`);
    const query = params.filter((p) => p.in === 'query').map((p) => `| \`${p.name}\` | ${cell(typeOf(p.schema, components))} (query) | ${p.required ? 'yes' : ''} | ${cell(p.schema?.description ?? '')} |`);
    const body = fields(spec.requestBody?.content?.['application/json']?.schema, components);
    out.push(...table([...pathParams, ...query, ...body]));
    const answer = spec.responses['200'].content['application/json'].schema as Json;
    const named = answer.$ref ? ` (\`${String(answer.$ref).split('/').pop()}\`)` : '';
    const answerRows = fields(answer, components);
    out.push(answerRows.length ? `Answers${named}:` : `Answers: ${typeOf(answer, components)}.`, '');
    if (answerRows.length) out.push(...table(answerRows));
  }
  return `${out.join('\n').trimEnd()}\n`;
}

