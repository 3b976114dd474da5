import type { Knex } from 'knex';
import type { Client, QueryConfig } from 'pg';
import type { IdentityLink, VisitorSighting } from '../../domain/observation';
import { conversionKey, type RepeatedConversion, type RuleConversions } from '../../domain/rule-conversions';
import type { ConversionRuleRow, EventFields } from '../types';
import { toRule, type ConversionRule } from './conversion-rules';
import type { CreatedConversion, NewConversion } from './conversions';
import { addDays, dayLiteral, dayOf, type Day } from './event-days';
import { mergeClicks, mergeSightings } from './profile-merge';

export interface NewEvent extends EventFields {
  /** The message as stored, in JSON: without the fields the columns hold (`messageBody`). */
  messageJson: string;
}

/** What a group's messages tell about visitors and identities (`observe`), recorded with its events. */
export interface Profiles {
  sightings: readonly VisitorSighting[];
  links: readonly IdentityLink[];
}

export interface StoredGroup {
  /** The new events' row IDs by `messageId`; a `messageId` stored before is not there. */
  rowIds: Map<string, string>;
  /** The UTC day they were stored on (YYYY-MM-DD), the partition of `events` that holds them. */
  receivedOn: string;
  /** The conversion rules of the event names asked for. */
  rules: Map<string, ConversionRule>;
}

/** jsonb_to_recordset's input: one JSON array of rows. */
const asRows = (rows: readonly object[]) => JSON.stringify(rows);

/**
 * `,"name":value` for a document written by hand: text quoted and escaped, a time as its ISO string; nothing for no
 * value (jsonb_to_recordset and `->>` read an absent field as null). JSON.stringify of row objects takes twice as long: it
 * calls each Date's toJSON and walks the absent fields.
 */
function member(name: string, value: string | Date | null | undefined): string {
  if (value === null || value === undefined) return '';
  return `,"${name}":${typeof value === 'string' ? JSON.stringify(value) : `"${value.toISOString()}"`}`;
}

/** Rows written by `row`, as one JSON array; not sliced or joined, so the string is copied once, when it is sent. */
function jsonArray<T>(items: readonly T[], row: (item: T) => string): string {
  let document = '[';
  items.forEach((item, index) => {
    document += index === 0 ? row(item) : `,${row(item)}`;
  });
  return `${document}]`;
}

/**
 * The events as one JSON document; each message goes in as the JSON it already is, not serialized again. PostgreSQL
 * parses the document once, and no message goes through text-array quoting.
 */
const eventsDocument = (events: readonly NewEvent[]) =>
  jsonArray(
    events,
    (e) =>
      `{"message":${e.messageJson}${member('id', e.messageId)}${member('type', e.type)}${member('name', e.eventName)}${member('user', e.userId)}` +
      `${member('anon', e.anonymousId)}${member('at', e.occurredAt)}}`,
  );

const visitorsDocument = (sightings: readonly VisitorSighting[]) =>
  jsonArray(
    mergeSightings(sightings),
    (v) =>
      `{"first_seen_at":"${v.firstSeenAt.toISOString()}"${member('anonymous_id', v.anonymousId)}${member('last_seen_at', v.lastSeenAt)}` +
      `${member('ttclid', v.ttclid)}${member('ttclid_captured_at', v.ttclidCapturedAt)}${member('ttp', v.ttp)}${member('ttp_seen_at', v.ttpSeenAt)}` +
      `${member('device_ip', v.device?.ip)}${member('device_user_agent', v.device?.userAgent)}${member('device_page_url', v.device?.pageUrl)}` +
      `${member('device_seen_at', v.deviceSeenAt)}}`,
  );

const clicksDocument = (sightings: readonly VisitorSighting[]) =>
  jsonArray(
    mergeClicks(sightings),
    (c) =>
      `{"captured_at":"${c.capturedAt.toISOString()}"${member('anonymous_id', c.anonymousId)}${member('ttclid', c.ttclid)}${member('page_url', c.pageUrl)}` +
      `${member('campaign_id', c.ad?.campaignId)}${member('adgroup_id', c.ad?.adgroupId)}${member('ad_id', c.ad?.adId)}}`,
  );

/** Each link as both directed edges, once, sorted so that concurrent transactions take their locks in one order. */
function linksDocument(links: readonly IdentityLink[]): string {
  const unique = new Map<string, object>();
  for (const { from, to } of links) {
    for (const [a, b] of [[from, to], [to, from]]) {
      unique.set(`${a.kind}\0${a.value}\0${b.kind}\0${b.value}`, { from_kind: a.kind, from_value: a.value, to_kind: b.kind, to_value: b.value });
    }
  }
  return asRows([...unique.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, edge]) => edge));
}

// The statements, with `$1` the workspace; `onlyIf` is the guard of storeUnmapped's statement.

/**
 * The group's events, one row each; `$1` is the workspace. Each field is taken out of the parsed document by its key,
 * which costs PostgreSQL less than jsonb_to_recordset's building every row as a record first (per event 1.5 µs less
 * of ~10 on PostgreSQL 18, 0.7 of ~5.5 on 15; BENCHMARKS.md).
 */
const incomingEvents = (events: string) => `
  SELECT e->>'id' AS id, e->>'type' AS type, e->>'name' AS name, e->>'user' AS "user", e->>'anon' AS anon, (e->>'at')::timestamptz AS at, e->'message' AS message
  FROM jsonb_array_elements(${events}::jsonb) AS e`;

/** Midnight UTC at the start of `day`: a constant, folded when the statement is planned. */
const midnightOf = (day: Day) => `(${dayLiteral(day)}::timestamp AT TIME ZONE 'UTC')`;

/** The workspace's events stored before the upgrade to days (migration events_by_day), in `events_before_days` if it is there. */
const BEFORE_DAYS = "o.received_on = '-infinity' AND o.workspace_id = $1";

/**
 * The `messageId`s of `incoming` stored the UTC day before `today`. Today's partition refuses a repeat within its day
 * itself (its exclusion constraint on the array of workspace and `messageId`); this look makes the window of
 * deduplication at least 24 hours (docs/configuration.md), in both layouts:
 * - the day before's partition, by its `messageId` hash index;
 * - `events_before_days`, every event stored before the upgrade (issue 48): those received since the day before began,
 *   by the old table's unique B-tree on (workspace_id, message_id). Its newest event of the workspace (one step down its
 *   index on received_at) gates the look, so that once the upgrade is older than the window no message is probed in
 *   that large, cold index; a store without that partition prunes the look away.
 *
 * The days are written into the statement, not computed by it (now()) nor passed as parameters: PostgreSQL then prunes
 * the partitions when it plans the statement, generic plan included, and chooses the plan by these partitions' own
 * indexes. Pruned only when the statement runs, the plan was chosen over every partition: one populated partition
 * without the hash index (events_before_days is one) turned it into a hash join over a full scan of the day before.
 */
const storedBefore = (today: Day) => {
  const yesterday = addDays(today, -1);
  return `
  SELECT i.id FROM incoming i
  WHERE EXISTS (SELECT FROM events p WHERE ARRAY[p.workspace_id, p.message_id] = ARRAY[$1::text, i.id] AND p.received_on = ${dayLiteral(yesterday)}::date)
  UNION
  SELECT i.id FROM incoming i
  WHERE (SELECT max(o.received_at) FROM events o WHERE ${BEFORE_DAYS}) >= ${midnightOf(yesterday)}
    AND (SELECT o.received_at FROM events o WHERE ${BEFORE_DAYS} AND o.message_id = i.id) >= ${midnightOf(yesterday)}`;
};

/** Into today's partition: `received_on` is the day the look into the day before was counted from, not the column's default. */
const insertEvents = (today: Day, { onlyIf = 'true', onConflict = '' } = {}) => `
  INSERT INTO events (workspace_id, message_id, type, event_name, user_id, anonymous_id, occurred_at, message, received_on)
  SELECT $1, m.id, m.type, m.name, m.user, m.anon, m.at, m.message, ${dayLiteral(today)}::date
  FROM incoming m
  WHERE ${onlyIf} AND m.id NOT IN (SELECT id FROM stored_before)
  ${onConflict}`;

/** The conversion rules of the event names in `$2`, as a JSON array of rows. */
const RULES = `SELECT * FROM conversion_rules WHERE workspace_id = $1 AND source_event = ANY($2::text[])`;

const latestDevice = (column: string) => `CASE WHEN excluded.device_seen_at >= coalesce(v.device_seen_at, '-infinity') THEN excluded.${column} ELSE v.${column} END`;

/** Visitor profiles: the latest `ttclid`, `_ttp` and page-view device details win, whatever the arrival order. */
const upsertVisitors = (visitors: string, onlyIf = 'true') => `
  INSERT INTO visitors AS v (workspace_id, anonymous_id, ttclid, ttclid_captured_at, ttp, ttp_seen_at, first_seen_at, last_seen_at,
                             device_ip, device_user_agent, device_page_url, device_seen_at)
  SELECT $1, s.* FROM jsonb_to_recordset(${visitors}::jsonb) AS s(anonymous_id text, ttclid text, ttclid_captured_at timestamptz, ttp text,
    ttp_seen_at timestamptz, first_seen_at timestamptz, last_seen_at timestamptz, device_ip text, device_user_agent text, device_page_url text,
    device_seen_at timestamptz)
  WHERE ${onlyIf}
  ON CONFLICT (workspace_id, anonymous_id) DO UPDATE SET
    ttclid = CASE WHEN excluded.ttclid_captured_at >= coalesce(v.ttclid_captured_at, '-infinity') THEN excluded.ttclid ELSE v.ttclid END,
    ttclid_captured_at = greatest(v.ttclid_captured_at, excluded.ttclid_captured_at),
    ttp = CASE WHEN excluded.ttp_seen_at >= coalesce(v.ttp_seen_at, '-infinity') THEN excluded.ttp ELSE v.ttp END,
    ttp_seen_at = greatest(v.ttp_seen_at, excluded.ttp_seen_at),
    first_seen_at = least(v.first_seen_at, excluded.first_seen_at),
    last_seen_at = greatest(v.last_seen_at, excluded.last_seen_at),
    device_ip = ${latestDevice('device_ip')},
    device_user_agent = ${latestDevice('device_user_agent')},
    device_page_url = ${latestDevice('device_page_url')},
    device_seen_at = greatest(v.device_seen_at, excluded.device_seen_at)`;

/** Every click seen (with its ad's IDs), keeping the first time it was seen. */
const upsertClicks = (clicks: string, onlyIf = 'true') => `
  INSERT INTO clicks AS c (workspace_id, anonymous_id, ttclid, captured_at, page_url, campaign_id, adgroup_id, ad_id)
  SELECT $1, k.* FROM jsonb_to_recordset(${clicks}::jsonb)
    AS k(anonymous_id text, ttclid text, captured_at timestamptz, page_url text, campaign_id text, adgroup_id text, ad_id text)
  WHERE ${onlyIf}
  ON CONFLICT (workspace_id, anonymous_id, ttclid) DO UPDATE SET
    captured_at = least(c.captured_at, excluded.captured_at),
    page_url = CASE WHEN excluded.captured_at < c.captured_at THEN excluded.page_url ELSE c.page_url END,
    campaign_id = coalesce(c.campaign_id, excluded.campaign_id),
    adgroup_id = coalesce(c.adgroup_id, excluded.adgroup_id),
    ad_id = coalesce(c.ad_id, excluded.ad_id)`;

const insertLinks = (links: string, onlyIf = 'true') => `
  INSERT INTO identity_links (workspace_id, from_kind, from_value, to_kind, to_value)
  SELECT $1, l.* FROM jsonb_to_recordset(${links}::jsonb) AS l(from_kind text, from_value text, to_kind text, to_value text)
  WHERE ${onlyIf}
  ON CONFLICT DO NOTHING`;

/**
 * The whole group in one statement, committed on its own (no BEGIN, no COMMIT): its events, visitor profiles, clicks
 * and identity links, unless a conversion rule maps one of its event names (`$2`); then it writes nothing and returns
 * those rules. The events are expected new: a plain insert, without ON CONFLICT's extra index probe per row, which an
 * event stored before fails (isStoredBefore). Each day has its own statement (storedBefore).
 */
const storeUnmappedOn = (today: Day) => ({
  name: `ingest-store-unmapped ${today}`,
  text: `
    WITH rules AS (${RULES}),
    unmapped AS (SELECT NOT EXISTS (SELECT FROM rules) AS yes),
    incoming AS (${incomingEvents('$6')}),
    stored_before AS (${storedBefore(today)}),
    stored AS (${insertEvents(today, { onlyIf: '(SELECT yes FROM unmapped)' })}),
    upserted_visitors AS (${upsertVisitors('$3', '(SELECT yes FROM unmapped)')}),
    upserted_clicks AS (${upsertClicks('$4', '(SELECT yes FROM unmapped)')}),
    inserted_links AS (${insertLinks('$5', '(SELECT yes FROM unmapped)')})
    SELECT coalesce(json_agg(r), '[]') AS rules, (SELECT coalesce(json_agg(id), '[]') FROM stored_before) AS stored_before FROM rules r`,
});

/** The events not stored yet, with the rules of their event names (`$2`) and every new row's ID. */
const storeEventsOn = (today: Day) => ({
  name: `ingest-store-events ${today}`,
  text: `
    WITH incoming AS (${incomingEvents('$3')}),
    stored_before AS (${storedBefore(today)}),
    stored AS (${insertEvents(today, { onConflict: 'ON CONFLICT DO NOTHING RETURNING id, message_id' })})
    SELECT (SELECT coalesce(json_agg(r), '[]') FROM (${RULES}) r) AS rules,
           (SELECT coalesce(json_agg(json_build_array(message_id, id::text)), '[]') FROM stored) AS row_ids`,
});

/** storeUnmapped's statement on `today` with the values it is sent: exported for the test that plans it. */
export function storeUnmappedQuery(workspaceId: string, events: readonly NewEvent[], { sightings, links }: Profiles, eventNames: readonly string[], today: Day): QueryConfig {
  return {
    ...storeUnmappedOn(today),
    // The events' document last: pg copies what it has written of the statement's parameters each time its buffer
    // grows, and this one is the largest.
    values: [workspaceId, eventNames, visitorsDocument(sightings), clicksDocument(sightings), linksDocument(links), eventsDocument(events)],
  };
}

/** storeEvents's statement on `today` with the values it is sent: exported for the test that plans it. */
export function storeEventsQuery(workspaceId: string, events: readonly NewEvent[], eventNames: readonly string[], today: Day): QueryConfig {
  return { ...storeEventsOn(today), values: [workspaceId, eventNames, eventsDocument(events)] };
}

/**
 * The days whose statements each connection may hold. PostgreSQL keeps a prepared statement with its plan (a few
 * hundred kB for these) until its session ends, and a busy pool's connection lives for weeks: the statements of the
 * days before yesterday are deallocated. Yesterday's stay, for a clock set back across midnight.
 */
const preparedDays = new WeakMap<Client, Set<Day>>();

async function forgetOldDays(connection: Client, today: Day): Promise<void> {
  const days = preparedDays.get(connection) ?? new Set<Day>();
  preparedDays.set(connection, days);
  if (days.has(today)) return;
  for (const day of days) {
    if (day >= addDays(today, -1)) continue;
    for (const { name } of [storeUnmappedOn(day), storeEventsOn(day)]) {
      // Not prepared on this connection (its day had only the other statement): nothing to free.
      await connection.query(`DEALLOCATE "${name}"`).catch((error: unknown) => {
        if ((error as { code?: string }).code !== '26000') throw error;
      });
    }
    days.delete(day);
  }
  days.add(today);
}

const RECORD_PROFILES = {
  name: 'ingest-record-profiles',
  text: `WITH upserted_visitors AS (${upsertVisitors('$2')}), upserted_clicks AS (${upsertClicks('$3')}) ${insertLinks('$4')}`,
};

/** Conversions not recorded yet (unique per workspace, TikTok event and event_id); returns the new ones. */
const INSERT_CONVERSIONS = {
  name: 'ingest-insert-conversions',
  text: `
    INSERT INTO conversions (workspace_id, event_row_id, event_received_on, user_id, anonymous_id, message_id, source_event, tiktok_event, event_id,
                             rule_event_index, event_time, event_source, value, currency, workflow_id, warnings, order_name)
    SELECT $1, c.* FROM jsonb_to_recordset($2::jsonb) AS c(event_row_id bigint, event_received_on date, user_id text, anonymous_id text, message_id text,
      source_event text, tiktok_event text, event_id text, rule_event_index smallint, event_time timestamptz, event_source text, value numeric,
      currency text, workflow_id text, warnings jsonb, order_name text)
    ON CONFLICT DO NOTHING
    RETURNING id, workflow_id, tiktok_event, event_id`,
};

/**
 * Points each event at the conversion it repeats; an event that is that conversion's own is left alone. An event that
 * repeats several (a rule sending it as several TikTok events) points at the first in its rule's order.
 */
const MARK_DUPLICATES = {
  name: 'ingest-mark-duplicates',
  text: `
    UPDATE events e SET duplicate_of_conversion_id = d.conversion_id
    FROM (
      SELECT DISTINCT ON (r.event_row_id) r.event_row_id, c.id AS conversion_id
      FROM jsonb_to_recordset($2::jsonb) AS r(event_row_id bigint, tiktok_event text, event_id text)
      JOIN conversions c ON c.workspace_id = $1 AND c.tiktok_event = r.tiktok_event AND c.event_id = r.event_id
      WHERE c.event_row_id <> r.event_row_id
      ORDER BY r.event_row_id, c.rule_event_index
    ) d
    WHERE e.id = d.event_row_id
    RETURNING e.id::text`,
};

const rulesByEvent = (rows: readonly ConversionRuleRow[]) => new Map(rows.map((rule) => [rule.source_event, toRule(rule)]));

/**
 * The error of storeUnmapped when one of its events was stored before that day (the exclusion constraint of each day's
 * partition), or was being stored at the same moment by another statement: two inserts of one key into an exclusion
 * constraint's index can each wait for the other, and PostgreSQL ends one as a deadlock. Its statement wrote nothing.
 */
export function isStoredBefore(error: unknown): boolean {
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return (code === '23P01' && typeof constraint === 'string' && /^events_\d{8}_message$/.test(constraint)) || code === '40P01';
}

/** What ingest writes, in one transaction on one connection, storing events on `today`. */
function ingestTransaction(connection: Client, today: Day) {
  const transaction = {
    /** Stores the events not stored yet, and reads the rules of `eventNames`. */
    async storeEvents(workspaceId: string, events: readonly NewEvent[], eventNames: readonly string[]): Promise<StoredGroup> {
      const { rows } = await connection.query<{ rules: ConversionRuleRow[]; row_ids: [string, string][] }>(storeEventsQuery(workspaceId, events, eventNames, today));
      const [row] = rows as [(typeof rows)[number]];
      return { rowIds: new Map(row.row_ids), receivedOn: today, rules: rulesByEvent(row.rules) };
    },

    async recordProfiles(workspaceId: string, { sightings, links }: Profiles): Promise<void> {
      if (sightings.length === 0 && links.length === 0) return;
      await connection.query({ ...RECORD_PROFILES, values: [workspaceId, visitorsDocument(sightings), clicksDocument(sightings), linksDocument(links)] });
    },

    async insertConversions(workspaceId: string, conversions: readonly NewConversion[]): Promise<CreatedConversion[]> {
      if (conversions.length === 0) return [];
      const document = asRows(
        conversions.map((c) => ({
          event_row_id: c.eventRowId,
          event_received_on: c.eventReceivedOn,
          user_id: c.userId,
          anonymous_id: c.anonymousId,
          message_id: c.messageId,
          source_event: c.sourceEvent,
          tiktok_event: c.tiktokEvent,
          event_id: c.eventId,
          rule_event_index: c.ruleEventIndex ?? 0,
          event_time: c.eventTime,
          event_source: c.eventSource,
          value: c.value,
          currency: c.currency,
          workflow_id: c.workflowId,
          warnings: c.warnings ?? [],
          order_name: c.orderName ?? null,
        })),
      );
      const { rows } = await connection.query<{ id: string; workflow_id: string; tiktok_event: string; event_id: string }>({ ...INSERT_CONVERSIONS, values: [workspaceId, document] });
      return rows.map((row) => ({ id: row.id, workflowId: row.workflow_id, workspaceId, tiktokEvent: row.tiktok_event, eventId: row.event_id }));
    },

    /** Marks events as repeating an existing conversion (a resent order_id or event_id); returns the IDs of those marked. */
    async markDuplicates(workspaceId: string, repeats: readonly RepeatedConversion[]): Promise<string[]> {
      if (repeats.length === 0) return [];
      const document = asRows(repeats.map((r) => ({ event_row_id: r.eventRowId, tiktok_event: r.tiktokEvent, event_id: r.eventId })));
      const { rows } = await connection.query<{ id: string }>({ ...MARK_DUPLICATES, values: [workspaceId, document] });
      return rows.map((row) => row.id);
    },

    /**
     * Records what a rule made of stored events (domain/rule-conversions.ts): the conversions not recorded yet; the
     * candidates already there (a resent order_id / event_id) and the repeats mark their events as repeating them.
     */
    async recordConversions(workspaceId: string, { candidates, repeats }: RuleConversions): Promise<{ created: CreatedConversion[]; repeated: string[] }> {
      const created = await transaction.insertConversions(workspaceId, candidates);
      const createdKeys = new Set(created.map(conversionKey));
      const alreadyThere = candidates.filter((c) => !createdKeys.has(conversionKey(c)));
      const repeated = await transaction.markDuplicates(workspaceId, [...alreadyThere, ...repeats]);
      return { created, repeated };
    },
  };
  return transaction;
}

export type IngestTransaction = ReturnType<typeof ingestTransaction>;

/**
 * Ingest's writes, off knex's query builder: named statements (parsed and planned once per connection, and day) on a
 * connection the pool lends, so they keep its deadlines. One statement, or one transaction, per group of requests
 * (group-commit.ts). The day events are stored on, and the day before looked into, come from one reading of this
 * process's clock (`now`) per statement or transaction (storedBefore).
 */
export function createIngestWriteRepository(db: Knex, { now = () => new Date() } = {}) {
  return {
    /**
     * Stores new events and their `profiles` in one statement, unless a rule maps one of `eventNames`: then nothing is
     * stored and the rules are returned (an empty map: stored), with the `messageId`s skipped as stored the day before
     * (or before the upgrade to days, within the same window). Fails with isStoredBefore when an event was stored
     * before the same day.
     */
    async storeUnmapped(
      workspaceId: string,
      events: readonly NewEvent[],
      profiles: Profiles,
      eventNames: readonly string[],
    ): Promise<{ rules: Map<string, ConversionRule>; storedBefore: Set<string> }> {
      const today = dayOf(now());
      const connection = (await db.client.acquireConnection()) as Client;
      try {
        await forgetOldDays(connection, today);
        const { rows } = await connection.query<{ rules: ConversionRuleRow[]; stored_before: string[] }>(storeUnmappedQuery(workspaceId, events, profiles, eventNames, today));
        const [row] = rows as [(typeof rows)[number]];
        return { rules: rulesByEvent(row.rules), storedBefore: new Set(row.stored_before) };
      } finally {
        await db.client.releaseConnection(connection);
      }
    },

    /** Runs `work` in one transaction on one connection; `connection` for statements of other repositories in it. */
    async transaction<T>(work: (transaction: IngestTransaction, connection: Client) => Promise<T>): Promise<T> {
      const today = dayOf(now());
      const connection = (await db.client.acquireConnection()) as Client;
      try {
        await forgetOldDays(connection, today);
        await connection.query('BEGIN');
        const result = await work(ingestTransaction(connection, today), connection);
        await connection.query('COMMIT');
        return result;
      } catch (error) {
        // A connection that broke is closed already: ROLLBACK fails, and the pool does not lend it again.
        await connection.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        await db.client.releaseConnection(connection);
      }
    },
  };
}

export type IngestWriteRepository = ReturnType<typeof createIngestWriteRepository>;
