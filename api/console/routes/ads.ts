import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import type { AdReportService } from '../../services/ad-report-service';
import type { TikTokConnectionService } from '../../services/tiktok-connection';
import { parseOrReject } from '../../http/validation';
import { actorOf, currentWorkspace, needs } from '../auth';
import { adReportQuery } from '../../../contract/console/data-routes';


/** What an export holds, in its file name: `signalbox-ads-of-adgroup-181…-2026-11-01-2026-11-07.csv`. */
function exportName(e: { level: string; from: string; to: string; campaignId?: string; adgroupId?: string }): string {
  const scope = e.adgroupId !== undefined ? `-of-adgroup-${e.adgroupId}` : e.campaignId !== undefined ? `-of-campaign-${e.campaignId}` : '';
  const what = { campaign: 'campaigns', adgroup: 'adgroups', ad: 'ads' }[e.level] ?? e.level;
  return `signalbox-${what}${scope}-${e.from}-${e.to}.csv`;
}

/**
 * Ad performance: TikTok's figures per campaign, ad group or ad beside what Signalbox delivered; CSV export of what is
 * on screen; "Pull now", which runs the workspace's statistics schedule as the settings API's `stats/pull` does.
 */
export const adRoutes: FastifyPluginAsync<{ reports: AdReportService; connections: TikTokConnectionService }> = async (app, { reports, connections }) => {
  app.get('/ads/report', async (request) => {
    const query = parseOrReject(adReportQuery, request.query, 'query');
    return reports.report(currentWorkspace(request).id, { ...query, limit: 10_000 });
  });

  app.get('/ads/report.csv', async (request, reply) => {
    const query = parseOrReject(adReportQuery, request.query, 'query');
    const exported = await reports.csv(currentWorkspace(request).id, query);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${exportName(exported)}"`)
      .send(Readable.from(exported.pages));
  });

  app.post('/ads/pull', { preHandler: needs('editor') }, async (request, reply) => {
    await connections.triggerStatsPull(currentWorkspace(request).id, actorOf(request));
    return reply.code(202).send({ triggered: true, message: 'the pull runs in the background; the report shows the new statsPulledAt once it has finished' });
  });
};
