import type { Knex } from 'knex';
import { z } from 'zod';
import { badRequest } from '../http/http-error';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MAX_DAYS = 366;

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const day = (name: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `is required: the ${name} day, as YYYY-MM-DD` : 'must be given once') })
    .refine((text) => DAY.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text), 'must be a date as YYYY-MM-DD');

/** A period of whole days in a time zone, as the console's pages ask for it. */
export const periodFields = {
  from: day('first'),
  to: day('last'),
  timeZone: z.string({ error: 'must be given once' }).refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin').default('UTC'),
};

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
