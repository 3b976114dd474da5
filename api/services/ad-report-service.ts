import type { Repositories } from '../../db/repositories';
import type { AdReport as AdReportAnswer } from '../../contract/ad-report';
import { NO_CURRENCY, type AdReportExportRow, type AdReportFigures } from '../../db/repositories/ad-report';
import type { AdLevel } from '../../db/types';
import { readableAdStatus } from '../../domain/ad-status';
import { AD_REPORT_CSV_HEADER, adReportCsvLine } from './ad-report-csv';
import { TikTokConnectionError } from './tiktok-connection/errors';

export interface AdReportRequest {
  level: AdLevel;
  /** `YYYY-MM-DD`, both inclusive, at most 366 days. */
  from: string;
  to: string;
  /** Default `total`. */
  granularity?: 'day' | 'total';
  campaignId?: string;
  /** Only this ad group's ads (level `ad` only). */
  adgroupId?: string;
  /** Default 500, at most 10,000. */
  limit?: number;
  offset?: number;
}

/** The answer of the settings API and the console (contract/ad-report.ts), with the instant still a Date until it is serialised. */
export type AdReport = Omit<AdReportAnswer, 'statsPulledAt'> & { statsPulledAt: Date | null };

/** Thrown for a bad report request; the message names the field. */
export class AdReportRequestError extends Error {
  readonly httpStatus = 400;
  constructor(message: string) {
    super(message);
    this.name = 'AdReportRequestError';
  }
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;
/** The UTC midnight of a `YYYY-MM-DD` day, in milliseconds (NaN when it is no date). */
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);
const addDays = (day: string, days: number) => new Date(dayStart(day) + days * DAY_MS).toISOString().slice(0, 10);

function validDay(field: string, value: string): number {
  const ms = dayStart(value);
  if (!DAY.test(value) || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) {
    throw new AdReportRequestError(`${field}: must be a date as YYYY-MM-DD, got ${JSON.stringify(value)}`);
  }
  return ms;
}

function validate(request: AdReportRequest): Required<Omit<AdReportRequest, 'campaignId' | 'adgroupId'>> & Pick<AdReportRequest, 'campaignId' | 'adgroupId'> {
  if (!['campaign', 'adgroup', 'ad'].includes(request.level)) throw new AdReportRequestError('level: must be campaign, adgroup or ad');
  const from = validDay('from', request.from);
  const to = validDay('to', request.to);
  if (to < from) throw new AdReportRequestError('to: must not be before from');
  if ((to - from) / DAY_MS + 1 > 366) throw new AdReportRequestError('to: the range may cover at most 366 days');
  const granularity = request.granularity ?? 'total';
  if (granularity !== 'day' && granularity !== 'total') throw new AdReportRequestError('granularity: must be day or total');
  const limit = request.limit ?? 500;
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new AdReportRequestError('limit: must be an integer from 1 to 10000');
  const offset = request.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) throw new AdReportRequestError('offset: must be a non-negative integer');
  if (request.campaignId !== undefined && !/^\d{1,32}$/.test(request.campaignId)) throw new AdReportRequestError('campaignId: must be a string of digits');
  if (request.adgroupId !== undefined && !/^\d{1,32}$/.test(request.adgroupId)) throw new AdReportRequestError('adgroupId: must be a string of digits');
  if (request.adgroupId !== undefined && request.level !== 'ad') throw new AdReportRequestError('adgroupId: narrows only the ads of an ad group (level ad)');
  return { ...request, granularity, limit, offset };
}

function notesFor(currency: string | null, timeZoneKnown: boolean, totals: AdReportFigures, exchangeRates: Readonly<Record<string, string>>, withoutClick: number): string[] {
  const notes: string[] = [];
  if (withoutClick > 0) {
    notes.push(
      `${withoutClick} conversion${withoutClick === 1 ? ' of these days was' : 's of these days were'} sent without a click (Settings: conversions without a click): TikTok may count them in its conversions, but "delivered" counts only conversions with a click, so they are in no row.`,
    );
  }
  if (!timeZoneKnown) notes.push("TikTok has not reported the advertiser's time zone yet (it is read at each statistics pull): days are UTC days until then.");
  if (currency === null) notes.push("TikTok has not reported the advertiser's currency yet (it is read at each statistics pull): delivered values are shown per currency.");
  const currencies = Object.keys(totals.deliveredValues).sort();
  const missing = currencies.filter((code) => code !== currency && exchangeRates[code] === undefined);
  if (currency !== null && totals.deliveredValue === null && missing.length > 0) {
    const named = missing.map((code) => (code === NO_CURRENCY ? `${NO_CURRENCY} (conversions without a currency)` : code));
    notes.push(
      `Delivered values are in ${currencies.join(', ')} and are shown per currency, never summed: the workspace has no exchange rate into ${currency} for ${named.join(', ')} (add them under Settings: exchange rates, or with \`signalbox settings set --exchange-rates\`).`,
    );
  } else if (currency !== null && currencies.some((code) => code !== currency)) {
    notes.push(`Delivered values in other currencies are converted into ${currency} with the workspace's exchange rates.`);
  }
  return notes;
}

/**
 * An export reads at most this many rows per statement; a window with more is read in pages, each starting after the
 * row the page before ended on (from that row's day), each running its statement again.
 */
const EXPORT_PAGE_ROWS = 10_000;

/**
 * The day ranges an export reads one after the other (rows are ordered by day first): the whole range for totals; by
 * day, equal windows of about `pageRows` rows each, reckoned from the entities per day. A window is then one statement,
 * and a range of two windows or more is read two windows at a time (see `csv`), on two cores.
 */
export function exportWindows(query: { from: string; to: string; granularity: 'day' | 'total' }, entities: number, pageRows = EXPORT_PAGE_ROWS): [string, string][] {
  if (query.granularity === 'total') return [[query.from, query.to]];
  const days = (dayStart(query.to) - dayStart(query.from)) / DAY_MS + 1;
  const daysPerWindow = Math.ceil(days / Math.ceil((days * Math.max(1, entities)) / pageRows));
  const windows: [string, string][] = [];
  for (let from = query.from; from <= query.to; from = addDays(from, daysPerWindow)) {
    const end = addDays(from, daysPerWindow - 1);
    windows.push([from, end < query.to ? end : query.to]);
  }
  return windows;
}

/**
 * The figures of the settings API's reports endpoint and the CLI's table: per campaign, ad group or ad, per day or
 * totalled, TikTok's spend, impressions, clicks, CPC, CTR, CPM, conversions, cost per conversion, conversion rate,
 * value (web and app purchases) and ROAS beside the conversions Signalbox delivered for the same entity. Days are the
 * advertiser's on both sides; money never adds up different currencies. Exact decimals as strings; empty (null) where
 * a ratio divides by zero.
 */
export function createAdReportService(deps: {
  repos: Pick<Repositories, 'adReport' | 'conversionFigures' | 'tiktokConnections' | 'workspaces'>;
  /** Rows per statement of an export (default 10,000); tests make it small to read many windows and pages. */
  exportPageRows?: number;
}) {
  const exportPageRows = deps.exportPageRows ?? EXPORT_PAGE_ROWS;
  async function prepare(workspaceId: string, request: AdReportRequest) {
    const query = validate(request);
    const [connection, workspace] = await Promise.all([deps.repos.tiktokConnections.summary(workspaceId), deps.repos.workspaces.find(workspaceId)]);
    if (connection === undefined) throw new TikTokConnectionError('not_connected', 'this workspace has no TikTok connection');
    if (connection.advertiserId === null) throw new TikTokConnectionError('advertiser_not_selected', 'select an advertiser first: statistics are pulled per advertiser');
    const exchangeRates = workspace?.exchangeRates ?? {};
    const repoQuery = { ...query, advertiserId: connection.advertiserId, timeZone: connection.advertiserTimeZone ?? 'UTC', currency: connection.advertiserCurrency, exchangeRates };
    return { query, connection, repoQuery };
  }

  return {
    /** Throws AdReportRequestError (400) for bad input, TikTokConnectionError when nothing is connected. */
    async report(workspaceId: string, request: AdReportRequest): Promise<AdReport> {
      const { query, connection, repoQuery } = await prepare(workspaceId, request);
      const [{ rows, totals }, withoutClick, names] = await Promise.all([
        deps.repos.adReport.rowsAndTotals(workspaceId, repoQuery),
        deps.repos.conversionFigures.deliveredWithoutClick(workspaceId, { from: query.from, to: query.to, timeZone: repoQuery.timeZone }),
        deps.repos.adReport.entityNames(workspaceId, repoQuery.advertiserId, query),
      ]);
      return {
        advertiserId: repoQuery.advertiserId,
        level: query.level,
        from: query.from,
        to: query.to,
        granularity: query.granularity,
        currency: connection.advertiserCurrency,
        timeZone: repoQuery.timeZone,
        notes: notesFor(connection.advertiserCurrency, connection.advertiserTimeZone !== null, totals, repoQuery.exchangeRates, withoutClick),
        rows: rows.map((row) => ({ ...row, statusLabel: readableAdStatus(row.status) })),
        totals,
        scope: {
          campaign: query.campaignId === undefined ? null : { id: query.campaignId, name: names.campaign },
          adgroup: query.adgroupId === undefined ? null : { id: query.adgroupId, name: names.adgroup },
        },
        statsPulledAt: connection.statsPulledAt,
        statsPullError: connection.statsPullError,
      };
    },

    /**
     * A report as CSV text (ad-report-csv.ts; limit and offset ignored), header first, then a page of lines at a time, for
     * exports of any size. Throws as `report` does before the first page is read.
     */
    async csv(
      workspaceId: string,
      request: Omit<AdReportRequest, 'limit' | 'offset'>,
    ): Promise<{ level: AdLevel; from: string; to: string; campaignId?: string; adgroupId?: string; pages: AsyncIterable<string> }> {
      const { query, repoQuery } = await prepare(workspaceId, request);
      const windows = exportWindows(query, await deps.repos.adReport.entityCount(workspaceId, repoQuery), exportPageRows);
      const page = (from: string, to: string, after?: AdReportExportRow) =>
        deps.repos.adReport.exportRows(workspaceId, { ...repoQuery, from, to, limit: exportPageRows }, after);
      const line = (row: AdReportExportRow) => adReportCsvLine(query.level, row);
      async function* pages(): AsyncGenerator<string> {
        yield AD_REPORT_CSV_HEADER;
        let current = page(...(windows[0] as [string, string]));
        for (const [index, [from, to]] of windows.entries()) {
          // The next window is read while this one is: PostgreSQL runs both statements at once, on two cores.
          const window = windows[index + 1];
          const next = window === undefined ? undefined : page(...window);
          next?.catch(() => undefined); // awaited on the next turn; an export abandoned before then must not crash the process
          for (;;) {
            const rows = await current;
            yield rows.map(line).join('');
            if (rows.length < exportPageRows) break;
            current = page(from, to, rows[rows.length - 1]);
          }
          if (next !== undefined) current = next;
        }
      }
      return { level: query.level, from: query.from, to: query.to, campaignId: query.campaignId, adgroupId: query.adgroupId, pages: pages() };
    },
  };
}

export type AdReportService = ReturnType<typeof createAdReportService>;
