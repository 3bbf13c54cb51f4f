import Router from '@koa/router';
import { timingSafeEqual } from 'node:crypto';
import { randomBytes } from '../identity/secrets.ts';
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
import { UUID } from '../../protocol/runtime/patterns.ts';

import { CHALLENGE_CANCEL_TYPE, CHALLENGE_INIT_TYPE, CHALLENGE_MESSAGE_TYPE, CHALLENGE_READY_TYPE, type ChallengeCancel, type ChallengeMessage } from '../../protocol/schemas/challenge.ts';

const Answer = z.strictObject({ challenge: z.string().max(200), form_token: z.string().max(200).optional(), outcome: z.enum(['complete', 'fail']) });
const same = (a: string, b: string) => a.length === b.length && a.length > 0 && timingSafeEqual(Buffer.from(a), Buffer.from(b));

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

/**
 * Every challenge document speaks to the SDK's dialog over a MessageChannel, never on a window: it
 * says `ready` to its parent with the uuid of its fragment (which the SDK added; nothing else), and
 * accepts exactly one init from its parent, of one of the named origins, with a port; `cpeSend`
 * queues messages until then. The form keeps the fragment, so the answer's page does the same: its
 * buttons are rendered disabled and enabled only once the fragment is in its action (a shopper
 * quicker than the script would post an answer whose page cannot reach the SDK).
 */
function channelScript(origins: string[]): string {
  return `(function(){var u=location.hash.slice(1),p,q=[],o=${scriptJson(origins)};
window.cpeSend=function(m){p?p.postMessage(m):q.push(m)};
function h(e){var a=location.ancestorOrigins;if(p||e.source!==parent||!e.ports[0]||o.indexOf(e.origin)<0||(a&&a.length&&a[0]!==e.origin))return;
var d=e.data;if(!d||d.type!==${scriptJson(CHALLENGE_INIT_TYPE)}||d.session!==u)return;p=e.ports[0];removeEventListener('message',h);q.splice(0).forEach(cpeSend)}
addEventListener('message',h);var f=document.querySelector('form');if(f){f.action+=location.hash;f.querySelectorAll('button').forEach(function(b){b.disabled=false})}
if(parent!==window&&${UUID}.test(u))parent.postMessage({type:${scriptJson(CHALLENGE_READY_TYPE)},session:u},'*');})();`;
}

function resultScript(message: ChallengeMessage, origins: string[]): string {
  return `${channelScript(origins)}cpeSend(${scriptJson(message)});`;
}

/** Escape inside the page (another origin than the merchant's dialog) asks the SDK to cancel. */
function escapeScript(message: ChallengeCancel, origins: string[]): string {
  return `${channelScript(origins)}document.addEventListener('keydown',function(e){if(e.key==='Escape'){e.preventDefault();cpeSend(${scriptJson(message)});}});`;
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
 * transaction_id, status}` on the port the SDK handed it (channelScript). `Accept: application/json`
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
      const nonce = secure(ctx, []);
      ctx.status = 404;
      ctx.body = page(nonce, look, look.catalogue.challengeMissing, `<h1>${escapeHtml(look.catalogue.challengeMissing)}</h1>`);
      return;
    }
    const nonce = secure(ctx, view.origins);
    if (view.status !== 'pending') {
      const message: ChallengeMessage = { type: CHALLENGE_MESSAGE_TYPE, transaction_id: view.transactionId, status: view.status };
      ctx.body = page(nonce, look, look.catalogue.challengeTitle, outcomePage(view.status, look), resultScript(message, [...view.origins, ownOrigin()]));
      return;
    }
    const cancel: ChallengeCancel = { type: CHALLENGE_CANCEL_TYPE, transaction_id: view.transactionId };
    ctx.body = page(nonce, look, look.catalogue.challengeTitle, challengeForm(view, secret, look), escapeScript(cancel, view.origins));
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
    const nonce = secure(ctx, view.origins);
    const look = await challengeLook(ctx.query);
    ctx.body = page(nonce, look, look.catalogue.challengeTitle, outcomePage(message.status, look), resultScript(message, [...view.origins, ownOrigin()]));
  });
  return router;
}
