import type { FastifyPluginAsync } from 'fastify';
import type { AdReportService } from '../services/ad-report-service';
import type { TikTokConnectionService } from '../services/tiktok-connection';
import { adStatsScheduleId } from '../../temporal/ad-stats-schedules';
import { parseOrReject } from '../http/validation';
import { workspaceOf } from './workspace-scope';
import { reportQuery } from '../../contract/settings-api/tiktok-routes';

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
