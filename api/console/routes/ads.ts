import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { AdReportService } from '../../services/ad-report-service';
import { parseOrReject } from '../../http/validation';
import { currentWorkspace } from '../auth';
import { queryText } from '../fields';

const reportQuery = z.strictObject({
  level: z.enum(['campaign', 'adgroup', 'ad'], { error: 'must be campaign, adgroup or ad' }).default('campaign'),
  from: queryText(10),
  to: queryText(10),
  granularity: z.enum(['day', 'total'], { error: 'must be day or total' }).default('total'),
  campaignId: queryText(32).optional(),
});

/** Ad performance: TikTok's figures per campaign, ad group or ad beside what Signalbox delivered; CSV export. */
export const adRoutes: FastifyPluginAsync<{ reports: AdReportService }> = async (app, { reports }) => {
  app.get('/ads/report', async (request) => {
    const query = parseOrReject(reportQuery, request.query, 'query');
    return reports.report(currentWorkspace(request).id, { ...query, limit: 10_000 });
  });

  app.get('/ads/report.csv', async (request, reply) => {
    const query = parseOrReject(reportQuery, request.query, 'query');
    const { level, from, to, pages } = await reports.csv(currentWorkspace(request).id, query);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="signalbox-${level}-${from}-${to}.csv"`)
      .send(Readable.from(pages));
  });
};
