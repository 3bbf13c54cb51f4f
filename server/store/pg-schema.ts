/**
 * The PostgreSQL engine's schema: real tables with keys, foreign keys and unique constraints, and
 * how each collection's rows map to them. Every table has `seq`: the position a row's id carries
 * (identity/ids.ts), or for an id without one the next of one sequence shared by all tables (the
 * embedded store's row counter). Lists are pages of an index on (list key, seq, id), newest first:
 * ids made at once by two processes may share a position, and the id breaks the tie. Created and changed only by the versioned migrations below (pg-migrate.ts), run at first
 * start and by `npm run migrate`.
 */

import type { IntentRow } from '../payments/intent-rows.ts';
import type { RefundRow } from '../payments/refunds.ts';

/** `json` keeps the text as written (key order included); `jsonb` a parsed form. */
export type ColumnType = 'text' | 'int' | 'bigint' | 'bool' | 'json' | 'jsonb' | 'text[]';

export interface Column {
  type: ColumnType;
  /** Absent from the row when NULL (a field that older rows lack), rather than null. */
  optional?: boolean;
}

export interface TableDef {
  table: string;
  /** The row's fields in the order the service writes them, each a column of the same name. */
  columns: Record<string, Column>;
  /** The column holding each index's key (see IndexSpec): a field, or a generated column. */
  indexes: Record<string, string>;
  /** Index keys computed by the service's own key function and stored (no SQL can compute them). */
  derived?: Record<string, ColumnType>;
  /** A listed collection: a deleted row whose id carries no position stays a cursor (see the tombstones table). */
  paged?: boolean;
  /**
   * Columns whose value never goes down as `seq` goes up (a creation time: the position in an id and
   * the creation time come from the same clock of the process that made the row). A range on one is
   * also turned into a range of `seq`, found on the column's own index, so a list page filtered by
   * it reads only the rows in that range (pg-store.ts #filter). Needs an index on (column, seq).
   */
  grows?: string[];
  /** payment_intents: `attempts` is rows of payment_attempts. */
  attempts?: boolean;
  /**
   * Rows are never changed nor deleted once written (merchants, keys, users, access tokens): each
   * process keeps those it has read, so authenticating a request costs no query once warm.
   */
  immutable?: boolean;
  /**
   * Rows change rarely (a merchant's keys: a roll sets the old key's expiry): each process keeps one
   * it has read for this many seconds, so authenticating costs a query at most that often; a change
   * is seen at once by the process that made it, and within these seconds by the others.
   */
  cacheSeconds?: number;
}

const t = (type: ColumnType, optional = false): Column => ({ type, ...(optional ? { optional } : {}) });

/** Exactly one column per field of a row type (its optional fields too): a field without a column does not compile. */
type Columns<R> = { [K in keyof Required<R>]: Column };

export const TABLES: Record<string, TableDef> = {
  users: { table: 'users', columns: { id: t('text'), username: t('text'), created_at: t('bigint') }, indexes: { username: 'username' }, immutable: true },
  access_tokens: { table: 'access_tokens', columns: { id: t('text'), user_id: t('text'), created_at: t('bigint') }, indexes: { user: 'user_id' }, immutable: true },
  merchants: {
    table: 'merchants',
    columns: { id: t('text'), merchant_id: t('int'), name: t('text'), origins: t('text[]'), created_at: t('bigint') },
    indexes: {},
    immutable: true,
  },
  merchant_keys: {
    table: 'merchant_keys',
    columns: { id: t('text'), merchant_id: t('int'), kind: t('text'), shown: t('text', true), created_at: t('bigint', true), expires_at: t('bigint', true) },
    indexes: { merchant: 'merchant_id' },
    cacheSeconds: 5,
  },
  contacts: {
    table: 'contacts',
    columns: {
      id: t('text'),
      object: t('text'),
      user_id: t('text'),
      username: t('text'),
      phone_number: t('text'),
      avatar_url: t('text'),
      display_name: t('text'),
      conversation_id: t('text'),
      last_active_at: t('bigint'),
      created_at: t('bigint'),
    },
    indexes: { owner: 'user_id', active: 'ix_active' },
    paged: true,
  },
  conversations: {
    table: 'conversations',
    columns: {
      id: t('text'),
      object: t('text'),
      user_id: t('text'),
      contact_id: t('text'),
      group_id: t('text'),
      pinned_message_id: t('text'),
      is_pinned: t('bool'),
      is_muted: t('bool'),
      last_active_at: t('bigint'),
      last_opened_at: t('bigint'),
      created_at: t('bigint'),
      archived_at: t('bigint'),
    },
    indexes: { owner: 'user_id', archived: 'ix_archived', group: 'ix_group' },
    paged: true,
  },
  messages: {
    table: 'messages',
    columns: {
      id: t('text'),
      object: t('text'),
      user_id: t('text'),
      conversation_id: t('text'),
      sender: t('text'),
      text: t('text'),
      created_at: t('bigint'),
    },
    indexes: { conversation: 'conversation_id' },
    paged: true,
  },
  payment_intents: {
    table: 'payment_intents',
    columns: {
      id: t('text'),
      merchant_id: t('int'),
      status: t('text'),
      amount: t('bigint'),
      currency: t('text'),
      identifier: t('text'),
      auto_capture: t('bool'),
      moto: t('bool'),
      purpose: t('text', true),
      account_id: t('text'),
      billTo: t('jsonb'),
      cardHolderAccount: t('jsonb'),
      recurringIntent: t('jsonb'),
      session_hash: t('text'),
      opaque_key: t('text'),
      amount_authorised: t('bigint'),
      amount_captured: t('bigint'),
      amount_refunded: t('bigint'),
      failed_attempts: t('int'),
      cancellation_reason: t('text'),
      metadata: t('jsonb'),
      description: t('text'),
      created_at: t('bigint'),
      updated_at: t('bigint'),
    } satisfies Columns<Omit<IntentRow, 'attempts'>>,
    indexes: { session: 'session_hash', opaque: 'opaque_key', merchant: 'merchant_id', status: 'ix_status' },
    grows: ['created_at'],
    attempts: true,
  },
  refunds: {
    table: 'refunds',
    columns: {
      id: t('text'),
      object: t('text'),
      merchant_id: t('int'),
      payment_intent: t('text'),
      amount: t('bigint'),
      currency: t('text'),
      status: t('text'),
      reason: t('text'),
      failure_reason: t('text'),
      metadata: t('jsonb'),
      settles_at: t('bigint'),
      created: t('bigint'),
      updated_at: t('bigint'),
    } satisfies Columns<RefundRow>,
    indexes: { merchant: 'merchant_id', intent: 'payment_intent', due: 'ix_due' },
    grows: ['created'],
    paged: true,
  },
  card_tokens: {
    table: 'card_tokens',
    columns: {
      id: t('text'),
      merchant_id: t('int'),
      intent_id: t('text'),
      server_made: t('bool', true),
      card: t('jsonb'),
      created_at: t('bigint'),
      expires_at: t('bigint'),
    },
    indexes: { expiry: 'ix_expiry' },
  },
  stored_cards: {
    table: 'stored_cards',
    columns: { id: t('text'), merchant_id: t('int'), account_id: t('text'), card: t('jsonb'), created_at: t('bigint') },
    indexes: { account: 'ix_account' },
  },
  three_ds_challenges: {
    table: 'three_ds_challenges',
    columns: {
      id: t('text'),
      transaction_id: t('text'),
      intent_id: t('text'),
      attempt_id: t('text'),
      merchant_id: t('int'),
      origin: t('text'),
      status: t('text'),
      form_token: t('text', true),
      created_at: t('bigint'),
      expires_at: t('bigint'),
    },
    indexes: { expiry: 'ix_expiry' },
  },
  dashboard_sessions: {
    table: 'dashboard_sessions',
    columns: { id: t('text'), merchant_id: t('int'), via: t('text'), created_at: t('bigint'), expires_at: t('bigint') },
    indexes: { merchant: 'merchant_id', expiry: 'ix_expiry' },
  },
  dashboard_links: {
    table: 'dashboard_links',
    columns: { id: t('text'), merchant_id: t('int'), created_at: t('bigint'), expires_at: t('bigint') },
    indexes: { expiry: 'ix_expiry' },
  },
  request_records: {
    table: 'request_records',
    columns: {
      id: t('text'),
      merchant_id: t('int'),
      request_id: t('text'),
      source: t('text'),
      method: t('text'),
      path: t('text'),
      query: t('text', true),
      status: t('int'),
      idempotency_key: t('text', true),
      request_body: t('jsonb', true),
      response_body: t('jsonb', true),
      ms: t('int'),
      created_at: t('bigint'),
    },
    indexes: { merchant: 'ix_merchant', status: 'ix_status' },
  },
  meta: { table: 'cpe_meta', columns: { id: t('text'), value: t('jsonb') }, indexes: {} },
  idempotency_keys: {
    table: 'idempotency_keys',
    columns: { id: t('text'), fingerprint: t('text'), status: t('int'), sealed: t('text'), created_at: t('bigint') },
    indexes: { expiry: 'ix_expiry' },
    // Its retention is the service's configuration: the service computes the drop hour.
    derived: { expiry: 'bigint' },
  },
  // Migration 2. `data` is json, not jsonb: an event's object keeps its fields in the API's order.
  events: {
    table: 'events',
    columns: { id: t('text'), object: t('text'), owner: t('text'), type: t('text'), created: t('bigint'), data: t('json'), request: t('jsonb') },
    indexes: { owner: 'owner', type: 'ix_type', group: 'ix_group', expiry: 'ix_expiry', intent: 'ix_intent' },
    derived: { expiry: 'bigint' },
    paged: true,
  },
  // Migration 12: webhooks (server/webhooks/).
  webhook_endpoints: {
    table: 'webhook_endpoints',
    columns: {
      id: t('text'),
      owner: t('text'),
      url: t('text'),
      enabled_events: t('text[]'),
      description: t('text'),
      status: t('text'),
      disabled_reason: t('text'),
      secrets: t('jsonb'),
      created: t('bigint'),
    },
    indexes: { owner: 'owner' },
    paged: true,
  },
  webhook_deliveries: {
    table: 'webhook_deliveries',
    columns: {
      id: t('text'),
      owner: t('text'),
      event_id: t('text'),
      endpoint_id: t('text'),
      attempts: t('int'),
      scheduled: t('int'),
      next_at: t('bigint'),
      resume_at: t('bigint'),
      manual: t('bool'),
      lease_owner: t('bigint'),
      lease_until: t('bigint'),
      lease_token: t('text'),
      created: t('bigint'),
    },
    indexes: { endpoint: 'endpoint_id', expiry: 'ix_expiry' },
    derived: { expiry: 'bigint' },
  },
  webhook_attempts: {
    table: 'webhook_attempts',
    columns: {
      id: t('text'),
      owner: t('text'),
      endpoint_id: t('text'),
      event_id: t('text'),
      event_type: t('text'),
      attempt_number: t('int'),
      manual: t('bool'),
      created: t('bigint'),
      url: t('text'),
      status_code: t('int'),
      duration_ms: t('int'),
      response_body: t('text'),
      error: t('text'),
      result: t('text'),
      next_retry_at: t('bigint'),
    },
    indexes: { endpoint: 'endpoint_id', endpoint_event: 'ix_endpoint_event', expiry: 'ix_expiry' },
    derived: { expiry: 'bigint' },
    paged: true,
  },
};

/** The fields of an attempt (payment_attempts), in the order the service writes them. */
export const ATTEMPT_COLUMNS: Record<string, Column> = {
  id: t('text'),
  token: t('text'),
  card: t('jsonb'),
  three_ds_transaction_id: t('text'),
  three_ds: t('text'),
  outcome: t('text'),
  error: t('jsonb'),
  authorisation_code: t('text'),
  created_at: t('bigint'),
};

/** The hour a row of `expires_at` may be dropped, as store/expiry.ts computes it (kept an hour past expiry). */
const dropHour = 'GENERATED ALWAYS AS ((expires_at + 3600) / 3600) STORED';

/** Versioned migrations: append only; each runs once, in its own transaction (pg-migrate.ts). */
export const MIGRATIONS: { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'tables, keys and list indexes',
    sql: `
CREATE SEQUENCE cpe_seq;

CREATE TABLE users (
  id text PRIMARY KEY,
  username text NOT NULL UNIQUE,
  created_at bigint NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('cpe_seq')
);

CREATE TABLE access_tokens (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  created_at bigint NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('cpe_seq')
);
CREATE INDEX access_tokens_user ON access_tokens (user_id, seq);

CREATE TABLE merchants (
  id text PRIMARY KEY,
  merchant_id integer NOT NULL UNIQUE,
  name text NOT NULL,
  origins text[] NOT NULL,
  created_at bigint NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('cpe_seq'),
  CHECK (id = merchant_id::text)
);

CREATE TABLE merchant_keys (
  id text PRIMARY KEY,
  merchant_id integer NOT NULL REFERENCES merchants (merchant_id),
  kind text NOT NULL CHECK (kind IN ('licence', 'public')),
  seq bigint NOT NULL DEFAULT nextval('cpe_seq')
);

CREATE TABLE contacts (
  id text COLLATE "C" PRIMARY KEY,
  object text NOT NULL DEFAULT 'contact',
  user_id text NOT NULL REFERENCES users (id),
  username text NOT NULL,
  phone_number text NOT NULL,
  avatar_url text NOT NULL,
  display_name text,
  -- NULL allowed: a contact whose conversation was deleted may name none until another is made.
  conversation_id text,
  last_active_at bigint,
  created_at bigint NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('cpe_seq'),
  ix_active text GENERATED ALWAYS AS (user_id || ':' || (last_active_at IS NOT NULL)::text) STORED
);
CREATE INDEX contacts_owner ON contacts (user_id, seq, id);
CREATE INDEX contacts_active ON contacts (ix_active, seq, id);

-- A contact's conversation belongs to it (deferred: a contact and its conversation are made in one
-- transaction); one conversation per contact and per group id of a user.
CREATE TABLE conversations (
  id text COLLATE "C" PRIMARY KEY,
  object text NOT NULL DEFAULT 'conversation',
  user_id text NOT NULL REFERENCES users (id),
  contact_id text UNIQUE REFERENCES contacts (id) DEFERRABLE INITIALLY DEFERRED,
  group_id text,
  pinned_message_id text,
  is_pinned boolean NOT NULL,
  is_muted boolean NOT NULL,
  last_active_at bigint,
  last_opened_at bigint,
  created_at bigint NOT NULL,
  archived_at bigint,
  seq bigint NOT NULL DEFAULT nextval('cpe_seq'),
  ix_archived text GENERATED ALWAYS AS (user_id || ':' || (archived_at IS NOT NULL)::text) STORED,
  ix_group text GENERATED ALWAYS AS (user_id || ':' || group_id) STORED,
  UNIQUE (user_id, group_id),
  CHECK ((contact_id IS NULL) <> (group_id IS NULL))
);
CREATE INDEX conversations_owner ON conversations (user_id, seq, id);
CREATE INDEX conversations_archived ON conversations (ix_archived, seq, id);
CREATE INDEX conversations_group ON conversations (ix_group, seq, id);

CREATE TABLE messages (
  id text COLLATE "C" PRIMARY KEY,
  object text NOT NULL DEFAULT 'message',
  user_id text NOT NULL REFERENCES users (id),
  conversation_id text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  sender text NOT NULL,
  text text NOT NULL,
  created_at bigint NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('cpe_seq')
);
CREATE INDEX messages_conversation ON messages (conversation_id, seq, id);

CREATE TABLE payment_intents (
  id text PRIMARY KEY,
  merchant_id integer NOT NULL REFERENCES merchants (merchant_id),
  status text NOT NULL,
  amount bigint NOT NULL,
  currency text NOT NULL,
  identifier text NOT NULL,
  auto_capture boolean NOT NULL,
  moto boolean NOT NULL,
  purpose text,
  account_id text,
  "billTo" jsonb,
  "cardHolderAccount" jsonb,
  "recurringIntent" jsonb,
  session_hash text NOT NULL UNIQUE,
  opaque_key text NOT NULL UNIQUE,
  amount_authorised bigint,
  amount_captured bigint NOT NULL,
  failed_attempts integer NOT NULL,
  cancellation_reason text,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('cpe_seq')
);
CREATE INDEX payment_intents_merchant ON payment_intents (merchant_id, seq);

-- An intent's attempts, in order.
CREATE TABLE payment_attempts (
  id text PRIMARY KEY,
  intent_id text NOT NULL REFERENCES payment_intents (id),
  position integer NOT NULL,
  token text NOT NULL,
  card jsonb NOT NULL,
  three_ds_transaction_id text NOT NULL,
  three_ds text NOT NULL,
  outcome text NOT NULL,
  error jsonb,
  authorisation_code text,
  created_at bigint NOT NULL,
  UNIQUE (intent_id, position)
);

-- intent_id is NULL for a token made by POST /v1/tokens until an attach binds it.
CREATE TABLE card_tokens (
  id text PRIMARY KEY,
  merchant_id integer NOT NULL REFERENCES merchants (merchant_id),
  intent_id text REFERENCES payment_intents (id),
  server_made boolean,
  card jsonb NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('cpe_seq'),
  ix_expiry bigint ${dropHour}
);
CREATE INDEX card_tokens_expiry ON card_tokens (ix_expiry, seq);
CREATE INDEX card_tokens_intent ON card_tokens (intent_id);

CREATE TABLE stored_cards (
  id text PRIMARY KEY,
  merchant_id integer NOT NULL REFERENCES merchants (merchant_id),
  account_id text NOT NULL,
  card jsonb NOT NULL,
  created_at bigint NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('cpe_seq'),
  ix_account text GENERATED ALWAYS AS (merchant_id::text || ':' || account_id) STORED
);
CREATE INDEX stored_cards_account ON stored_cards (ix_account, seq);

CREATE TABLE three_ds_challenges (
  id text PRIMARY KEY,
  transaction_id text NOT NULL,
  intent_id text NOT NULL REFERENCES payment_intents (id),
  attempt_id text NOT NULL REFERENCES payment_attempts (id) DEFERRABLE INITIALLY DEFERRED,
  merchant_id integer NOT NULL REFERENCES merchants (merchant_id),
  origin text,
  status text NOT NULL CHECK (status IN ('pending', 'completed', 'failed')),
  form_token text,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('cpe_seq'),
  ix_expiry bigint ${dropHour}
);
CREATE INDEX three_ds_challenges_expiry ON three_ds_challenges (ix_expiry, seq);

-- One record per credential scope, method, path and key (the id hashes them together).
CREATE TABLE idempotency_keys (
  id text PRIMARY KEY,
  fingerprint text NOT NULL,
  status integer NOT NULL,
  sealed text NOT NULL,
  created_at bigint NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('cpe_seq'),
  ix_expiry bigint
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (ix_expiry, seq);

-- Where a deleted row whose id carries no position (made before ids did) stood, and in which lists
-- (index name -> key), so it stays a cursor; ids with a position need none (identity/ids.ts).
-- record_seq: the embedded store's own sequence of the record, kept by copy-store.
CREATE TABLE tombstones (
  id text COLLATE "C" PRIMARY KEY,
  collection text NOT NULL,
  seq bigint NOT NULL,
  lists jsonb NOT NULL,
  record_seq bigint,
  deleted_at timestamptz NOT NULL DEFAULT now()
);

-- Rate-limit token buckets shared by every process; times are the database's clock.
CREATE TABLE rate_buckets (
  key text PRIMARY KEY,
  tokens double precision NOT NULL,
  at double precision NOT NULL
);

-- Facts about the database itself (when it was seeded).
CREATE TABLE cpe_meta (
  id text PRIMARY KEY,
  value jsonb NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('cpe_seq')
);
`,
  },
  {
    version: 2,
    name: 'events',
    sql: `
-- Every change the API makes, written in the change's transaction (server/events/). owner is
-- 'merchant:<id>' or 'user:<id>'; its lists are by owner, by owner and type, by owner and prefix.
CREATE TABLE events (
  id text COLLATE "C" PRIMARY KEY,
  object text NOT NULL DEFAULT 'event',
  owner text NOT NULL,
  type text NOT NULL,
  created bigint NOT NULL,
  data json NOT NULL,
  request jsonb,
  seq bigint NOT NULL DEFAULT nextval('cpe_seq'),
  ix_type text GENERATED ALWAYS AS (owner || ':' || type) STORED,
  ix_group text GENERATED ALWAYS AS (owner || ':' || split_part(type, '.', 1)) STORED,
  ix_expiry bigint
);
CREATE INDEX events_owner ON events (owner, seq, id);
CREATE INDEX events_type ON events (ix_type, seq, id);
CREATE INDEX events_group ON events (ix_group, seq, id);
CREATE INDEX events_expiry ON events (ix_expiry, seq);
`,
  },
  {
    version: 3,
    name: 'refunds, intent metadata and description, intent list indexes',
    sql: `
-- Refunds (succeeded and pending) never add up to more than was captured, whatever a process does.
ALTER TABLE payment_intents
  ADD COLUMN amount_refunded bigint NOT NULL DEFAULT 0,
  ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN description text,
  ADD COLUMN ix_status text GENERATED ALWAYS AS (merchant_id::text || ':' || status) STORED,
  ADD CONSTRAINT payment_intents_refunded_within_captured CHECK (amount_refunded BETWEEN 0 AND amount_captured);

-- GET /v1/payment_intents: newest first per merchant; by one status; by created; by metadata pairs.
DROP INDEX payment_intents_merchant;
CREATE INDEX payment_intents_merchant ON payment_intents (merchant_id, seq, id);
CREATE INDEX payment_intents_status ON payment_intents (ix_status, seq, id);
-- A created range becomes a range of seq (see TableDef.grows), found on this index.
CREATE INDEX payment_intents_created ON payment_intents (created_at, seq);
CREATE INDEX payment_intents_metadata ON payment_intents USING gin (metadata jsonb_path_ops);

-- settles_at: when a pending refund's outcome is due (the refund settlement job reads ix_due).
CREATE TABLE refunds (
  id text COLLATE "C" PRIMARY KEY,
  object text NOT NULL DEFAULT 'refund',
  merchant_id integer NOT NULL REFERENCES merchants (merchant_id),
  payment_intent text NOT NULL REFERENCES payment_intents (id),
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  reason text,
  failure_reason text,
  metadata jsonb NOT NULL DEFAULT '{}',
  settles_at bigint,
  created bigint NOT NULL,
  updated_at bigint NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('cpe_seq'),
  ix_due text GENERATED ALWAYS AS (CASE WHEN status = 'pending' THEN 'pending' END) STORED
);
CREATE INDEX refunds_merchant ON refunds (merchant_id, seq, id);
CREATE INDEX refunds_intent ON refunds (payment_intent, seq, id);
CREATE INDEX refunds_created ON refunds (created, seq);
CREATE INDEX refunds_due ON refunds (ix_due, seq) WHERE ix_due IS NOT NULL;
`,
  },
  {
    version: 4,
    name: 'the dashboard: sessions, sign-in links, the request log; keys that show their last four and expire when rolled; events by Payment Intent',
    sql: `
ALTER TABLE merchant_keys ADD COLUMN shown text, ADD COLUMN created_at bigint, ADD COLUMN expires_at bigint;
CREATE INDEX merchant_keys_merchant ON merchant_keys (merchant_id, seq);

-- The Payment Intent an event is about (its own events and its refunds'): a payment's timeline.
ALTER TABLE events ADD COLUMN ix_intent text GENERATED ALWAYS AS (
  CASE WHEN type LIKE 'payment_intent.%' THEN data -> 'object' ->> 'id' WHEN type LIKE 'refund.%' THEN data -> 'object' ->> 'payment_intent' END
) STORED;
CREATE INDEX events_intent ON events (ix_intent, seq, id);

-- Only the hash of a session's cookie and of a link's token is kept (the id).
CREATE TABLE dashboard_sessions (
  id text PRIMARY KEY,
  merchant_id integer NOT NULL REFERENCES merchants (merchant_id),
  via text NOT NULL CHECK (via IN ('licence_key', 'link')),
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('cpe_seq'),
  ix_expiry bigint ${dropHour}
);
CREATE INDEX dashboard_sessions_merchant ON dashboard_sessions (merchant_id, seq);
CREATE INDEX dashboard_sessions_expiry ON dashboard_sessions (ix_expiry, seq);

CREATE TABLE dashboard_links (
  id text PRIMARY KEY,
  merchant_id integer NOT NULL REFERENCES merchants (merchant_id),
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('cpe_seq'),
  ix_expiry bigint ${dropHour}
);
CREATE INDEX dashboard_links_expiry ON dashboard_links (ix_expiry, seq);

-- The last requests of each merchant, bodies redacted (server/dashboard/request-records.ts keeps 1,000).
CREATE TABLE request_records (
  id text COLLATE "C" PRIMARY KEY,
  merchant_id integer NOT NULL REFERENCES merchants (merchant_id),
  request_id text NOT NULL,
  source text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  query text,
  status integer NOT NULL,
  idempotency_key text,
  request_body jsonb,
  response_body jsonb,
  ms integer NOT NULL,
  created_at bigint NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('cpe_seq'),
  ix_merchant text GENERATED ALWAYS AS (merchant_id::text) STORED,
  ix_status text GENERATED ALWAYS AS (merchant_id::text || ':' || (status / 100)::text || 'xx') STORED
);
CREATE INDEX request_records_merchant ON request_records (ix_merchant, seq, id);
CREATE INDEX request_records_status ON request_records (ix_status, seq, id);
`,
  },
  {
    version: 12,
    name: 'webhook endpoints, deliveries and attempts',
    sql: `
-- owner as in events. secrets: [{key, expires_at}], the current one first.
CREATE TABLE webhook_endpoints (
  id text COLLATE "C" PRIMARY KEY,
  owner text NOT NULL,
  url text NOT NULL,
  enabled_events text[] NOT NULL,
  description text,
  status text NOT NULL CHECK (status IN ('enabled', 'disabled')),
  disabled_reason text,
  secrets jsonb NOT NULL,
  created bigint NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('cpe_seq')
);
CREATE INDEX webhook_endpoints_owner ON webhook_endpoints (owner, seq, id);

-- The outbox: one row per event and endpoint, written in the event's transaction, deleted once
-- finished (the attempts stay). Times in ms. A claim (lease_owner: the claiming process's advisory
-- lock; lease_until: when it goes stale; lease_token) is taken with FOR UPDATE SKIP LOCKED (pg-claims.ts).
CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  owner text NOT NULL,
  event_id text NOT NULL REFERENCES events (id) ON DELETE CASCADE,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  attempts integer NOT NULL,
  scheduled integer NOT NULL,
  next_at bigint NOT NULL,
  resume_at bigint,
  manual boolean NOT NULL,
  lease_owner bigint,
  lease_until bigint,
  lease_token text,
  created bigint NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('cpe_seq'),
  ix_expiry bigint
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (endpoint_id, next_at);
CREATE INDEX webhook_deliveries_expiry ON webhook_deliveries (ix_expiry, seq);

CREATE TABLE webhook_attempts (
  id text COLLATE "C" PRIMARY KEY,
  owner text NOT NULL,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id text NOT NULL,
  event_type text NOT NULL,
  attempt_number integer NOT NULL,
  manual boolean NOT NULL,
  created bigint NOT NULL,
  url text NOT NULL,
  status_code integer,
  duration_ms integer NOT NULL,
  response_body text,
  error text,
  result text NOT NULL CHECK (result IN ('succeeded', 'failed')),
  next_retry_at bigint,
  seq bigint NOT NULL DEFAULT nextval('cpe_seq'),
  ix_endpoint_event text GENERATED ALWAYS AS (endpoint_id || ':' || event_id) STORED,
  ix_expiry bigint
);
CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint_id, seq, id);
CREATE INDEX webhook_attempts_event ON webhook_attempts (ix_endpoint_event, seq, id);
CREATE INDEX webhook_attempts_expiry ON webhook_attempts (ix_expiry, seq);
`,
  },
];
