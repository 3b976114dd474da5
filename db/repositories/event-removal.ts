import type { Knex } from 'knex';
import { bindings } from './bindings';

export interface RemovedEvents {
  /** Events no conversion refers to: gone. */
  deleted: number;
  /** Events a conversion refers to (deleting them would delete it): reduced to their skeleton. */
  stripped: number;
}

/**
 * What an event keeps once its personal data is gone: what happened and when, not who, from where, or with what. Its
 * columns give back its type, `messageId` and name (`fullMessage`); the body keeps only the time.
 */
const SKELETON = `jsonb_strip_nulls(jsonb_build_object('timestamp', e.message->'timestamp'))`;

/**
 * Deletes or strips the events that `selection` (a query returning event `id`s, with its `?` bindings) picks, in one
 * statement. `forgetIdentity` also clears the user and anonymous IDs of the stripped ones (erasure; retention keeps
 * them, as the identity links do). `receivedBy`: the selection holds only events received by then, so the statement
 * touches only the partitions of the days up to its UTC day.
 */
export async function removeEvents(
  executor: Knex,
  selection: { sql: string; bindings: readonly unknown[] },
  { forgetIdentity, receivedBy }: { forgetIdentity: boolean; receivedBy?: Date },
): Promise<RemovedEvents> {
  const identity = forgetIdentity ? ', user_id = NULL, anonymous_id = NULL' : '';
  const days = receivedBy === undefined ? '' : ` AND e.received_on <= (?::timestamptz AT TIME ZONE 'UTC')::date`;
  const daysBinding = receivedBy === undefined ? [] : [receivedBy];
  const { rows } = await executor.raw<{ rows: RemovedEvents[] }>(
    `WITH target AS (
       SELECT s.id, EXISTS (SELECT 1 FROM conversions c WHERE c.event_row_id = s.id) AS referenced FROM (${selection.sql}) s
     ),
     deleted AS (DELETE FROM events e USING target t WHERE e.id = t.id${days} AND NOT t.referenced RETURNING 1),
     stripped AS (
       UPDATE events e SET message = ${SKELETON}, stripped_at = now()${identity}
       FROM target t WHERE e.id = t.id${days} AND t.referenced RETURNING 1
     )
     SELECT (SELECT count(*) FROM deleted)::int AS deleted, (SELECT count(*) FROM stripped)::int AS stripped`,
    bindings(...selection.bindings, ...daysBinding, ...daysBinding),
  );
  return rows[0] as RemovedEvents;
}
