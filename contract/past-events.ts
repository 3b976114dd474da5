import { z } from 'zod';
import { jsonBody } from './fields';

/** `POST …/:event/backfill` (settings API) and `…/send-past` (console): how many days back, and whether only to count. */
export const pastEventsBody = jsonBody({
  days: z.number({ error: 'must be a number of days' }).int('must be a whole number of days').min(1, 'must be at least 1'),
  dryRun: z.boolean({ error: 'must be true or false' }).optional(),
});
