import { z } from 'zod';
import { errorAnswer } from './errors';
import { jsonBody } from './fields';

/** `POST …/:event/backfill` (settings API) and `…/send-past` (console): how many days back, and whether only to count. */
export const pastEventsBody = jsonBody({
  days: z.number({ error: 'must be a number of days' }).int('must be a whole number of days').min(1, 'must be at least 1'),
  dryRun: z.boolean({ error: 'must be true or false' }).optional(),
});

/** What sending past events can refuse (api/services/past-events.ts), beside a bad body. */
export const pastEventsRefusals = {
  404: errorAnswer('The event has no conversion rule (add the rule, then send its past events), or the workspace does not exist'),
  409: errorAnswer('The past events of this event are being sent already (already_sending): `message` says how far the run is'),
  503: errorAnswer('Temporal, which runs the sending (temporal_unavailable), or PostgreSQL is unavailable: try again shortly'),
};
