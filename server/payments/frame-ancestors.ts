import type { ParameterizedContext } from 'koa';
import type { AppState } from '../http/app-state.ts';
import type { Merchants } from './merchants.ts';
import type { PaymentsService } from './payments-service.ts';

/**
 * Who may embed a hosted frame page: the page origins of the merchant that the frame address names
 * (`?pk=<public key>`, and `&ok=<opaque key>` once an intent exists, which must be that merchant's).
 * An unknown key, or an opaque key of another merchant, gives no origin: `frame-ancestors 'none'`,
 * so the browser renders no card field at all.
 */
export function frameAncestorsOf(merchants: Merchants, payments: PaymentsService) {
  return async (ctx: ParameterizedContext<AppState>): Promise<string[]> => {
    const { pk, ok } = ctx.query;
    const merchant = typeof pk === 'string' && pk ? await merchants.byKey(pk, 'public') : undefined;
    if (!merchant) return [];
    if (ok !== undefined && (typeof ok !== 'string' || !(await payments.hasOpaqueKey(merchant.merchant_id, ok)))) return [];
    return merchant.origins;
  };
}
