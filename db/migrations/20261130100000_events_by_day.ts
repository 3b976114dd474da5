import type { Knex } from 'knex';

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
 * take the partition key are built CONCURRENTLY first, so ingest keeps writing while a large table is indexed; the
 * attach itself is quick. On a new database that table is empty and dropped.
 * Frozen: imports no application code.
 */
export const config = { transaction: false };

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

async function conversionsWithoutEventKey(knex: Knex): Promise<void> {
  await knex.transaction(async (trx) => {
    await trx.raw('ALTER TABLE conversions DROP CONSTRAINT IF EXISTS conversions_event_row_id_foreign');
    await trx.raw(`ALTER TABLE conversions ADD COLUMN event_received_on date NOT NULL DEFAULT (now() AT TIME ZONE 'UTC')::date,
                   ADD COLUMN user_id text, ADD COLUMN anonymous_id text`);
    await trx.raw(`UPDATE conversions c SET event_received_on = '-infinity', user_id = e.user_id, anonymous_id = e.anonymous_id
                   FROM events e WHERE e.id = c.event_row_id`);
  });
  await knex.raw('CREATE INDEX CONCURRENTLY IF NOT EXISTS conversions_user ON conversions (workspace_id, user_id) WHERE user_id IS NOT NULL');
  await knex.raw('CREATE INDEX CONCURRENTLY IF NOT EXISTS conversions_anonymous ON conversions (workspace_id, anonymous_id) WHERE anonymous_id IS NOT NULL');
  await knex.raw("CREATE INDEX CONCURRENTLY IF NOT EXISTS conversions_pending_day ON conversions (event_received_on) WHERE status = 'pending'");
}

export async function up(knex: Knex): Promise<void> {
  await conversionsWithoutEventKey(knex);

  await knex.raw("ALTER TABLE events ADD COLUMN IF NOT EXISTS received_on date NOT NULL DEFAULT '-infinity'");
  await knex.raw('CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS events_before_days_id ON events (id, received_on)');
  await knex.raw('CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS events_before_days_message ON events (workspace_id, message_id, received_on)');
  const { rows } = await knex.raw<{ rows: { stored: boolean }[] }>('SELECT EXISTS (SELECT FROM events) AS stored');
  const keepStored = rows[0]?.stored === true;

  await knex.transaction(async (trx) => {
    await trx.raw("SET LOCAL lock_timeout = '30s'");
    await trx.raw('ALTER TABLE events RENAME TO events_before_days');
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
      await trx.raw(`ALTER TABLE events_before_days ALTER COLUMN received_on DROP DEFAULT, ADD CONSTRAINT events_before_days_day CHECK (received_on = '-infinity'),
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
