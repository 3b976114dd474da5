import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { AdReport, AdReportService } from '../../adplatform/ad-stats/report-service';
import { parseOrReject } from '../../ingest/validation';
import { currentWorkspace } from '../auth';
import { queryText } from '../fields';

const reportQuery = z.strictObject({
  level: z.enum(['campaign', 'adgroup', 'ad'], { error: 'must be campaign, adgroup or ad' }).default('campaign'),
  from: queryText(10),
  to: queryText(10),
  granularity: z.enum(['day', 'total'], { error: 'must be day or total' }).default('total'),
  campaignId: queryText(32).optional(),
});

const CSV_COLUMNS = [
  'date', 'level', 'entityId', 'name', 'campaignId', 'adgroupId', 'spend', 'impressions', 'clicks', 'cpc', 'ctr',
  'conversions', 'conversionValue', 'roas', 'deliveredConversions', 'deliveredValue',
] as const;

const csvCell = (value: unknown) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n\r]/.test(text) || /^[=+\-@]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export function reportCsv(report: AdReport): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const row of report.rows) lines.push(CSV_COLUMNS.map((column) => csvCell(row[column as keyof typeof row])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Ad performance: TikTok's figures per campaign, ad group or ad beside what Signalbox delivered; CSV export. */
export const adRoutes: FastifyPluginAsync<{ reports: AdReportService }> = async (app, { reports }) => {
  const report = (request: Parameters<typeof currentWorkspace>[0]) => {
    const query = parseOrReject(reportQuery, request.query, 'query');
    return reports.report(currentWorkspace(request).id, { ...query, limit: 10_000 });
  };

  app.get('/ads/report', async (request) => report(request));

  app.get('/ads/report.csv', async (request, reply) => {
    const answer = await report(request);
    const name = `signalbox-${answer.level}-${answer.from}-${answer.to}.csv`;
    return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}"`).send(reportCsv(answer));
  });
};
