import type { Knex } from 'knex';
import type { MigrationParams, MigrationStep } from '../migration-plan';

/**
 * Issue 30: raw events in one partition per UTC day (`received_on`), so that retention drops a whole day instead of
 * deleting it row by row. A unique index of a partitioned table must hold its partition key, so `messageId` is unique
 * per workspace and day; ingest also looks into the day before (ingest-writes.ts). Conversions stop referencing
 * events by foreign key (it could not point into a partitioned table by `id` alone) and carry what they need once
 * their event is gone: the day of their event, to find it in one partition, and its user and anonymous IDs, for
 * erasure and the person's page.
 *
 * The events stored before stay where they are, attached as the partition of the days before 1970 (their `received_on`
 * is '-infinity', a constant: no table rewrite), and leave through row-by-row retention as before. Its two indexes that
 * take the partition key are built CONCURRENTLY and its CHECK of the day validated first, so ingest keeps writing
 * while a large table is read; the attach itself is a catalog change. On a new database that table is empty and dropped.
 *
 * Issue 48: expand, back-fill, then the attach. Until then this migration filled every conversion in the transaction
 * that added its columns, holding `conversions` throughout (17.8 s on 60,000 conversions; purchases refused). Now each
 * step that makes ingest wait is a catalog change whose lock is asked for 2 s at most, then again; the conversions'
 * IDs are filled in short batches that carry on where a stopped `migrate` left them; the whole migration runs again
 * safely until knex records it. A store that ran it before issue 48 has the same schema and values.
 * Frozen: imports no application code (the plan's types only).
 */
export const config = { transaction: false };

/** Builds without it cannot serve ingest: their inserts name a conflict target the partitioned table has no index for (42P10). */
export const breaksOlderBuilds = true;

const SHORT_WAIT = 'ingest and the pipeline wait while it waits for running transactions: 2 s at most, then it tries again (up to 15 times)';

export const steps: MigrationStep[] = [
  {
    does: "conversions: drop the foreign key to events; add the columns of their event's day ('-infinity' for those stored so far, no rewrite) and IDs",
    locks: 'ACCESS EXCLUSIVE on conversions and events, a catalog change',
    waits: SHORT_WAIT,
  },
  {
    does: "conversions take their event's user and anonymous IDs, in batches of 5,000 by id, each its own transaction (resumable)",
    locks: 'ROW EXCLUSIVE on conversions, ACCESS SHARE on events, and the row locks of one batch',
    waits: 'ingest never waits; the pipeline waits only to change a conversion of the batch being written, for one batch at most',
    secondsPerMillion: { conversions: 240 },
  },
  {
    does: 'conversions: three indexes built CONCURRENTLY (user, anonymous ID, pending by day), then ANALYZE',
    locks: 'SHARE UPDATE EXCLUSIVE on conversions',
    waits: 'ingest and the pipeline never wait',
    secondsPerMillion: { conversions: 51 },
  },
  {
    does: "events: add the day column ('-infinity' for every stored event, no rewrite) and its CHECK, not yet validated",
    locks: 'ACCESS EXCLUSIVE on events, a catalog change',
    waits: SHORT_WAIT,
  },
  {
    does: "events: validate the day's CHECK; build two unique indexes CONCURRENTLY",
    locks: 'SHARE UPDATE EXCLUSIVE on events',
    waits: 'ingest and the pipeline never wait',
    secondsPerMillion: { events: 36 },
  },
  {
    does: "events: rename to events_before_days, create the partitioned events, attach the old table as its days before 1970; new conversions' event day defaults to today",
    locks: "ACCESS EXCLUSIVE on events and conversions, a catalog change",
    waits: SHORT_WAIT,
  },
];

const COLUMNS = `
  id bigint NOT NULL DEFAULT nextval('events_id_seq'),
  workspace_id text NOT NULL,
  message_id text NOT NULL,
  type text NOT NULL,
  event_name text,
  user_id text,
  anonymous_id text,
  occurred_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  received_on date NOT NULL DEFAULT (now() AT TIME ZONE 'UTC')::date,
  message jsonb NOT NULL,
  duplicate_of_conversion_id uuid REFERENCES conversions (id) ON DELETE SET NULL,
  stripped_at timestamptz`;

/** The partitions of today and the next days: later ones come from the retention schedule and the API's start. */
const FIRST_DAYS = `
  DO $$
  DECLARE day date;
  BEGIN
    FOR day IN SELECT generate_series((now() AT TIME ZONE 'UTC')::date - 1, (now() AT TIME ZONE 'UTC')::date + 7, interval '1 day')::date LOOP
      EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF events FOR VALUES FROM (%L) TO (%L)', 'events_' || to_char(day, 'YYYYMMDD'), day, day + 1);
    END LOOP;
  END $$`;

/** A lock that queues every writer behind it is asked for this long at most, then again after a pause. */
const LOCK_WAIT = "SET LOCAL lock_timeout = '2s'";
const LOCK_ATTEMPTS = 15;

/** `work` again after a pause when it gave up waiting for a lock (55P03) or ended a deadlock (40P01), `attempts` in all. */
async function retriedOnLocks<T>(work: () => Promise<T>, attempts: number, pauseMs: number): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!['55P03', '40P01'].includes((error as { code?: string }).code ?? '') || attempt === attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}

/**
 * `work` in one transaction that first locks `tables` in the order given (the previous build's purchases write events,
 * then conversions: taken the other way round, the two deadlocked), asking LOCK_WAIT at most each time.
 */
async function withShortLockWait(knex: Knex, tables: string, work: (trx: Knex.Transaction) => Promise<void>): Promise<void> {
  const locked = () =>
    knex.transaction(async (trx) => {
      await trx.raw(LOCK_WAIT);
      await trx.raw(`LOCK TABLE ${tables} IN ACCESS EXCLUSIVE MODE`);
      await work(trx);
    });
  await retriedOnLocks(locked, LOCK_ATTEMPTS, 1_000);
}

/**
 * The expand step: a catalog change, no row is written. The event day of every conversion stored so far, and of those
 * the previous build stores until the attach below, is '-infinity' (its event is in what becomes events_before_days):
 * the column's default until the attach, and the value of the rows already there, without a rewrite.
 */
async function conversionsWithoutEventKey(knex: Knex): Promise<void> {
  await withShortLockWait(knex, 'events, conversions', async (trx) => {
    await trx.raw('ALTER TABLE conversions DROP CONSTRAINT IF EXISTS conversions_event_row_id_foreign');
    await trx.raw(`ALTER TABLE conversions ADD COLUMN IF NOT EXISTS event_received_on date NOT NULL DEFAULT '-infinity',
                   ADD COLUMN IF NOT EXISTS user_id text, ADD COLUMN IF NOT EXISTS anonymous_id text`);
  });
}

const BATCH = 5_000;
/** Below every `gen_random_uuid()`: where the first batch starts. */
const FIRST_KEY = '00000000-0000-0000-0000-000000000000';
/** Seen in pg_stat_activity while a batch runs (and by the test that watches what it holds). */
export const BACKFILL_APPLICATION_NAME = 'signalbox migrate: back-fill';
/** A batch that meets a row the pipeline holds waits this long at most, then runs again: nobody queues behind it long. */
const BATCH_LOCK_WAIT = "SET LOCAL lock_timeout = '1s'";
const BATCH_ATTEMPTS = 20;

interface Progress {
  lastKey: string;
  seen: number;
  changed: number;
}

/** One batch of conversions after `from` takes its events' user and anonymous IDs; null when none is left. */
async function fillBatch(knex: Knex, from: Progress): Promise<Progress | null> {
  return knex.transaction(async (trx) => {
    await trx.raw(`SET LOCAL application_name = '${BACKFILL_APPLICATION_NAME}'`);
    await trx.raw(BATCH_LOCK_WAIT);
    const { rows } = await trx.raw<{ rows: { upto: string | null; seen: string }[] }>(
      'SELECT (array_agg(id ORDER BY id DESC))[1] AS upto, count(*) AS seen FROM (SELECT id FROM conversions WHERE id > ? ORDER BY id LIMIT ?) batch',
      [from.lastKey, BATCH],
    );
    const upto = rows[0]?.upto ?? null;
    if (upto === null) return null;
    // Rows locked in key order, as every batch does; only those whose values differ are written.
    const { rowCount } = await trx.raw<{ rowCount: number }>(
      `WITH stale AS (
         SELECT c.id, e.user_id, e.anonymous_id FROM conversions c JOIN events e ON e.id = c.event_row_id
         WHERE c.id > ? AND c.id <= ? AND (c.user_id, c.anonymous_id) IS DISTINCT FROM (e.user_id, e.anonymous_id)
         ORDER BY c.id FOR NO KEY UPDATE OF c)
       UPDATE conversions c SET user_id = stale.user_id, anonymous_id = stale.anonymous_id FROM stale WHERE c.id = stale.id`,
      [from.lastKey, upto],
    );
    const next = { lastKey: upto, seen: from.seen + Number(rows[0]?.seen), changed: from.changed + rowCount };
    await trx('backfill_progress').where({ name: 'conversions_event_ids' }).update({ last_key: next.lastKey, seen: next.seen, changed: next.changed });
    return next;
  });
}

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * The back-fill step: each stored conversion takes its event's user and anonymous IDs, BATCH by primary key, each
 * batch its own transaction holding only row locks. Where it got to is kept in `backfill_progress`, so that a
 * `migrate` stopped midway carries on from there; the table goes when the back-fill is done.
 */
async function fillConversionsFromEvents(knex: Knex): Promise<void> {
  const { rows } = await knex.raw<{ rows: { total: string }[] }>('SELECT count(*) AS total FROM conversions');
  if (Number(rows[0]?.total) === 0) return;
  const total = fmt(Number(rows[0]?.total));
  const report = (knex.userParams as MigrationParams).progress ?? (() => undefined);
  await knex.raw('CREATE TABLE IF NOT EXISTS backfill_progress (name text PRIMARY KEY, last_key text NOT NULL, seen bigint NOT NULL, changed bigint NOT NULL)');
  await knex.raw("INSERT INTO backfill_progress (name, last_key, seen, changed) VALUES ('conversions_event_ids', ?, 0, 0) ON CONFLICT (name) DO NOTHING", [FIRST_KEY]);
  const kept = await knex('backfill_progress').where({ name: 'conversions_event_ids' }).first<{ last_key: string; seen: string; changed: string }>();
  let progress: Progress | null = { lastKey: kept?.last_key ?? FIRST_KEY, seen: Number(kept?.seen ?? 0), changed: Number(kept?.changed ?? 0) };
  report(`  back-fill of conversions' user and anonymous IDs: ${progress.seen === 0 ? 'starting' : 'carrying on'} at ${fmt(progress.seen)} of ${total}`);
  for (;;) {
    const from: Progress = progress;
    progress = await retriedOnLocks(() => fillBatch(knex, from), BATCH_ATTEMPTS, 200);
    if (progress === null) break;
    report(`  back-fill of conversions' user and anonymous IDs: ${fmt(progress.seen)} of ${total} (${fmt(progress.changed)} changed)`);
  }
  await knex.raw('DROP TABLE backfill_progress');
}

/** Built over the final values, while ingest and the pipeline write; then fresh statistics for the planner. */
async function conversionIndexes(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX CONCURRENTLY IF NOT EXISTS conversions_user ON conversions (workspace_id, user_id) WHERE user_id IS NOT NULL');
  await knex.raw('CREATE INDEX CONCURRENTLY IF NOT EXISTS conversions_anonymous ON conversions (workspace_id, anonymous_id) WHERE anonymous_id IS NOT NULL');
  await knex.raw("CREATE INDEX CONCURRENTLY IF NOT EXISTS conversions_pending_day ON conversions (event_received_on) WHERE status = 'pending'");
  await knex.raw('ANALYZE conversions');
}

/** A `migrate` stopped after the attach committed, before knex recorded the migration: nothing is left to do. */
async function eventsAreByDay(knex: Knex): Promise<boolean> {
  const { rows } = await knex.raw<{ rows: { kind: string | null }[] }>("SELECT relkind AS kind FROM pg_class WHERE oid = to_regclass('events')");
  return rows[0]?.kind === 'p';
}

export async function up(knex: Knex): Promise<void> {
  if (await eventsAreByDay(knex)) return;
  await conversionsWithoutEventKey(knex);
  await fillConversionsFromEvents(knex);
  await conversionIndexes(knex);

  await withShortLockWait(knex, 'events', async (trx) => {
    await trx.raw("ALTER TABLE events ADD COLUMN IF NOT EXISTS received_on date NOT NULL DEFAULT '-infinity'");
    await trx.raw("ALTER TABLE events DROP CONSTRAINT IF EXISTS events_before_days_day, ADD CONSTRAINT events_before_days_day CHECK (received_on = '-infinity') NOT VALID");
  });
  // Checked while ingest writes (SHARE UPDATE EXCLUSIVE): the attach below then needs no scan under its lock.
  await knex.raw('ALTER TABLE events VALIDATE CONSTRAINT events_before_days_day');
  await knex.raw('CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS events_before_days_id ON events (id, received_on)');
  await knex.raw('CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS events_before_days_message ON events (workspace_id, message_id, received_on)');
  const { rows } = await knex.raw<{ rows: { stored: boolean }[] }>('SELECT EXISTS (SELECT FROM events) AS stored');
  const keepStored = rows[0]?.stored === true;

  await withShortLockWait(knex, 'events, conversions', async (trx) => {
    await trx.raw('ALTER TABLE events RENAME TO events_before_days');
    // From now on the previous build stores its events, and so its conversions' events, in today's partition.
    await trx.raw("ALTER TABLE conversions ALTER COLUMN event_received_on SET DEFAULT (now() AT TIME ZONE 'UTC')::date");
    for (const index of ['events_pkey', 'events_received', 'events_duplicate_of', 'events_received_at_brin']) {
      await trx.raw(`ALTER INDEX ${index} RENAME TO ${index.replace('events', 'events_before_days')}`);
    }
    await trx.raw('ALTER SEQUENCE events_id_seq OWNED BY NONE');
    await trx.raw(`CREATE TABLE events (${COLUMNS}, PRIMARY KEY (id, received_on)) PARTITION BY RANGE (received_on)`);
    await trx.raw('ALTER SEQUENCE events_id_seq OWNED BY events.id');
    await trx.raw('CREATE UNIQUE INDEX events_message ON events (workspace_id, message_id, received_on)');
    await trx.raw('CREATE INDEX events_user ON events (workspace_id, user_id)');
    await trx.raw('CREATE INDEX events_anonymous ON events (workspace_id, anonymous_id)');
    await trx.raw('CREATE INDEX events_received ON events (workspace_id, received_at, id) INCLUDE (type, event_name)');
    await trx.raw('CREATE INDEX events_duplicate_of ON events (duplicate_of_conversion_id) WHERE duplicate_of_conversion_id IS NOT NULL');
    await trx.raw('CREATE INDEX events_received_at_brin ON events USING brin (received_at)');
    if (keepStored) {
      await trx.raw(`ALTER TABLE events_before_days ALTER COLUMN received_on DROP DEFAULT,
                     DROP CONSTRAINT events_before_days_pkey, ADD CONSTRAINT events_before_days_id PRIMARY KEY USING INDEX events_before_days_id`);
      await trx.raw("ALTER TABLE events ATTACH PARTITION events_before_days FOR VALUES FROM (MINVALUE) TO ('1970-01-01')");
    } else {
      await trx.raw('DROP TABLE events_before_days');
    }
    await trx.raw(FIRST_DAYS);
  });
}

/** Back to one table: every event copied (the first of a `messageId` stored on several days): slow on a large store. */
export async function down(knex: Knex): Promise<void> {
  await knex.transaction(async (trx) => {
    await trx.raw('ALTER SEQUENCE events_id_seq OWNED BY NONE');
    await trx.raw('ALTER TABLE events RENAME TO events_by_day');
    await trx.raw(`CREATE TABLE events (${COLUMNS.replace(/\n\s*received_on[^\n]*/, '')}, CONSTRAINT events_pkey_flat PRIMARY KEY (id))`);
    await trx.raw(`INSERT INTO events SELECT DISTINCT ON (workspace_id, message_id) id, workspace_id, message_id, type, event_name, user_id, anonymous_id,
                   occurred_at, received_at, message, duplicate_of_conversion_id, stripped_at FROM events_by_day ORDER BY workspace_id, message_id, id`);
    await trx.raw('DROP TABLE events_by_day');
    await trx.raw('ALTER SEQUENCE events_id_seq OWNED BY events.id');
    await trx.raw('ALTER INDEX events_pkey_flat RENAME TO events_pkey');
    await trx.raw('ALTER TABLE events ADD CONSTRAINT events_workspace_id_message_id_unique UNIQUE (workspace_id, message_id)');
    await trx.raw('CREATE INDEX events_workspace_id_user_id_index ON events (workspace_id, user_id)');
    await trx.raw('CREATE INDEX events_workspace_id_anonymous_id_index ON events (workspace_id, anonymous_id)');
    await trx.raw('CREATE INDEX events_received ON events (workspace_id, received_at, id) INCLUDE (type, event_name)');
    await trx.raw('CREATE INDEX events_duplicate_of ON events (duplicate_of_conversion_id) WHERE duplicate_of_conversion_id IS NOT NULL');
    await trx.raw('CREATE INDEX events_received_at_brin ON events USING brin (received_at)');
    // NOT VALID: a conversion whose day was dropped keeps no event to point at.
    await trx.raw('ALTER TABLE conversions ADD CONSTRAINT conversions_event_row_id_foreign FOREIGN KEY (event_row_id) REFERENCES events (id) ON DELETE CASCADE NOT VALID');
    await trx.raw('ALTER TABLE conversions DROP COLUMN event_received_on, DROP COLUMN user_id, DROP COLUMN anonymous_id');
  });
}
