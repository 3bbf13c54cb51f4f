import Router from '@koa/router';
import { randomBytes } from '../identity/secrets.ts';
import { z } from 'zod';
import type { Services } from '../services.ts';
import { ApiError } from '../http/api-error.ts';
import type { AppState } from '../http/app-state.ts';
import { frameSecurityHeaders } from '../http/frame-security.ts';
import type { Ctx } from '../http/operation.ts';
import type { ChallengeView } from './payments-service.ts';

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

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:24px;color:#1a1a1a;background:#fff}
main{max-width:420px;margin:0 auto;text-align:center}h1{font-size:1.2rem}.amount{font-size:1.6rem;font-weight:600;margin:12px 0}
.buttons{display:flex;gap:12px;justify-content:center;margin-top:20px}button{font:inherit;padding:10px 20px;border-radius:6px;border:1px solid #888;cursor:pointer}
button[value=complete]{background:#0a7c2f;color:#fff;border-color:#0a7c2f}button:focus-visible{outline:3px solid #1a5fd6;outline-offset:2px}.note{color:#555;font-size:.9rem}`;

function page(nonce: string, title: string, content: string, script = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="same-origin"><title>${escapeHtml(title)}</title><style nonce="${nonce}">${STYLE}</style></head>
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

function challengeForm(view: ChallengeView, secret: string): string {
  return `<h1>3-D Secure test challenge</h1>
<p>Confirm the payment to ${escapeHtml(view.merchantName)}</p>
<p class="amount">${escapeHtml(view.amount)}</p>
<p class="note">Test mode: choose the outcome of this authentication.</p>
<form method="post" action="/frames/challenge">
<input type="hidden" name="challenge" value="${escapeHtml(secret)}">
<div class="buttons"><button type="submit" name="outcome" value="complete">Complete</button>
<button type="submit" name="outcome" value="fail">Fail</button></div></form>`;
}

/**
 * The 3-D Secure simulator: `GET /frames/challenge?challenge=<secret>` shows the amount and the
 * buttons Complete and Fail; the form posts the answer with the same secret (never a guessable id),
 * the service records it, and the answer page posts `{type: 'cpe:3ds:result', transaction_id,
 * status}` to its parent or opener. `Accept: application/json` on the POST gets that object as JSON.
 */
export function challengeRoutes({ payments, config }: Services): Router<AppState> {
  const router = new Router<AppState>();
  const ownOrigin = () => new URL(config.publicUrl).origin;

  router.get('/frames/challenge', (ctx) => {
    const secret = typeof ctx.query.challenge === 'string' ? ctx.query.challenge : '';
    const view = payments.challengeView(secret);
    if (!view) {
      const nonce = secure(ctx, []);
      ctx.status = 404;
      ctx.body = page(nonce, 'Challenge not found', '<h1>This authentication has expired or does not exist.</h1>');
      return;
    }
    const nonce = secure(ctx, view.origins);
    if (view.status !== 'pending') {
      const message: ChallengeMessage = { type: CHALLENGE_MESSAGE_TYPE, transaction_id: view.transactionId, status: view.status };
      ctx.body = page(nonce, 'Authentication', `<h1>This authentication was already ${view.status}.</h1>`, resultScript(message, [...view.origins, ownOrigin()]));
      return;
    }
    const cancel: ChallengeCancel = { type: CHALLENGE_CANCEL_TYPE, transaction_id: view.transactionId };
    ctx.body = page(nonce, '3-D Secure', challengeForm(view, secret), escapeScript(cancel, view.origins));
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
    const text = message.status === 'completed' ? 'Authentication complete.' : 'Authentication failed.';
    ctx.body = page(nonce, 'Authentication', `<h1>${text}</h1><p class="note">You can close this window.</p>`, resultScript(message, [...view.origins, ownOrigin()]));
  });
  return router;
}
