import { setTimeout as sleep } from 'node:timers/promises';
import type { TikTokCallResult, TikTokClient, TikTokEntity, TikTokEntityKind, TikTokPermanent, TikTokRetryable } from '../tiktok';
import { TIKTOK_LIMITS } from '../tiktok';
import type { AdEntityInput, AdStatsRepository } from '../../db/repositories/ad-stats';
import type { AdLevel } from '../../db/types';
import { halveRange, type DateRange } from '../../domain/report-window';
import { ADVERTISER_INFO_FIELDS, advertiserLocale, type AdvertiserLocale } from './advertiser-info';
import { LEVELS, metricsFor, parseReportRows } from './report-rows';

/** "Your query is too large … (e.g. fewer metrics or time range)" (§2.3 [V1] AB): ask again for a shorter range. */
export const QUERY_TOO_LARGE = 40067;

/** A TikTok call that did not succeed after the in-call retries; `result` says whether it is worth retrying later. */
export class TikTokCallFailed extends Error {
  constructor(
    readonly endpoint: string,
    readonly result: TikTokRetryable | TikTokPermanent,
  ) {
    super(`TikTok ${endpoint}: ${result.code === undefined ? '' : `code ${result.code}: `}${result.message}`);
    this.name = 'TikTokCallFailed';
  }
}

export interface PullRetryPolicy {
  /** Attempts per page before giving the failure to the caller (Temporal retries the activity later). Default 4. */
  attempts: number;
  /** Wait before retry `n` (1-based) after a throttled or transient answer. Default: 1 s, 2 s, 4 s … with jitter. */
  delayMs(retry: number, throttled: boolean): number;
}

export const DEFAULT_PULL_RETRY: PullRetryPolicy = {
  attempts: 4,
  // TikTok's QPS limits reset each second; a throttled answer waits a little longer than a transient fault.
  delayMs: (retry, throttled) => Math.round((throttled ? 2_000 : 1_000) * 2 ** (retry - 1) * (0.75 + Math.random() * 0.5)),
};

export interface AdStatsPullContext {
  tiktok: TikTokClient;
  adStats: AdStatsRepository;
  workspaceId: string;
  advertiserId: string;
  accessToken: string;
  /** Report pages fetched at once (TikTok's app default is 10 QPS, §2.4). Default 3. */
  concurrency?: number;
  /** Rows per report page, 1–1000. Default 1,000 (the maximum, fewest requests). */
  pageSize?: number;
  retry?: PullRetryPolicy;
  /**
   * TikTok was failing when this pull was last tried: the first call is made once, a probe, without the in-call
   * retries, so that an outage costs TikTok one request per attempt of the pull. Cleared once TikTok answers.
   */
  probe?: boolean;
  /** Called after every stored page (Temporal heartbeats). */
  onProgress?: (progress: PullProgress) => void;
}

export interface PullProgress {
  requests: number;
  rows: number;
}

async function call<T>(context: AdStatsPullContext, endpoint: string, attempt: () => Promise<TikTokCallResult<T>>): Promise<T> {
  const policy = context.retry ?? DEFAULT_PULL_RETRY;
  for (let tries = 1; ; tries++) {
    const result = await attempt();
    if (result.outcome !== 'retryable') context.probe = false;
    if (result.outcome === 'success') {
      if (result.body.data === undefined) throw new TikTokCallFailed(endpoint, { outcome: 'retryable', throttled: false, code: result.code, message: 'answer without data' });
      return result.body.data;
    }
    if (result.outcome === 'permanent' || context.probe === true || tries >= policy.attempts) throw new TikTokCallFailed(endpoint, result);
    await sleep(policy.delayMs(tries, result.throttled));
  }
}

/**
 * Runs `work` over `items` with at most `limit` at a time. After a failure no further item is started; the first
 * failure rejects once the running ones settle.
 */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length && !failed) {
      const item = items[next++] as T;
      await work(item).catch((error: unknown) => {
        failed = true;
        throw error;
      });
    }
  });
  const outcomes = await Promise.allSettled(workers);
  const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failure) throw failure.reason;
}

/** Lets at most `limit` tasks run at once; the others wait their turn, in order. */
function limiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await task();
    } finally {
      const nextInLine = waiting.shift();
      if (nextInLine) nextInLine();
      else running -= 1;
    }
  };
}

/**
 * Fetches every page with at most `concurrency` requests in flight and stores each page as it arrives. A page is
 * stored while the next ones are fetched (storing waits on PostgreSQL, fetching on TikTok); at most 2 × `concurrency`
 * pages are in hand at once, so a slow database holds back the fetching rather than filling memory.
 */
async function fetchAndStore<P>(pages: readonly number[], concurrency: number, fetch: (page: number) => Promise<P>, store: (data: P) => Promise<void>) {
  const fetching = limiter(concurrency);
  await inParallel(pages, 2 * concurrency, async (page) => store(await fetching(() => fetch(page))));
}

export interface ReportPullResult extends PullProgress {
  /** How many ranges were asked for in the end (more than one when TikTok found a range too large). */
  ranges: number;
}

/**
 * One level's daily report for one range: every page, each stored as it arrives (upsert, so a re-pull overwrites).
 * A range TikTok finds too large (40067) is halved and each half pulled, down to single days.
 */
export async function pullReportRange(context: AdStatsPullContext, level: AdLevel, range: DateRange): Promise<ReportPullResult> {
  const totals: ReportPullResult = { requests: 0, rows: 0, ranges: 0 };
  const pullOne = async (current: DateRange): Promise<void> => {
    try {
      const result = await pullPages(context, level, current, totals);
      totals.ranges += 1;
      return result;
    } catch (error) {
      const halves = error instanceof TikTokCallFailed && error.result.code === QUERY_TOO_LARGE ? halveRange(current) : undefined;
      if (halves === undefined) throw error;
      await pullOne(halves[0]);
      await pullOne(halves[1]);
    }
  };
  await pullOne(range);
  return totals;
}

async function pullPages(context: AdStatsPullContext, level: AdLevel, range: DateRange, totals: PullProgress): Promise<void> {
  const pageSize = context.pageSize ?? TIKTOK_LIMITS.maxReportPageSize;
  const fetchPage = (page: number) =>
    call(context, 'report/integrated/get', () =>
      context.tiktok.getReport(context.accessToken, {
        advertiserId: context.advertiserId,
        dataLevel: LEVELS[level].dataLevel,
        dimensions: [LEVELS[level].idDimension, 'stat_time_day'],
        metrics: metricsFor(level),
        startDate: range.startDate,
        endDate: range.endDate,
        page,
        pageSize,
      }),
    );
  const store = async (data: Awaited<ReturnType<typeof fetchPage>>): Promise<void> => {
    totals.requests += 1;
    const parsed = parseReportRows(level, context.advertiserId, data.list ?? []);
    await context.adStats.storePage(context.workspaceId, parsed.stats, parsed.entities);
    totals.rows += parsed.stats.length;
    context.onProgress?.({ requests: totals.requests, rows: totals.rows });
  };

  // The first page tells how many there are; it is stored while the others are fetched.
  const first = await fetchPage(1);
  const pages = Array.from({ length: Math.max(1, first.page_info?.total_page ?? 1) }, (_, i) => i + 1);
  await fetchAndStore(pages, context.concurrency ?? 3, async (page) => (page === 1 ? first : fetchPage(page)), store);
}

const ENTITY_FIELDS: Record<TikTokEntityKind, string[]> = {
  campaign: ['campaign_id', 'campaign_name', 'operation_status', 'secondary_status'],
  adgroup: ['campaign_id', 'adgroup_id', 'adgroup_name', 'operation_status', 'secondary_status'],
  ad: ['campaign_id', 'adgroup_id', 'ad_id', 'ad_name', 'operation_status', 'secondary_status'],
};

function entityInput(kind: TikTokEntityKind, advertiserId: string, entity: TikTokEntity): AdEntityInput | undefined {
  const id = kind === 'campaign' ? entity.campaign_id : kind === 'adgroup' ? entity.adgroup_id : entity.ad_id;
  if (id === undefined) return undefined;
  return {
    level: kind,
    entityId: String(id),
    advertiserId,
    campaignId: kind === 'campaign' ? null : (entity.campaign_id ?? null),
    adgroupId: kind === 'ad' ? (entity.adgroup_id ?? null) : null,
    name: (kind === 'campaign' ? entity.campaign_name : kind === 'adgroup' ? entity.adgroup_name : entity.ad_name) ?? null,
    status: entity.secondary_status ?? entity.operation_status ?? null,
  };
}

export type EntityPullResult = { kind: TikTokEntityKind; entities: number } | { kind: TikTokEntityKind; skipped: string };

/** TikTok's 40001 "No permission": the token lacks the permission this endpoint needs, which the pull can do without. */
function lacksPermission(error: unknown): error is TikTokCallFailed {
  return error instanceof TikTokCallFailed && error.result.outcome === 'permanent' && !error.result.tokenInvalid && error.result.code === 40001;
}

/**
 * The advertiser's currency and time zone (`advertiser/info`): reports group days in that zone and keep money in that
 * currency. Without the Ad Account Management permission TikTok answers 40001: the pull goes on without them.
 */
export async function pullAdvertiserLocale(context: AdStatsPullContext): Promise<AdvertiserLocale | { skipped: string }> {
  try {
    const data = await call(context, 'advertiser/info', () => context.tiktok.getAdvertiserInfo(context.accessToken, [context.advertiserId], ADVERTISER_INFO_FIELDS));
    return advertiserLocale((data.list ?? []).find((info) => String(info.advertiser_id) === context.advertiserId));
  } catch (error) {
    if (lacksPermission(error)) return { skipped: error.message };
    throw error;
  }
}

/**
 * Names and status of every campaign, ad group or ad (all pages). A token without the Ads Management permission
 * gets 40001 here: names still come from the reports' attribute metrics, so the pull goes on without status.
 */
export async function pullEntities(context: AdStatsPullContext, kind: TikTokEntityKind): Promise<EntityPullResult> {
  const pageSize = TIKTOK_LIMITS.maxEntityPageSize;
  let stored = 0;
  try {
    for (let page = 1, totalPages = 1; page <= totalPages; page++) {
      const data = await call(context, `${kind}/get`, () =>
        context.tiktok.getEntities(context.accessToken, kind, { advertiserId: context.advertiserId, page, pageSize, fields: ENTITY_FIELDS[kind] }),
      );
      totalPages = data.page_info?.total_page ?? 1;
      const entities = (data.list ?? []).flatMap((entity) => entityInput(kind, context.advertiserId, entity) ?? []);
      await context.adStats.upsertEntities(context.workspaceId, entities);
      stored += entities.length;
    }
  } catch (error) {
    if (lacksPermission(error)) return { kind, skipped: error.message };
    throw error;
  }
  return { kind, entities: stored };
}
