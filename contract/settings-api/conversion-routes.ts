import { z } from 'zod';
import { errors } from '../errors';
import { sourceFilterField } from '../fields';
import { conversionDetailView, conversionRetryView } from '../conversion-detail';
import { conversionPageView } from '../views';
import { inWorkspace } from '../workspaces';
import { adminRoute, inWorkspacePath } from './admin-route';

const limitMessage = 'must be a whole number from 1 to 200';

export const conversionListQuery = z.strictObject({
  status: z.enum(['pending', 'delivered', 'skipped', 'failed'], { error: 'must be one of pending, delivered, skipped, failed' }).optional(),
  source: sourceFilterField.meta({ description: 'Only those from this source: web (the website), app, offline (a store or the phone) or crm' }),
  limit: z.coerce.number({ error: limitMessage }).int(limitMessage).min(1, limitMessage).max(200, limitMessage).default(50),
  cursor: z.string({ error: 'must be given once' }).optional().meta({ description: 'The nextCursor of the previous page' }),
});

const conversionId = z.guid({ error: 'must be a conversion ID (a UUID)' });
export const conversionParams = z.object({ conversionId });
const instantField = z.iso.datetime({ offset: true, error: 'must be an ISO-8601 date-time, e.g. 2026-11-23T00:00:00Z' });

/** Either IDs or a filter; a filter without status means `failed`. */
export const retryBody = z
  .strictObject({
    conversionIds: z.array(conversionId, { error: 'must be an array of conversion IDs' }).min(1, 'must name at least one conversion').max(1000, 'must name at most 1,000 conversions').optional(),
    status: z.enum(['failed', 'skipped'], { error: 'must be failed or skipped: only those can be sent again' }).optional(),
    reason: z.string().min(1, 'must not be empty').optional(),
    tiktokEvent: z.string().min(1, 'must not be empty').optional(),
    from: instantField.optional(),
    to: instantField.optional(),
  })
  .refine((body) => body.conversionIds === undefined || Object.keys(body).length === 1, {
    message: 'cannot be combined with a filter (status, reason, tiktokEvent, from, to): give one or the other',
    path: ['conversionIds'],
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'must give conversionIds or at least one of status, reason, tiktokEvent, from, to' });


export const CONVERSION_ROUTES = [
  adminRoute({
    method: 'GET',
    path: inWorkspacePath('/conversions'),
    summary: 'Conversions, newest first, with status and reason',
    params: inWorkspace(),
    query: conversionListQuery,
    answers: { 200: { description: 'A page of conversions', schema: conversionPageView }, ...errors(400) },
  }),
  adminRoute({
    method: 'GET',
    path: inWorkspacePath('/conversions/:conversionId'),
    summary: 'One conversion, explained',
    description: 'The click used, where each match key came from, the exact (hashed) event and the request it went in, TikTok\'s answer, the timeline and the workflow.',
    params: inWorkspace(conversionParams),
    answers: { 200: { description: 'The conversion', schema: conversionDetailView }, ...errors(400) },
  }),
  adminRoute({
    method: 'POST',
    path: inWorkspacePath('/conversions/retry'),
    summary: 'Send failed (or skipped) conversions again',
    params: inWorkspace(),
    body: retryBody,
    bodyExample: { status: 'failed', reason: 'tiktok_unavailable' },
    answers: { 200: { description: 'What was queued again', schema: conversionRetryView }, ...errors(400) },
  }),
];
