import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { AdReportService } from '../../adplatform/ad-stats/report-service';
import type { AdReportRow } from '../../db/repositories/ad-report';
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

/** Quoted when it holds a separator, or when a spreadsheet would read it as a formula. */
const NEEDS_QUOTES = /[",\n\r]|^[=+\-@]/;

const csvCell = (value: unknown) => {
  const text = value === null || value === undefined ? '' : String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

const csvLine = (row: AdReportRow) => `${CSV_COLUMNS.map((column) => csvCell(row[column])).join(',')}\r\n`;

/** The CSV text, a page of rows at a time, so that an export of any size is never held whole. */
async function* reportCsv(pages: AsyncIterable<AdReportRow[]>): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\r\n`;
  for await (const rows of pages) {
    if (rows.length > 0) yield rows.map(csvLine).join('');
  }
}

/** Ad performance: TikTok's figures per campaign, ad group or ad beside what Signalbox delivered; CSV export. */
export const adRoutes: FastifyPluginAsync<{ reports: AdReportService }> = async (app, { reports }) => {
  app.get('/ads/report', async (request) => {
    const query = parseOrReject(reportQuery, request.query, 'query');
    return reports.report(currentWorkspace(request).id, { ...query, limit: 10_000 });
  });

  app.get('/ads/report.csv', async (request, reply) => {
    const query = parseOrReject(reportQuery, request.query, 'query');
    const { level, from, to, pages } = await reports.allRows(currentWorkspace(request).id, query);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="signalbox-${level}-${from}-${to}.csv"`)
      .send(Readable.from(reportCsv(pages)));
  });
};
