import type { Middleware } from 'koa';
import type { Store } from '../store/store.ts';
import type { AppState } from './app-state.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The one place that makes an acknowledged write durable: after any request that may change data
 * (success or error: a refused card still counts towards the lock), its changes, and whatever
 * middleware such as idempotency recorded beside them, reach the disk in one group commit before the
 * answer leaves. Services therefore only change memory; a read waits for a write only when it changed
 * something (`ctx.state.changed`: the first request of a browser session moves its intent on).
 */
export function durableWrites(store: Store): Middleware<AppState> {
  return async (ctx, next) => {
    if (READS.has(ctx.method)) {
      await next();
      if (ctx.state.changed) await store.commit();
      return;
    }
    try {
      await next();
    } finally {
      await store.commit();
    }
  };
}
