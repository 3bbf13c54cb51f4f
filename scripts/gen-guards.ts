/**
 * Generates protocol/runtime/guards.ts (and the guards of the SDK's chunks: GUARD_PARTS): the JSON Schema of each of the protocol's zod schemas
 * (`z.toJSONSchema`), written short (protocol/runtime/json-guard.ts says how), for what the merchant-side SDK and the frames validate without zod (with
 * protocol/runtime/json-guard.ts). The zod schemas stay the one definition; test/server/guards-fresh.test.ts
 * fails when the checked-in file differs from a fresh generation.
 *
 *   npm run gen:guards       (node --import tsx scripts/gen-guards.ts)
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import { defaultMessage, type Node, type Schema, type TypeLetter } from '../protocol/runtime/json-guard.ts';
import * as bridge from '../protocol/schemas/bridge.ts';
import * as challenge from '../protocol/schemas/challenge.ts';
import * as elementsOptions from '../protocol/schemas/elements-options.ts';
import * as fieldChannel from '../protocol/schemas/field-channel.ts';
import * as frameUrl from '../protocol/schemas/frame-url.ts';
import * as intent from '../protocol/schemas/intent.ts';
import * as popup from '../protocol/schemas/popup.ts';
import * as session from '../protocol/schemas/session.ts';
import * as wallet from '../protocol/schemas/wallet.ts';

export const GUARDS_PATH = fileURLToPath(new URL('../protocol/runtime/guards.ts', import.meta.url));

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
  return short(minimal(inlineRefs(json)) as Json, true) as Json;
}

/** The guard validator reads no `$ref`: a named part (`.meta({id})`, such as the intent's status) is written in place. */
function inlineRefs(root: Json): Json {
  const defs = (root.$defs ?? {}) as Record<string, Json>;
  const inline = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(inline);
    if (!node || typeof node !== 'object') return node;
    const ref = (node as Json).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/$defs/')) return inline(defs[ref.slice('#/$defs/'.length)]);
    return Object.fromEntries(Object.entries(node as Json).filter(([key]) => key !== '$defs').map(([key, value]) => [key, inline(value)]));
  };
  return inline(root) as Json;
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
  // A property that accepts anything (z.unknown()) need not be present.
  if (Array.isArray(out.required) && out.properties) {
    const properties = out.properties as Record<string, Json>;
    out.required = (out.required as string[]).filter((key) => Object.keys(properties[key] ?? {}).length > 0);
    if (!(out.required as string[]).length) delete out.required;
  }
  return out;
}

const TYPE_LETTERS: Record<string, TypeLetter> = { string: 's', number: 'n', integer: 'i', boolean: 'b', object: 'o', array: 'a', null: 'z' };
/** JSON Schema keyword → its letter in a guard (protocol/runtime/json-guard.ts's Schema); `properties` and `required` become `p`. */
const KEYWORD_LETTERS: Record<string, keyof Schema> = {
  type: 't', additionalProperties: 'a', propertyNames: 'k', items: 'i', enum: 'e', const: 'c', anyOf: 'y', oneOf: 'o', allOf: 'l',
  pattern: 'x', minLength: 'm', maxLength: 'M', minimum: 'n', maximum: 'N', exclusiveMinimum: 'g', exclusiveMaximum: 'G', message: 's', custom: 'u',
};

/**
 * A minimal JSON Schema node as a guard's node: `{}`, a type letter alone, or one-letter keywords;
 * `properties` with `required` as `p` (`name?` optional), which implies type object. A guard itself
 * (`top`) stays an object, so that it can carry its schema's type.
 */
function short(node: Json, top = false): Node {
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'required') continue;
    if (key === 'properties') {
      const required = (node.required ?? []) as string[];
      if (node.type !== 'object') throw new Error(`gen-guards: properties without type object: ${JSON.stringify(node)}`);
      out.p = Object.fromEntries(Object.entries(value as Record<string, Json>).map(([name, child]) => {
        if (name.endsWith('?')) throw new Error(`gen-guards: a property name ends with "?": ${name}`);
        return [required.includes(name) ? name : `${name}?`, short(child)];
      }));
      continue;
    }
    const letter = KEYWORD_LETTERS[key];
    if (!letter) throw new Error(`gen-guards: keyword ${key} has no letter in json-guard.ts`);
    const letters = (type: unknown) => TYPE_LETTERS[type as string] ?? (() => { throw new Error(`gen-guards: type ${String(type)}`); })();
    (out as Record<string, unknown>)[letter] =
      key === 'type' ? (Array.isArray(value) ? value.map(letters) : letters(value))
      : key === 'anyOf' || key === 'oneOf' || key === 'allOf' ? (value as Json[]).map((child) => short(child))
      : (key === 'items' || key === 'propertyNames' || key === 'additionalProperties') && typeof value === 'object' ? short(value as Json)
      : value;
  }
  // `p` says object.
  if (out.p && out.t === 'o') delete out.t;
  // A message the guard would say anyway (json-guard.ts defaultMessage) need not be carried.
  if (out.s && out.s === defaultMessage(out)) delete out.s;
  const keys = Object.keys(out);
  return !top && keys.length === 1 && typeof out.t === 'string' ? out.t : out;
}

/** One guard: its JSON Schema, and the TypeScript type of its constant (the schema's input type). */
type Entry = { json: unknown; type: string };

/** The schema modules, as the generated file imports them (type-only: no zod reaches the browser). */
const MODULES = { bridge, challenge, elementsOptions, fieldChannel, frameUrl, intent, popup, session, wallet } as const;
const FILES: Record<keyof typeof MODULES, string> = {
  bridge: 'bridge',
  challenge: 'challenge',
  elementsOptions: 'elements-options',
  fieldChannel: 'field-channel',
  frameUrl: 'frame-url',
  intent: 'intent',
  popup: 'popup',
  session: 'session',
  wallet: 'wallet',
};

/** The guard of `module.name`, typed `Guard<z.input<typeof module.name>>`. */
function guard<M extends keyof typeof MODULES>(module: M, name: keyof (typeof MODULES)[M] & string): Entry {
  return { json: toGuard(MODULES[module][name] as z.core.$ZodType), type: `Guard<z.input<typeof ${module}.${name}>>` };
}

/** A guard per bridge method or event, each typed with its own schema. */
function byName(what: 'EVENTS' | 'PARAMS' | 'RESULTS'): Entry {
  if (what === 'EVENTS') return { json: map(bridge.EVENTS), type: '{ [E in keyof typeof bridge.EVENTS]: Guard<z.input<(typeof bridge.EVENTS)[E]>> }' };
  const part = what === 'PARAMS' ? 'params' : 'result';
  const schemas = Object.fromEntries(Object.entries(bridge.METHODS).map(([method, pair]) => [method, pair[part]]));
  return { json: map(schemas), type: `{ [M in keyof typeof bridge.METHODS]: Guard<z.input<(typeof bridge.METHODS)[M]['${part}']>> }` };
}

const map = (entries: Record<string, z.core.$ZodType>) => Object.fromEntries(Object.entries(entries).map(([key, schema]) => [key, toGuard(schema)]));

/** What the SDK and the frames validate, by export name. */
export function guards(): Record<string, Entry> {
  return {
    // Frame → page, on the bridge (protocol/schemas/bridge.ts).
    Hello: guard('bridge', 'Hello'),
    Response: guard('bridge', 'Response'),
    FrameEvent: guard('bridge', 'FrameEvent'),
    EVENTS: byName('EVENTS'),
    RESULTS: byName('RESULTS'),
    // The popup channel (protocol/schemas/popup.ts): the 3-D Secure challenge page and the wallet sheet → page.
    PopupReady: guard('popup', 'PopupReady'),
    PopupClose: guard('popup', 'PopupClose'),
    ChallengeMessage: guard('challenge', 'ChallengeMessage'),
    WalletResult: guard('wallet', 'WalletResult'),
    // The merchant backend's createServerIntent answer.
    PaymentIntentSession: guard('session', 'PaymentIntentSession'),
    // The service's answers the SDK and the frames read (components/transport/transport.ts, the frames' session check).
    SessionIntent: guard('intent', 'SessionIntent'),
    AttachResponse: guard('intent', 'AttachResponse'),
    ConfirmResponse: guard('intent', 'ConfirmResponse'),
    AuthoriseAnswer: guard('intent', 'AuthoriseAnswer'),
    // Options (protocol/schemas/elements-options.ts).
    ElementsOptions: guard('elementsOptions', 'ElementsOptions'),
    // Also the Flows' options (FlowOptions is CardElementOptions).
    CardElementOptions: guard('elementsOptions', 'CardElementOptions'),
    CardFieldsElementOptions: guard('elementsOptions', 'CardFieldsElementOptions'),
    WalletAOptions: guard('elementsOptions', 'WalletAOptions'),
    WalletBOptions: guard('elementsOptions', 'WalletBOptions'),
    PaymentElementOptions: guard('elementsOptions', 'PaymentElementOptions'),
    PayOptions: guard('elementsOptions', 'PayOptions'),
    AttachOptions: guard('elementsOptions', 'AttachOptions'),
    ConfirmOptions: guard('elementsOptions', 'ConfirmOptions'),
    AuthOptions: guard('elementsOptions', 'AuthOptions'),
    ChallengeOptions: guard('elementsOptions', 'ChallengeOptions'),
    // What the frames (iframe-app/) validate: the page's messages, their own address, each other's
    // messages on the field channel, and the service's answers.
    Init: guard('bridge', 'Init'),
    Request: guard('bridge', 'Request'),
    PARAMS: byName('PARAMS'),
    FrameParams: guard('frameUrl', 'FrameParams'),
    TokeniseResult: guard('bridge', 'TokeniseResult'),
    FieldMessage: guard('fieldChannel', 'FieldMessage'),
    WalletRequest: guard('wallet', 'WalletRequest'),
    PopupInit: guard('popup', 'PopupInit'),
    ChallengePageData: guard('challenge', 'ChallengePageData'),
    WalletApproval: guard('wallet', 'WalletApproval'),
  };
}

/**
 * The guards only one of the SDK's chunks reads, each part in a module of its own (a bundler splits
 * by module: in guards.ts they would be in the SDK's first download). `payment`: attach, confirm,
 * authorise, `pay()` (components/internal/payment-steps.ts); `dialogs`: the popup channel, the
 * 3-D Secure challenge and the wallet sheet (components/internal/dialogs.ts).
 */
export const GUARD_PARTS: Record<string, 'payment' | 'dialogs'> = {
  SessionIntent: 'payment', AttachResponse: 'payment', ConfirmResponse: 'payment', AuthoriseAnswer: 'payment', PayOptions: 'payment', AttachOptions: 'payment', ConfirmOptions: 'payment', AuthOptions: 'payment', ChallengeOptions: 'payment',
  PopupReady: 'dialogs', PopupClose: 'dialogs', ChallengeMessage: 'dialogs', WalletResult: 'dialogs',
};
/**
 * Parts' guards that guards.ts keeps a copy of, for the frames: SessionIntent (their session check;
 * from payment-guards.ts the card form's page came out 24 B larger in gzip).
 */
const MAIN_TOO = new Set(['SessionIntent']);
export const PART_PATHS = {
  main: GUARDS_PATH,
  payment: fileURLToPath(new URL('../protocol/runtime/payment-guards.ts', import.meta.url)),
  dialogs: fileURLToPath(new URL('../protocol/runtime/dialog-guards.ts', import.meta.url)),
};

/** The text of guards.ts, or of one part's module (GUARD_PARTS). */
export function generateGuards(part: keyof typeof PART_PATHS = 'main'): string {
  const entries = Object.entries(guards()).filter(([name]) => (GUARD_PARTS[name] ?? 'main') === part || (part === 'main' && MAIN_TOO.has(name)));
  const lines = [
    '// GENERATED by scripts/gen-guards.ts (npm run gen:guards) from the zod schemas in protocol/schemas/: do not edit.',
    '// JSON Schema (draft 2020-12 subset) written short for protocol/runtime/json-guard.ts (its Schema names each letter);',
    '// `s` is the SDK\'s sentence, `u` a hand-written check of protocol/runtime/option-checks.ts. test/server/guards-fresh.test.ts keeps it fresh.',
    '// Each guard is typed with its schema\'s type (type-only imports: no zod at run time), so `conforms(guard, value)`',
    '// narrows to what the schema accepts.',
    ...(part === 'main' ? [] : [`// The guards of the SDK's ${part} chunk alone (scripts/gen-guards.ts GUARD_PARTS): fetched with it.`]),
    "import type * as z from 'zod/mini';",
    ...Object.entries(FILES)
      .filter(([module]) => entries.some(([, { type }]) => type.includes(`typeof ${module}.`)))
      .map(([module, file]) => `import type * as ${module} from '../schemas/${file}.ts';`),
    "import type { Guard } from './json-guard.ts';",
    '',
  ];
  for (const [name, { json, type }] of entries) lines.push(`export const ${name}: ${type} = ${JSON.stringify(json)};`);
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [part, path] of Object.entries(PART_PATHS) as [keyof typeof PART_PATHS, string][]) {
    writeFileSync(path, generateGuards(part));
    console.log(`wrote ${path}`);
  }
}
