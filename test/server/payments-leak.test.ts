import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { luhnValid } from '../../server/payments/cards.ts';
import { apiClient, type Api, type ApiResponse } from '../helpers/service.ts';
import { rawDatabaseText, readDataFolder, tempDataDir } from '../../testkit/data-folder.ts';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.ts';
import { fromFrame, futureYear } from './payments-fixtures.ts';

/**
 * No secret leaks from a real run: the service process (`npm start`'s scripts/start.ts, with a data folder,
 * debug logging to a file) takes every test card of the contract through the whole lifecycle over
 * HTTP, plus invalid card attempts; then, with the process stopped, the log file, the process
 * output and the database file are searched for every card number (with and without spaces), every
 * CSC (as a JSON string value or next to "cvc"), cardholder name, session token, card token,
 * challenge secret and the licence key. Only what is there by design is allowed: hashes, the
 * licence key once in the startup banner (test credentials for the developer), the card tokens as
 * the consumed single-use references the data file keeps (their record id and the attempt's
 * `token`), and the cardholder name in the data file (the card summary, for verify).
 */

interface LeakCard {
  label: string;
  /** As sent: some with spaces, some without. */
  number: string;
  cvc: string;
  name: string;
  /** How far the lifecycle goes. */
  flow: 'approve' | 'challenge-complete' | 'challenge-fail' | 'decline' | 'attach-fail' | 'deferred-capture';
}

// Distinctive CSCs (none equals a last4, an amount or any other quoted value of the data) and names.
const LIFECYCLE: LeakCard[] = [
  { label: 'Visa 4242', number: '4242 4242 4242 4242', cvc: '837', name: 'Ottoline Vexbridge', flow: 'approve' },
  { label: 'Mastercard 4444', number: '5555555555554444', cvc: '618', name: 'Barnaby Quillfeather', flow: 'approve' },
  { label: 'Amex 0005', number: '3782 822463 10005', cvc: '9164', name: 'Philippa Dunmorrow', flow: 'approve' },
  { label: 'challenge completed', number: '4000 0000 0000 3220', cvc: '572', name: 'Cressida Holloway', flow: 'challenge-complete' },
  { label: 'challenge failed', number: '4000000000003220', cvc: '493', name: 'Ignatius Pemberly', flow: 'challenge-fail' },
  { label: 'declined 0002', number: '4000 0000 0000 0002', cvc: '761', name: 'Rosalind Achterberg', flow: 'decline' },
  { label: 'insufficient 9995', number: '4000000000009995', cvc: '385', name: 'Thaddeus Wrenfield', flow: 'decline' },
  { label: 'attach fails 0127', number: '4000 0000 0000 0127', cvc: '947', name: 'Millicent Oakhaven', flow: 'attach-fail' },
  { label: 'attach retriable 0119', number: '4000000000000119', cvc: '826', name: 'Leopold Farrowmere', flow: 'attach-fail' },
  { label: 'other Luhn-valid (Discover)', number: '6011 0009 9013 9424', cvc: '358', name: 'Evangeline Marchbanks', flow: 'approve' },
  { label: 'Visa, deferred capture', number: '4012888888881881', cvc: '674', name: 'Casimir Thistlewood', flow: 'deferred-capture' },
];

/** Refused at tokenise (400 card_error or schema): their numbers and CSCs must not be kept or logged either. */
const INVALID: (Omit<LeakCard, 'flow' | 'label'> & { label: string; exp_year?: string })[] = [
  { label: 'bad check digit', number: '4242 4242 4242 4241', cvc: '529', name: 'Hortensia Blackwater' },
  { label: 'Amex with a 3-digit CSC', number: '378282246310005', cvc: '416', name: 'Augustin Penhallow' },
  { label: 'expired', number: '5105 1051 0510 5100', cvc: '283', name: 'Wilhelmina Carrow', exp_year: String(new Date().getUTCFullYear() - 1) },
  { label: 'CSC too long for the schema', number: '4111 1111 1111 1111', cvc: '73915', name: 'Ambrose Kittredge' },
  { label: 'number too long for the schema', number: '4242 4242 4242 4242 4242 4242 4242 42', cvc: '852', name: 'Seraphina Lowick' },
];

const digits = (n: string) => n.replace(/\D/g, '');
const grouped = (d: string) => (d.length === 15 ? `${d.slice(0, 4)} ${d.slice(4, 10)} ${d.slice(10)}` : d.replace(/(\d{4})(?=\d)/g, '$1 '));
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let dataDir: string;
let rawFiles: string;
let logFile: string;
let service: ServiceProcess;
let api: Api;
let licenceKey: string;
let publicKey: string;
/** Everything secret seen during the run, by kind. */
const seen = { sessionTokens: [] as string[], cardTokens: [] as string[], challengeSecrets: [] as string[] };
/** Requests sent, to show the log is not empty by accident. */
let requests = 0;

before(async () => {
  dataDir = tempDataDir();
  logFile = join(tempDataDir(), 'cpe-debug.log');
  service = await startServiceProcess(dataDir, { CPE_LOG_LEVEL: 'debug', CPE_LOG_FILE: logFile });
  api = apiClient(service.url);
  ({ licenceKey, publicKey } = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')));
});

after(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(join(logFile, '..'), { recursive: true, force: true });
});

let keyCounter = 0;
/** A card token's id standing alone: random base64url text elsewhere in the file (a secret, a hash) once held "…Ltok_556o8aptMmQ". */
const ANY_CARD_TOKEN = /(?<![A-Za-z0-9_-])tok_[A-Za-z0-9]{8,}/;

const key = () => ({ 'X-Idempotency-Key': `leak-${process.pid}-${++keyCounter}` });

async function call(method: string, path: string, options: Parameters<Api>[2]): Promise<ApiResponse> {
  requests++;
  const r = await api(method, path, options);
  assert.ok(r.status < 500, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

const backend = (op: string, json: Record<string, unknown>) => call('POST', `/v1/payment_intents/${op}`, { token: licenceKey, json, headers: key() });

async function createIntent(extra: Record<string, unknown> = {}) {
  const r = await call('POST', '/v1/payment_intents', {
    token: licenceKey,
    headers: key(),
    json: { merchantid: JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')).merchantId, amount: 2599, currency: 'GBP', identifier: 'leak-order', ...extra },
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  seen.sessionTokens.push(r.body.session_token);
  const session = { 'X-CPE-Public-Key': publicKey, 'X-CPE-Session-Token': r.body.session_token as string };
  return { id: r.body.paymentIntentId as string, session };
}

function tokenise(session: Record<string, string>, card: { number: string; cvc: string; name: string; exp_year?: string }) {
  return call('POST', '/frames/tokenise', {
    headers: { ...fromFrame(service), ...session, ...key() },
    json: { card: { number: card.number, exp_month: '09', exp_year: card.exp_year ?? futureYear, cvc: card.cvc, name: card.name } },
  });
}

/** create → tokenise → attach → confirm → [challenge] → authorise → [capture] → verify, alternating backend and session routes. */
async function lifecycle(card: LeakCard, index: number): Promise<void> {
  const { id, session } = await createIntent(card.flow === 'deferred-capture' ? { autoCapture: false } : {});
  const viaSession = index % 2 === 1;
  const step = (op: 'attach' | 'confirm' | 'authorise', extra: Record<string, unknown> = {}) =>
    viaSession ? call('POST', `/intent/${op}`, { headers: { ...session, ...key() }, json: extra }) : backend(op, { payment_intent_id: id, ...extra });

  const t = await tokenise(session, card);
  assert.equal(t.status, 200, `${card.label}: ${JSON.stringify(t.body)}`);
  const token: string = t.body.data.cp_card_token;
  seen.cardTokens.push(token);

  const attach = await step('attach', { token });
  assert.equal(attach.status, 200, JSON.stringify(attach.body));
  if (card.flow === 'attach-fail') {
    assert.equal(attach.body.status, 'requires_payment_method');
  } else {
    assert.equal(attach.body.status, 'requires_customer_confirmation');
    const confirm = await step('confirm');
    assert.equal(confirm.status, 200, JSON.stringify(confirm.body));
    if (card.flow.startsWith('challenge')) {
      assert.equal(confirm.body.status, 'requires_customer_authentication');
      const url = new URL(confirm.body.challenge.url);
      const secret = url.searchParams.get('challenge')!;
      seen.challengeSecrets.push(secret);
      // The page, as the shopper's browser loads it (the secret in the query), then the answer (form POST).
      requests++;
      const pageRes = await fetch(`${service.url}${url.pathname}${url.search}`);
      assert.equal(pageRes.status, 200);
      const form_token = /name="form_token" value="([^"]*)"/.exec(await pageRes.text())?.[1] ?? '';
      const answer = await call('POST', '/frames/challenge', {
        form: { challenge: secret, form_token, outcome: card.flow === 'challenge-complete' ? 'complete' : 'fail' },
        headers: { accept: 'application/json', origin: service.url, 'sec-fetch-site': 'same-origin' },
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    } else {
      assert.equal(confirm.body.status, 'requires_authorisation');
    }
    if (card.flow !== 'challenge-fail') {
      const authorise = await step('authorise');
      assert.equal(authorise.status, 200, JSON.stringify(authorise.body));
      assert.equal(authorise.body.authorised, card.flow !== 'decline', `${card.label}: ${JSON.stringify(authorise.body)}`);
      if (card.flow === 'deferred-capture') {
        const capture = await backend('capture', { payment_intent_id: id, amount: 1500 });
        assert.equal(capture.status, 200, JSON.stringify(capture.body));
        assert.equal(capture.body.amount_captured, 1500);
      }
    }
  }
  const verify = await backend('verify', { payment_intent_id: id, unmask_fields: ['name'] });
  assert.equal(verify.status, 200, JSON.stringify(verify.body));
  const success = ['approve', 'challenge-complete', 'deferred-capture'].includes(card.flow);
  assert.equal(verify.body.status, success ? 'success' : card.flow === 'attach-fail' ? 'pending' : 'failed', `${card.label}: ${JSON.stringify(verify.body)}`);
  // Some intents read through GET too (the attempts, with their token references).
  const got = await call('GET', `/v1/payment_intents/${id}`, { token: licenceKey });
  assert.equal(got.status, 200);
  await call('GET', '/intent', { headers: session });
}

describe('no card data, token or secret leaks into logs, process output or the data file', () => {
  let log = '';
  let output = '';
  let dataFile = '';

  before(async () => {
    for (const [i, card] of LIFECYCLE.entries()) await lifecycle(card, i);
    for (const card of INVALID) {
      const { session } = await createIntent();
      const r = await tokenise(session, card);
      assert.equal(r.status, 400, `${card.label}: ${JSON.stringify(r.body)}`);
    }
    // Stopped, so that every log line and the last commit are flushed.
    await service.stop();
    log = readFileSync(logFile, 'utf8');
    output = service.output();
    // The database as the service loads it, and the raw bytes of its files (snapshot and logs).
    dataFile = JSON.stringify(await readDataFolder(dataDir));
    rawFiles = rawDatabaseText(dataDir);
  });

  test('the run is real: every card is a valid test card, and the log has a line per request', () => {
    for (const card of LIFECYCLE) assert.ok(luhnValid(digits(card.number)), card.label);
    const lines = log.trim().split('\n').map((line) => JSON.parse(line) as { msg: string; path?: string; status?: number });
    const logged = lines.filter((l) => l.msg === 'request');
    assert.ok(logged.length >= requests, `${logged.length} request lines for ${requests} requests`);
    for (const path of ['/frames/tokenise', '/frames/challenge', '/v1/payment_intents/authorise', '/intent/attach', '/v1/payment_intents/capture'])
      assert.ok(logged.some((l) => l.path === path), `no log line for ${path}`);
    assert.ok(logged.some((l) => l.path === '/frames/tokenise' && l.status === 400), 'the refused tokenise attempts are logged');
    assert.ok(!lines.some((l) => l.msg === 'unhandled'), 'an unexpected error was logged');
    assert.ok(output.includes('CPE service'), 'the process output was captured');
    assert.ok(dataFile.length > 1000 && JSON.parse(dataFile).collections.payment_intents, 'the data file holds the intents');
    assert.equal(seen.sessionTokens.length, LIFECYCLE.length + INVALID.length);
    assert.equal(seen.cardTokens.length, LIFECYCLE.length);
    assert.equal(seen.challengeSecrets.length, 2);
  });

  /** Every form of a card number and CSC that would reveal it. */
  function cardPatterns(card: { number: string; cvc: string }): [string, RegExp][] {
    const d = digits(card.number);
    return [
      [`PAN ${d}`, new RegExp(d)],
      [`PAN ${grouped(d)}`, new RegExp(escapeRegExp(grouped(d)))],
      [`PAN as sent '${card.number}'`, new RegExp(escapeRegExp(card.number))],
      // The CSC as a JSON string value, or a value next to a cvc/csc/cvv key, quoted or not.
      [`CSC "${card.cvc}"`, new RegExp(`"${card.cvc}"`)],
      [`CSC ${card.cvc} beside its key`, new RegExp(`(cvc|csc|cvv|security)[^,}\\n]{0,12}\\b${card.cvc}\\b`, 'i')],
    ];
  }

  function assertAbsent(where: string, text: string, what: [string, RegExp][]) {
    for (const [name, pattern] of what) {
      const match = pattern.exec(text);
      assert.equal(match, null, `${name} found in ${where}: …${match ? text.slice(Math.max(0, match.index - 80), match.index + 80) : ''}…`);
    }
  }

  const allCards = () => [...LIFECYCLE, ...INVALID];
  const literal = (name: string, values: string[]): [string, RegExp][] => values.map((v) => [`${name} ${v.slice(0, 12)}…`, new RegExp(escapeRegExp(v))]);

  test('the log file (debug level) holds no card number, CSC, name, session token, card token, challenge secret or licence key', () => {
    assertAbsent('the log file', log, [
      ...allCards().flatMap(cardPatterns),
      ...literal('cardholder name', allCards().map((c) => c.name)),
      ...literal('session token', seen.sessionTokens),
      ...literal('card token', seen.cardTokens),
      ...literal('challenge secret', seen.challengeSecrets),
      ...literal('licence key', [licenceKey]),
      ['any card token', ANY_CARD_TOKEN],
      ['any session token', /cpe_st_/],
    ]);
  });

  test('the process output holds none of them either; the licence key only once, in the startup banner', () => {
    const bannerEnd = output.indexOf('\n', output.indexOf('Try: curl'));
    assert.ok(bannerEnd > 0, 'the startup banner was captured');
    const afterBanner = output.slice(bannerEnd);
    assertAbsent('the process output', output, [
      ...allCards().flatMap(cardPatterns),
      ...literal('cardholder name', allCards().map((c) => c.name)),
      ...literal('session token', seen.sessionTokens),
      ...literal('card token', seen.cardTokens),
      ...literal('challenge secret', seen.challengeSecrets),
    ]);
    assertAbsent('the process output after startup', afterBanner, literal('licence key', [licenceKey]));
    assert.equal(output.split(licenceKey).length - 1, 1, 'the licence key is printed once, in the banner of test credentials');
  });

  test('the data file keeps hashes only: no card number, CSC, session token, challenge secret or licence key; card tokens only as consumed references', () => {
    const stored: Parameters<typeof assertAbsent>[2] = [
      ...allCards().flatMap(cardPatterns),
      ...literal('session token', seen.sessionTokens),
      ...literal('challenge secret', seen.challengeSecrets),
      ...literal('licence key', [licenceKey]),
      ['any session token', /cpe_st_/],
      // The dashboard's request log keeps a request's card fields by name, their values replaced (server/dashboard/redact.ts).
      ['a raw card field', /"(number|pan|cvc|cvv|csc)"\s*:(?!"\[redacted\]")/],
    ];
    assertAbsent('the database files (snapshot and logs)', rawFiles, stored);
    assertAbsent('the database', dataFile, stored);
    // Card tokens: the token table's own ids and each attempt's `token` (by design, see the API
    // description), all spent; nowhere else (not in idempotency records, which are sealed).
    const data = JSON.parse(dataFile) as { collections: Record<string, Record<string, any>> };
    const references = new Set(Object.values(data.collections.payment_intents).flatMap((i) => i.attempts.map((a: { token: string }) => a.token)));
    for (const token of seen.cardTokens) assert.ok(references.has(token), `${token} is kept unspent`);
    const stripped = structuredClone(data);
    delete stripped.collections.card_tokens;
    for (const intent of Object.values(stripped.collections.payment_intents)) for (const attempt of intent.attempts) delete attempt.token;
    // Events hold the intent as the API answered it (server/events/), with the same references.
    for (const event of Object.values(stripped.collections.events ?? {}))
      for (const intent of [event.data.object, event.data.previous_attributes ?? {}]) for (const attempt of intent.attempts ?? []) delete attempt.token;
    assertAbsent('cpe.json (beside the token table and the attempts\' references)', JSON.stringify(stripped), [...literal('card token', seen.cardTokens), ['any card token', ANY_CARD_TOKEN]]);
    // And the session token is kept as its hash, as designed.
    assert.ok(Object.values(data.collections.payment_intents).every((i) => /^[0-9a-f]{64}$/.test(i.session_hash)));
  });

  test('nothing else in the data folder holds them (credentials.json, by design, holds the keys only)', () => {
    const files = readdirSync(dataDir).filter((f) => f !== 'cpe.snapshot' && f !== 'credentials.json' && !/^cpe\.\d{6}\.log$/.test(f));
    assert.deepEqual(files, [], 'unexpected files in the data folder');
    assert.ok(!existsSync(join(dataDir, '.cpe.snapshot.tmp')));
    const credentials = readFileSync(join(dataDir, 'credentials.json'), 'utf8');
    assertAbsent('credentials.json', credentials, [...allCards().flatMap(cardPatterns), ...literal('session token', seen.sessionTokens), ...literal('card token', seen.cardTokens)]);
  });
});
