import Router from '@koa/router';
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Services } from '../services.ts';
import { ApiError } from '../http/api-error.ts';
import { ownOriginRefusal } from '../http/origin-refusals.ts';
import type { AppState } from '../http/app-state.ts';
import { frameSecurityHeaders } from '../http/frame-security.ts';
import type { Ctx } from '../http/operation.ts';
import type { ChallengeView } from './payments-service.ts';
import { CHALLENGE_STYLE, challengeLook, htmlAttributes, SHIELD, type ChallengeLook } from './challenge-look.ts';
import { formatAmount } from '../../api/iso-codes.ts';
import { fill } from '../../i18n/format.ts';

import { CHALLENGE_MESSAGE_TYPE, type ChallengeMessage, type ChallengePageData } from '../../protocol/schemas/challenge.ts';

const Answer = z.strictObject({ challenge: z.string().max(200), form_token: z.string().max(200).optional(), outcome: z.enum(['complete', 'fail']) });
const same = (a: string, b: string) => a.length === b.length && a.length > 0 && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** JSON safe inside a <script>: no `<` to close it, no line separators to break it. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028|\u2029/g, '');
const sha256 = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;

/** The page's script, built by `vite build` from iframe-app/challenge-page/ (re-read when rebuilt). */
const SCRIPT_FILE = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'dist/pages/challenge.js');
let script: { mtimeMs: number; code: string; hash: string } | undefined;
function challengeScript(): { code: string; hash: string } {
  const mtimeMs = statSync(SCRIPT_FILE, { throwIfNoEntry: false })?.mtimeMs;
  if (mtimeMs === undefined) throw new ApiError('sdk_not_built', "The 3-D Secure page's script has not been built: run npm run build (npm start builds it when missing).", null, { 'Retry-After': '10' });
  if (script?.mtimeMs !== mtimeMs) {
    const code = readFileSync(SCRIPT_FILE, 'utf8');
    script = { mtimeMs, code, hash: sha256(code) };
  }
  return script;
}
const STYLE_HASH = sha256(CHALLENGE_STYLE);

/**
 * The challenge page's headers: its one built script and its style, each allowed by its hash (no
 * 'unsafe-inline', no nonce, no other file), framed only by the merchant's pages or the service's own frames.
 */
function secure(ctx: Ctx, frameAncestors: string[]): string {
  const { code, hash } = challengeScript();
  ctx.set(frameSecurityHeaders({ ancestors: frameAncestors, inlineOnly: true, hashes: { script: [hash], style: [STYLE_HASH] }, selfAncestor: true, cache: 'no-store', fetchDest: ctx.get('sec-fetch-dest') || undefined }));
  ctx.type = 'text/html; charset=utf-8';
  return code;
}

/**
 * A page in the look of the element that opened it (its language and colour scheme). With `data`,
 * the built script (a popup of the one page-to-popup channel: iframe-app/challenge-page/main.ts)
 * and what it reads: the origins whose init it accepts, and the answer page's result.
 */
function page(code: string, look: ChallengeLook, title: string, content: string, data?: ChallengePageData): string {
  return `<!doctype html>
<html ${htmlAttributes(look)}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="same-origin"><title>${escapeHtml(title)}</title><style>${CHALLENGE_STYLE}</style></head>
<body><main>${content}</main>${data ? `<script type="application/json" id="cpe-challenge">${scriptJson(data)}</script><script type="module">${code}</script>` : ''}</body></html>`;
}

function challengeForm(view: ChallengeView, secret: string, { catalogue, tag, scheme }: ChallengeLook): string {
  // The answer's page keeps the look: the form posts the same lang and theme.
  const look = new URLSearchParams({ lang: tag, ...(scheme && { theme: scheme }) });
  return `${SHIELD}<h1>${escapeHtml(catalogue.challengeTitle)}</h1>
<p>${escapeHtml(fill(catalogue.challengeConfirm, { merchant: view.merchantName }))}</p>
<p class="amount"><bdi dir="ltr">${escapeHtml(formatAmount(view.value.amount, view.value.currency, tag))}</bdi></p>
<p class="note">${escapeHtml(catalogue.challengeNote)}</p>
<form method="post" action="/frames/challenge?${look}">
<input type="hidden" name="challenge" value="${escapeHtml(secret)}">
<input type="hidden" name="form_token" value="${escapeHtml(view.formToken)}">
<div class="buttons"><button type="submit" name="outcome" value="complete" disabled>${escapeHtml(catalogue.challengeComplete)}</button>
<button type="submit" name="outcome" value="fail" disabled>${escapeHtml(catalogue.challengeFail)}</button></div></form>`;
}

/** The outcome's page: what happened, in the page's language. */
const outcomePage = (status: string, { catalogue }: ChallengeLook) =>
  `<h1>${escapeHtml(status === 'completed' ? catalogue.challengeDone : catalogue.challengeFailed)}</h1><p class="note">${escapeHtml(catalogue.challengeClose)}</p>`;

/**
 * The 3-D Secure simulator: `GET /frames/challenge?challenge=<secret>` shows the amount and the
 * buttons Complete and Fail; the form posts the answer with the same secret (never a guessable id)
 * and the challenge's one-time form token (in the form only, never in a URL), from the service's own
 * origin; the service records it, and the answer page sends `{type: 'cpe:3ds:result',
 * transaction_id, status}` on the popup channel's port the SDK handed it. `Accept: application/json`
 * on the POST gets that object as JSON.
 */
export function challengeRoutes({ payments, config }: Services): Router<AppState> {
  const router = new Router<AppState>();
  const ownOrigin = () => new URL(config.publicUrl).origin;

  router.get('/frames/challenge', async (ctx) => {
    const secret = typeof ctx.query.challenge === 'string' ? ctx.query.challenge : '';
    const look = await challengeLook(ctx.query);
    const view = await payments.challengeView(secret);
    if (!view) {
      const code = secure(ctx, []);
      ctx.status = 404;
      ctx.body = page(code, look, look.catalogue.challengeMissing, `<h1>${escapeHtml(look.catalogue.challengeMissing)}</h1>`);
      return;
    }
    const code = secure(ctx, view.origins);
    if (view.status !== 'pending') {
      const result: ChallengeMessage = { type: CHALLENGE_MESSAGE_TYPE, transaction_id: view.transactionId, status: view.status };
      ctx.body = page(code, look, look.catalogue.challengeTitle, outcomePage(view.status, look), { origins: [...view.origins, ownOrigin()], result });
      return;
    }
    ctx.body = page(code, look, look.catalogue.challengeTitle, challengeForm(view, secret, look), { origins: view.origins });
  });

  router.post('/frames/challenge', async (ctx) => {
    // The form is the service's own page: its Origin (required), same-origin fetch metadata where
    // sent, and the one-time token the form carries. A script, another page or curl is refused.
    const refused = ownOriginRefusal(ctx, config.publicUrl, {
      code: 'challenge_page_only',
      refused: 'Challenges are answered from the challenge page only',
      instead: 'The shopper answers in the challenge page the SDK shows; in tests, drive that page in a browser.',
    });
    if (refused) throw refused;
    const input = Answer.safeParse(ctx.request.body ?? {});
    if (!input.success) throw new ApiError('parameter_invalid', 'Send challenge and outcome (complete or fail).', 'outcome');
    const pending = await payments.challengeView(input.data.challenge);
    if (pending?.status === 'pending' && !same(input.data.form_token ?? '', pending.formToken))
      throw new ApiError('challenge_page_only', "Challenges are answered from the challenge page only: the answer did not carry the page's one-time form token.", 'form_token');
    const view = await payments.answerChallenge(input.data.challenge, input.data.outcome);
    const message: ChallengeMessage = {
      type: CHALLENGE_MESSAGE_TYPE,
      transaction_id: view.transactionId,
      status: view.status === 'completed' ? 'completed' : 'failed',
    };
    if (ctx.accepts('html', 'json') === 'json') {
      ctx.body = message;
      return;
    }
    const code = secure(ctx, view.origins);
    const look = await challengeLook(ctx.query);
    ctx.body = page(code, look, look.catalogue.challengeTitle, outcomePage(message.status, look), { origins: [...view.origins, ownOrigin()], result: message });
  });
  return router;
}
