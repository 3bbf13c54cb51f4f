import { z } from 'zod';
import { PUBLIC_KEY_HEADER, SESSION_TOKEN_HEADER } from '../protocol/runtime/headers.ts';
import { ErrorBody } from '../api/errors.ts';
import type { Operation } from '../api/operations.ts';
import type { Auth } from '../api/routes.ts';

const security: Record<Exclude<Auth, 'admin'>, Record<string, string[]>[]> = {
  accessToken: [{ accessToken: [] }],
  licenceKey: [{ licenceKey: [] }],
  licenceKeyOrAccessToken: [{ licenceKey: [] }, { accessToken: [] }],
  session: [{ publicKey: [], sessionToken: [] }],
  none: [],
};

type Json = Record<string, unknown>;

/**
 * Converts a schema to JSON Schema, moving its named parts ($defs, from `.meta({id})`) into the
 * document's components so each shape is described once.
 */
function toSchema(schema: z.core.$ZodType, io: 'input' | 'output', components: Json): Json {
  const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as Json;
  delete json.$schema;
  const defs = (json.$defs ?? {}) as Json;
  delete json.$defs;
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? v.replace('#/$defs/', '#/components/schemas/') : rewrite(v)]),
      );
    }
    return value;
  };
  for (const [name, def] of Object.entries(defs)) components[name] ??= rewrite(def);
  return rewrite(json) as Json;
}

interface BodySchema extends Json {
  properties?: Record<string, Json>;
  required?: string[];
}

/** Whether a property's schema (or one of its alternatives, or what it refers to) is an object or an array. */
function nests(schema: Json, components: Json): boolean {
  const ref = typeof schema.$ref === 'string' ? (components[schema.$ref.replace('#/components/schemas/', '')] as Json | undefined) : undefined;
  if (ref) return nests(ref, components);
  if (schema.type === 'object' || schema.type === 'array') return true;
  return (['anyOf', 'oneOf', 'allOf'] as const).some((k) => Array.isArray(schema[k]) && (schema[k] as Json[]).some((s) => nests(s, components)));
}

/**
 * Form bodies carry nested fields in brackets (`billTo[email]=…`, `unmask_fields[]=email`), as Stripe
 * clients send them: OpenAPI calls that `style: deepObject, explode: true`, and a validating proxy
 * needs it said per property to read the body as the service does.
 */
function formEncoding(body: BodySchema, components: Json): { encoding?: Json } {
  // Prism builds a deepObject property even when no bracketed field names it, so an optional object
  // with required fields of its own (recurringIntent) would be refused when absent: it stays unencoded.
  const inventedWhenAbsent = (name: string, schema: Json) =>
    !body.required?.includes(name) && Array.isArray(schema.required) && schema.required.length > 0;
  const nested = Object.entries(body.properties ?? {}).filter(([name, schema]) => nests(schema, components) && !inventedWhenAbsent(name, schema));
  return nested.length ? { encoding: Object.fromEntries(nested.map(([name]) => [name, { style: 'deepObject', explode: true }])) } : {};
}

/** The OpenAPI 3.1 description, generated from the same zod schemas that validate requests. */
export function openApiDocument(serverUrl: string, operations: readonly Operation[]): Json {
  const schemas: Json = {};
  const paths: Record<string, Json> = {};
  const errorRef = { $ref: '#/components/schemas/Error' };
  toSchema(ErrorBody, 'output', schemas); // registers components.schemas.Error
  for (const op of operations) {
    if (op.internal) continue;
    const path = op.path.replace(/:(\w+)/g, '{$1}');
    const parameters: Json[] = [...op.path.matchAll(/:(\w+)/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    if (op.query) {
      const query = toSchema(op.query, 'input', schemas) as { properties?: Json; required?: string[] };
      for (const [name, schema] of Object.entries(query.properties ?? {})) {
        // `created[gte]=…`: an object in brackets, as the body's nested fields (see formEncoding). An
        // array (`status=a&status=b`) stays OpenAPI's default for a query: form, exploded.
        const deep = nests(schema as Json, schemas) && (schema as Json).type !== 'array' ? { style: 'deepObject', explode: true } : {};
        parameters.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema, ...deep });
      }
    }
    const body = op.body ? (toSchema(op.body, 'input', schemas) as BodySchema) : undefined;
    (paths[path] ??= {})[op.method] = {
      operationId: `${op.method}${path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string = '') => c.toUpperCase())}`,
      summary: op.summary,
      tags: [op.tag],
      security: security[op.auth as Exclude<Auth, 'admin'>],
      ...(parameters.length ? { parameters } : {}),
      ...(body
        ? {
            requestBody: {
              // A body whose every field is optional may be left out (`/intent/confirm`, the PUTs).
              required: (body.required?.length ?? 0) > 0,
              content: { 'application/json': { schema: body }, 'application/x-www-form-urlencoded': { schema: body, ...formEncoding(body, schemas) } },
            },
          }
        : {}),
      responses: {
        '200': { description: 'OK', content: { 'application/json': { schema: toSchema(op.response, 'output', schemas) } } },
        '4XX': { description: 'Client error', content: { 'application/json': { schema: errorRef } } },
        '5XX': { description: 'Server error', content: { 'application/json': { schema: errorRef } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'CPE service', version: '1.0.0', description: 'Messaging API and test-mode Payment Intents.' },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        accessToken: { type: 'http', scheme: 'bearer', description: 'Messaging access token (`npm run -s token -- <username>`).' },
        licenceKey: { type: 'http', scheme: 'bearer', description: 'Merchant licence key: server to server only.' },
        publicKey: { type: 'apiKey', in: 'header', name: PUBLIC_KEY_HEADER },
        sessionToken: { type: 'apiKey', in: 'header', name: SESSION_TOKEN_HEADER },
      },
    },
  };
}
