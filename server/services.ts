import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import { RequestRecords } from './dashboard/request-records.ts';
import { DashboardSessions } from './dashboard/sessions.ts';
import { Events } from './events/events.ts';
import { Webhooks } from './webhooks/webhooks.ts';
import { IdempotencyKeys } from './idempotency/idempotency-keys.ts';
import { Users } from './identity/users.ts';
import type { Logger } from './logger.ts';
import { MessagingService } from './messaging/service.ts';
import { Merchants } from './payments/merchants.ts';
import { PaymentsService } from './payments/payments-service.ts';
import type { Store } from './store/store.ts';

/**
 * The long-lived objects behind the routes, built once per process. Its own module, so routers
 * import this type (and take only the members they use) without importing the app that mounts them.
 */
export interface Services {
  store: Store;
  logger: Logger;
  config: Config;
  clock: Clock;
  users: Users;
  merchants: Merchants;
  messaging: MessagingService;
  payments: PaymentsService;
  idempotencyKeys: IdempotencyKeys;
  /** The dashboard's sessions and sign-in links, and its per-merchant request log. */
  dashboard: { sessions: DashboardSessions; requests: RequestRecords };
  events: Events;
  /** Endpoints and deliveries; the delivery loop runs only once started (a serving process, not a CLI command). */
  webhooks: Webhooks;
}

export function createServices(store: Store, logger: Logger, config: Config, clock: Clock = systemClock): Services {
  const merchants = new Merchants(store, clock);
  const events = new Events(store, clock, config.eventRetentionDays);
  return {
    store,
    logger,
    config,
    clock,
    users: new Users(store, clock),
    merchants,
    messaging: new MessagingService(store, clock, events),
    payments: new PaymentsService(store, merchants, () => config.publicUrl, clock, events),
    idempotencyKeys: new IdempotencyKeys(store, clock, config.idempotencyRetentionSeconds),
    events,
    dashboard: { sessions: new DashboardSessions(store, clock), requests: new RequestRecords(store, clock, logger) },
    webhooks: new Webhooks(store, clock, events, config, logger),
  };
}

/**
 * Bounded growth: drops idempotency records past their retention, card tokens and 3-D Secure
 * challenges an hour past their expiry (until then an expired one is refused by name, not as
 * unknown), and events past theirs (CPE_EVENT_RETENTION_DAYS). Lookups already ignore expired rows
 * (events: GET answers them until pruned), so this keeps the data folder from growing with
 * traffic. Commits what it removed.
 */
export async function pruneExpired(
  services: Pick<Services, 'store' | 'idempotencyKeys' | 'payments' | 'events' | 'webhooks' | 'dashboard'>,
): Promise<{ idempotencyKeys: number; tokens: number; challenges: number; events: number; webhooks: number; dashboardSessions: number }> {
  const removed = await services.store.transaction(async () => ({
    idempotencyKeys: await services.idempotencyKeys.prune(),
    ...(await services.payments.prune()),
    events: await services.events.prune(),
    dashboardSessions: await services.dashboard.sessions.prune(),
    webhooks: await services.webhooks.deliveries.prune(),
  }));
  // The engine's own leftovers (PostgreSQL: old list cursors of deleted rows, idle rate buckets).
  await (services.store as { pruneEngine?: () => Promise<number> }).pruneEngine?.();
  return removed;
}
