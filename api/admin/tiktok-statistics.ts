import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { AdReportService } from '../services/ad-report-service';
import type { TikTokConnectionService } from '../services/tiktok-connection';
import { adStatsScheduleId } from '../../temporal/ad-stats-schedules';
import { parseOrReject } from '../http/validation';
import { workspaceOf } from './workspace-scope';

/** One query parameter given once (a repeated one arrives as an array). */
const queryText = (whenMissing?: string) =>
  z.string({ error: (issue) => (issue.input === undefined && whenMissing !== undefined ? whenMissing : 'must be given once') });

const limitMessage = 'must be an integer from 1 to 10000';
const offsetMessage = 'must be a non-negative integer';

/**
 * Shapes only; the report service checks dates, range and bounds and names the field. There is no time zone to pass:
 * days are the advertiser's on both sides, as TikTok reports them.
 */
const reportQuery = z.strictObject({
  level: z.enum(['campaign', 'adgroup', 'ad'], { error: (issue) => (issue.input === undefined ? 'is required: campaign, adgroup or ad' : 'must be campaign, adgroup or ad') }),
  from: queryText('is required: the first day, as YYYY-MM-DD'),
  to: queryText('is required: the last day (inclusive), as YYYY-MM-DD'),
  granularity: z.enum(['day', 'total'], { error: 'must be day or total' }).optional(),
  campaignId: queryText().optional(),
  adgroupId: queryText().optional(),
  limit: z.coerce.number({ error: limitMessage }).optional(),
  offset: z.coerce.number({ error: offsetMessage }).optional(),
});

export interface TikTokStatisticsRoutesOptions {
  connections: TikTokConnectionService;
  reports: AdReportService;
}

/**
 * `/admin/workspaces/:workspaceId/tiktok/{stats/pull,reports}`: run the statistics schedule now, and read the pulled
 * figures (TikTok's spend, impressions, clicks, CPC, CTR, CPM, conversions, cost per conversion, conversion rate,
 * value and ROAS beside Signalbox's deliveries).
 */
export const tiktokStatisticsRoutes: FastifyPluginAsync<TikTokStatisticsRoutesOptions> = async (app, { connections, reports }) => {
  app.post('/stats/pull', async (request, reply) => {
    const workspaceId = workspaceOf(request).id;
    await connections.triggerStatsPull(workspaceId);
    return reply.code(202).send({
      triggered: true,
      scheduleId: adStatsScheduleId(workspaceId),
      message: 'the pull runs in the background; GET …/tiktok shows statsPulledAt (or statsPullError) once it has finished',
    });
  });

  app.get('/reports', async (request) => {
    const query = parseOrReject(reportQuery, request.query, 'query');
    return reports.report(workspaceOf(request).id, query);
  });
};
