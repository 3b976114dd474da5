import { dayIn } from '../../devstack/tiktok-fake/report/dates';

/**
 * The days (`YYYY-MM-DD` in `timeZone`) from the first to the last of these instants. A test asks for the days its own
 * events fell on, never for "today": an event made an hour before 00:30 UTC, or at 23:30 UTC seen from Berlin, is
 * another day's, and the test must pass at any hour.
 */
export function daysOf(instants: readonly Date[], timeZone = 'UTC'): { from: string; to: string } {
  if (instants.length === 0) throw new Error('daysOf: no instants, so no days (did the test create its events?)');
  const days = instants.map((at) => dayIn(at, timeZone)).sort();
  return { from: days[0] as string, to: days[days.length - 1] as string };
}
