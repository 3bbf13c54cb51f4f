import Router from '@koa/router';
import { randomBytes } from '../identity/secrets.ts';
import { z } from 'zod';
import type { Services } from '../services.ts';
import { ApiError } from '../http/api-error.ts';
import type { AppState } from '../http/app-state.ts';
import { frameSecurityHeaders } from '../http/frame-security.ts';
import type { Ctx } from '../http/operation.ts';
import type { ChallengeView } from './payments-service.ts';
import { CHALLENGE_STYLE, challengeLook, htmlAttributes, SHIELD, type ChallengeLook } from './challenge-look.ts';
import { formatAmount } from './iso-codes.ts';
import { fill } from '../../iframe-app/shared/format.ts';

import { CHALLENGE_CANCEL_TYPE, CHALLENGE_MESSAGE_TYPE, type ChallengeCancel, type ChallengeMessage } from '../../protocol/challenge.ts';

const Answer = z.strictObject({ challenge: z.string().max(200), outcome: z.enum(['complete', 'fail']) });

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** JSON safe inside a <script>: no `<` to close it, no line separators to break it. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028|\u2029/g, '');

/** The challenge page's headers: its own nonce'd script and style only, framed only by the merchant's pages or the service's own frames. */
function secure(ctx: Ctx, frameAncestors: string[]): string {
  const nonce = randomBytes(16).toString('base64');
  ctx.set(frameSecurityHeaders({ ancestors: frameAncestors, nonce, selfAncestor: true, cache: 'no-store', fetchDest: ctx.get('sec-fetch-dest') || undefined }));
  ctx.type = 'text/html; charset=utf-8';
  return nonce;
}

/** A page in the look of the element that opened it (its language and colour scheme). */
function page(nonce: string, look: ChallengeLook, title: string, content: string, script = ''): string {
  return `<!doctype html>
<html ${htmlAttributes(look)}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="same-origin"><title>${escapeHtml(title)}</title><style nonce="${nonce}">${CHALLENGE_STYLE}</style></head>
<body><main>${content}</main>${script ? `<script nonce="${nonce}">${script}</script>` : ''}</body></html>`;
}

/** Posts the outcome to whichever window opened or frames the page, only to the named origins. */
/** Posts `message` to whichever window opened or frames the page, only to the named origins. */
const POST_TO_OPENER = `function cpePost(m,o){var t=[];if(window.parent&&window.parent!==window)t.push(window.parent);if(window.opener)t.push(window.opener);
t.forEach(function(w){o.forEach(function(origin){try{w.postMessage(m,origin)}catch(e){}})});}`;

function resultScript(message: ChallengeMessage, origins: string[]): string {
  return `${POST_TO_OPENER}cpePost(${scriptJson(message)},${scriptJson(origins)});`;
}

/** Escape inside the page (another origin than the merchant's dialog) asks the SDK to cancel. */
function escapeScript(message: ChallengeCancel, origins: string[]): string {
  return `${POST_TO_OPENER}document.addEventListener('keydown',function(e){if(e.key==='Escape'){e.preventDefault();cpePost(${scriptJson(message)},${scriptJson(origins)});}});`;
}

function challengeForm(view: ChallengeView, secret: string, { cat, tag, scheme }: ChallengeLook): string {
  // The answer's page keeps the look: the form posts the same lang and theme.
  const look = new URLSearchParams({ lang: tag, ...(scheme && { theme: scheme }) });
  return `${SHIELD}<h1>${escapeHtml(cat.challengeTitle)}</h1>
<p>${escapeHtml(fill(cat.challengeConfirm, { merchant: view.merchantName }))}</p>
<p class="amount"><bdi dir="ltr">${escapeHtml(formatAmount(view.value.amount, view.value.currency, tag))}</bdi></p>
<p class="note">${escapeHtml(cat.challengeNote)}</p>
<form method="post" action="/frames/challenge?${look}">
<input type="hidden" name="challenge" value="${escapeHtml(secret)}">
<div class="buttons"><button type="submit" name="outcome" value="complete">${escapeHtml(cat.challengeComplete)}</button>
<button type="submit" name="outcome" value="fail">${escapeHtml(cat.challengeFail)}</button></div></form>`;
}

/** The outcome's page: what happened, in the page's language. */
const outcomePage = (status: string, { cat }: ChallengeLook) =>
  `<h1>${escapeHtml(status === 'completed' ? cat.challengeDone : cat.challengeFailed)}</h1><p class="note">${escapeHtml(cat.challengeClose)}</p>`;

/**
 * The 3-D Secure simulator: `GET /frames/challenge?challenge=<secret>` shows the amount and the
 * buttons Complete and Fail; the form posts the answer with the same secret (never a guessable id),
 * the service records it, and the answer page posts `{type: 'cpe:3ds:result', transaction_id,
 * status}` to its parent or opener. `Accept: application/json` on the POST gets that object as JSON.
 */
export function challengeRoutes({ payments, config }: Services): Router<AppState> {
  const router = new Router<AppState>();
  const ownOrigin = () => new URL(config.publicUrl).origin;

  router.get('/frames/challenge', async (ctx) => {
    const secret = typeof ctx.query.challenge === 'string' ? ctx.query.challenge : '';
    const look = await challengeLook(ctx.query);
    const view = await payments.challengeView(secret);
    if (!view) {
      const nonce = secure(ctx, []);
      ctx.status = 404;
      ctx.body = page(nonce, look, look.cat.challengeMissing, `<h1>${escapeHtml(look.cat.challengeMissing)}</h1>`);
      return;
    }
    const nonce = secure(ctx, view.origins);
    if (view.status !== 'pending') {
      const message: ChallengeMessage = { type: CHALLENGE_MESSAGE_TYPE, transaction_id: view.transactionId, status: view.status };
      ctx.body = page(nonce, look, look.cat.challengeTitle, outcomePage(view.status, look), resultScript(message, [...view.origins, ownOrigin()]));
      return;
    }
    const cancel: ChallengeCancel = { type: CHALLENGE_CANCEL_TYPE, transaction_id: view.transactionId };
    ctx.body = page(nonce, look, look.cat.challengeTitle, challengeForm(view, secret, look), escapeScript(cancel, view.origins));
  });

  router.post('/frames/challenge', async (ctx) => {
    const origin = ctx.get('origin');
    const site = ctx.get('sec-fetch-site');
    // The form is the service's own page; an answer from any other origin is forged.
    if ((origin && origin !== ownOrigin()) || (site && site !== 'same-origin'))
      throw new ApiError(403, 'invalid_request_error', 'origin_not_allowed', 'Challenges are answered from the challenge page only.');
    const input = Answer.safeParse(ctx.request.body ?? {});
    if (!input.success) throw new ApiError(400, 'invalid_request_error', 'parameter_invalid', 'Send challenge and outcome (complete or fail).', 'outcome');
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
    const nonce = secure(ctx, view.origins);
    const look = await challengeLook(ctx.query);
    ctx.body = page(nonce, look, look.cat.challengeTitle, outcomePage(message.status, look), resultScript(message, [...view.origins, ownOrigin()]));
  });
  return router;
}
