import type { Knex } from 'knex';
import { badRequest } from '../http/http-error';

const MAX_DAYS = 366;

export interface Period {
  from: Date;
  /** Exclusive: midnight after the last day. */
  to: Date;
  timeZone: string;
}

/** The instants that start the first day and end the last one in the zone (PostgreSQL knows every zone's rules). */
export async function resolvePeriod(db: Knex, query: { from: string; to: string; timeZone: string }): Promise<Period> {
  const days = (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000 + 1;
  if (days < 1) throw badRequest('to must not be before from', ['to must not be before from']);
  if (days > MAX_DAYS) throw badRequest(`to: the period may cover at most ${MAX_DAYS} days`, [`to: the period may cover at most ${MAX_DAYS} days`]);
  const { rows } = await db.raw<{ rows: { from: Date; to: Date }[] }>(
    `SELECT (?::date::timestamp AT TIME ZONE ?) AS "from", ((?::date + 1)::timestamp AT TIME ZONE ?) AS "to"`,
    [query.from, query.timeZone, query.to, query.timeZone],
  );
  const row = rows[0] as { from: Date; to: Date };
  return { from: row.from, to: row.to, timeZone: query.timeZone };
}
