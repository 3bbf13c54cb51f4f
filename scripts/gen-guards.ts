/**
 * Generates protocol/generated/guards.ts: plain JSON Schema objects, converted with `z.toJSONSchema`
 * from the protocol's zod schemas, for what the merchant-side SDK and the frames validate without zod (with
 * protocol/json-guard.ts). The zod schemas stay the one definition; test/server/guards-fresh.test.ts
 * fails when the checked-in file differs from a fresh generation.
 *
 *   npm run gen:guards       (node --import tsx scripts/gen-guards.ts)
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import { defaultMessage, type JsonSchema } from '../protocol/json-guard.ts';
import { EVENTS, FrameEvent, Hello, Init, METHODS, Request, Response, TokeniseResult } from '../protocol/bridge.ts';
import { ChallengeCancel, ChallengeMessage } from '../protocol/challenge.ts';
import {
  AttachOptions,
  AuthOptions,
  CardElementOptions,
  CardFieldsElementOptions,
  ChallengeOptions,
  ConfirmOptions,
  ElementsOptions,
  WalletAOptions,
  WalletBOptions,
} from '../protocol/elements-options.ts';
import { FieldMessage } from '../protocol/field-channel.ts';
import { FrameParams } from '../protocol/frame-url.ts';
import { PaymentIntentSession } from '../protocol/session.ts';
import { WalletApproval, WalletRequest, WalletResult, WalletSession, WalletSheetReady } from '../protocol/wallet.ts';

export const GUARDS_PATH = fileURLToPath(new URL('../protocol/generated/guards.ts', import.meta.url));

type Json = Record<string, unknown>;
const SAFE = Number.MAX_SAFE_INTEGER;

/** A check's own message (`z.regex(re, 'message')`), when it was given one. */
function checkMessage(check: unknown): string | undefined {
  const error = (check as { _zod?: { def?: { error?: (issue?: unknown) => unknown } } })._zod?.def?.error;
  const message = typeof error === 'function' ? error() : undefined;
  return typeof message === 'string' ? message : undefined;
}

/** JSON Schema of one zod schema, minimal: no $schema, descriptions, formats or safe-integer bounds. */
function toGuard(schema: z.core.$ZodType): Json {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    override({ zodSchema, jsonSchema }) {
      // Several patterns on one string become allOf branches: each takes its check's message.
      const checks = (zodSchema._zod.def as { checks?: { _zod: { def: { pattern?: RegExp } } }[] }).checks ?? [];
      for (const branch of (jsonSchema.allOf ?? []) as Json[]) {
        const check = checks.find((c) => c._zod.def.pattern && c._zod.def.pattern.source === branch.pattern);
        const message = check && checkMessage(check);
        if (message) branch.message = message;
      }
    },
  }) as Json;
  return minimal(json) as Json;
}

function minimal(node: unknown, names = false): unknown {
  if (Array.isArray(node)) return node.map((item) => minimal(item));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    // In `properties`, keys are property names (an `id` property stays); elsewhere they are keywords.
    if (!names && (key === '$schema' || key === 'description' || key === 'format')) continue;
    if (!names && ((key === 'minimum' && value === -SAFE) || (key === 'maximum' && value === SAFE))) continue;
    out[key] = minimal(value, !names && key === 'properties');
  }
  if (names) return out;
  // `const` and `enum` already imply the type; an empty `properties` says nothing.
  if ('const' in out || 'enum' in out) delete out.type;
  if (out.properties && !Object.keys(out.properties).length) delete out.properties;
  // A message the guard would say anyway (json-guard.ts defaultMessage) need not be carried.
  if (out.message && out.message === defaultMessage(out as JsonSchema)) delete out.message;
  // A property that accepts anything (z.unknown()) need not be present.
  if (Array.isArray(out.required) && out.properties) {
    const properties = out.properties as Record<string, Json>;
    out.required = (out.required as string[]).filter((key) => Object.keys(properties[key] ?? {}).length > 0);
    if (!(out.required as string[]).length) delete out.required;
  }
  return out;
}

const map = (entries: Record<string, z.core.$ZodType>) => Object.fromEntries(Object.entries(entries).map(([key, schema]) => [key, toGuard(schema)]));

/** What the SDK and the frames validate, by export name. */
export function guards(): Record<string, unknown> {
  return {
    // Frame → page, on the bridge (protocol/bridge.ts).
    Hello: toGuard(Hello),
    Response: toGuard(Response),
    FrameEvent: toGuard(FrameEvent),
    EVENTS: map(EVENTS),
    RESULTS: map(Object.fromEntries(Object.entries(METHODS).map(([method, { result }]) => [method, result]))),
    // The 3-D Secure challenge page and the wallet sheet → page.
    ChallengeMessage: toGuard(ChallengeMessage),
    ChallengeCancel: toGuard(ChallengeCancel),
    WalletResult: toGuard(WalletResult),
    WalletSheetReady: toGuard(WalletSheetReady),
    // The merchant backend's createServerIntent answer.
    PaymentIntentSession: toGuard(PaymentIntentSession),
    // Options (protocol/elements-options.ts).
    ElementsOptions: toGuard(ElementsOptions),
    // Also the Flows' options (FlowOptions is CardElementOptions).
    CardElementOptions: toGuard(CardElementOptions),
    CardFieldsElementOptions: toGuard(CardFieldsElementOptions),
    WalletAOptions: toGuard(WalletAOptions),
    WalletBOptions: toGuard(WalletBOptions),
    AttachOptions: toGuard(AttachOptions),
    ConfirmOptions: toGuard(ConfirmOptions),
    AuthOptions: toGuard(AuthOptions),
    ChallengeOptions: toGuard(ChallengeOptions),
    // What the frames (iframe-app/) validate: the page's messages, their own address, each other's
    // messages on the field channel, and the service's answers.
    Init: toGuard(Init),
    Request: toGuard(Request),
    PARAMS: map(Object.fromEntries(Object.entries(METHODS).map(([method, { params }]) => [method, params]))),
    FrameParams: toGuard(FrameParams),
    TokeniseResult: toGuard(TokeniseResult),
    FieldMessage: toGuard(FieldMessage),
    WalletRequest: toGuard(WalletRequest),
    WalletSession: toGuard(WalletSession),
    WalletApproval: toGuard(WalletApproval),
  };
}

/** The module's text. */
export function generateGuards(): string {
  const lines = [
    '// GENERATED by scripts/gen-guards.ts (npm run gen:guards) from the zod schemas in protocol/: do not edit.',
    '// JSON Schema (draft 2020-12 subset) for protocol/json-guard.ts; `message` is the SDK\'s sentence, `custom` a',
    '// hand-written check of protocol/option-checks.ts. test/server/guards-fresh.test.ts keeps it fresh.',
    "import type { JsonSchema } from '../json-guard.ts';",
    '',
  ];
  for (const [name, value] of Object.entries(guards())) {
    const type = name === 'EVENTS' || name === 'RESULTS' || name === 'PARAMS' ? 'Record<string, JsonSchema>' : 'JsonSchema';
    lines.push(`export const ${name}: ${type} = ${JSON.stringify(value)};`);
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(GUARDS_PATH, generateGuards());
  console.log(`wrote ${GUARDS_PATH}`);
}
