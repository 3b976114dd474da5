import type { CatalogAd, CatalogAdvertiser } from '../ad-catalog';
import { noAdvertiserPermission, OK, parameterError, type LogicalAnswer } from '../envelope';
import { dayCount, daysBetween, parseDay } from '../report/dates';
import { AttributedActivity, figuresOf, NUMERIC_METRICS } from '../report/figures';
import { ROUTE_SCOPES } from '../scopes';
import type { FakeTikTokState } from '../state';
import type { TikTokRouteDefinition } from '../tiktok-route';
import { jsonStringArray, jsonValue, pageInfo, paging, requiredDigits, requiredText, type Query } from './params';

export const REPORT_INTEGRATED_PATH = '/open_api/v1.3/report/integrated/get/';

type Level = 'AUCTION_CAMPAIGN' | 'AUCTION_ADGROUP' | 'AUCTION_AD';

interface LevelSpec {
  idDimension: 'campaign_id' | 'adgroup_id' | 'ad_id';
  /** Attribute metrics valid at this level (§7.3 "Attribute metrics"). */
  attributes: Readonly<Record<string, (ad: CatalogAd, advertiser: CatalogAdvertiser) => string>>;
}

const campaignAttributes = {
  campaign_name: (ad: CatalogAd) => ad.campaignName,
  objective_type: () => 'WEB_CONVERSIONS',
  currency: (_ad: CatalogAd, advertiser: CatalogAdvertiser) => advertiser.seed.currency,
};
const adGroupAttributes = { ...campaignAttributes, campaign_id: (ad: CatalogAd) => ad.campaignId, adgroup_name: (ad: CatalogAd) => ad.adgroupName };
const adAttributes = { ...adGroupAttributes, adgroup_id: (ad: CatalogAd) => ad.adgroupId, ad_name: (ad: CatalogAd) => ad.adName };

const LEVELS: Record<Level, LevelSpec> = {
  AUCTION_CAMPAIGN: { idDimension: 'campaign_id', attributes: campaignAttributes },
  AUCTION_ADGROUP: { idDimension: 'adgroup_id', attributes: adGroupAttributes },
  AUCTION_AD: { idDimension: 'ad_id', attributes: adAttributes },
};

/** With `stat_time_day` ≤ 30 days, without a time dimension ≤ 365 (§7.1 "range limits" [V2]); texts UNVERIFIED. */
const MAX_DAYS_BY_DAY = 30;
const MAX_DAYS_LIFETIME = 365;

interface ReportRequest {
  advertiserId: string;
  level: Level;
  byDay: boolean;
  metrics: string[];
  days: string[];
  page: number;
  pageSize: number;
}

function parseRequest(query: Query): ReportRequest | LogicalAnswer {
  const advertiserId = requiredDigits(query, 'advertiser_id');
  if (!advertiserId.ok) return advertiserId.answer;
  const reportType = requiredText(query, 'report_type');
  if (!reportType.ok) return reportType.answer;
  if (reportType.value !== 'BASIC') return parameterError('Invalid value for report_type: the fake serves BASIC reports only.');
  if (query.service_type !== undefined && query.service_type !== 'AUCTION') return parameterError('Invalid value for service_type: must be AUCTION.');
  const dataLevel = requiredText(query, 'data_level');
  if (!dataLevel.ok) return dataLevel.answer;
  if (!(dataLevel.value in LEVELS)) {
    return parameterError('Invalid value for data_level: must be one of AUCTION_CAMPAIGN, AUCTION_ADGROUP, AUCTION_AD.');
  }
  const level = dataLevel.value as Level;
  const dimensions = jsonStringArray(query, 'dimensions', true);
  if (!dimensions.ok) return dimensions.answer;
  const { idDimension } = LEVELS[level];
  const others = (dimensions.value ?? []).filter((d) => d !== idDimension);
  if (!(dimensions.value ?? []).includes(idDimension) || others.some((d) => d !== 'stat_time_day') || others.length > 1) {
    return parameterError(`Invalid value for dimensions: at ${level} use ["${idDimension}"] or ["${idDimension}","stat_time_day"].`);
  }
  const byDay = others.length === 1;

  const metrics = jsonStringArray(query, 'metrics', false);
  if (!metrics.ok) return metrics.answer;
  const names = metrics.value ?? ['spend', 'impressions'];
  const invalid = names.filter((name) => !(name in NUMERIC_METRICS) && !(name in LEVELS[level].attributes));
  if (invalid.length > 0) {
    return parameterError(`Please correct the information in invalid metric fields and try again. Invalid metric fields: [${invalid.join(', ')}]`);
  }

  const start = requiredText(query, 'start_date');
  if (!start.ok) return start.answer;
  const end = requiredText(query, 'end_date');
  if (!end.ok) return end.answer;
  const startMs = parseDay(start.value);
  const endMs = parseDay(end.value);
  if (startMs === undefined) return parameterError('Invalid value for start_date: must be a date in YYYY-MM-DD format.');
  if (endMs === undefined) return parameterError('Invalid value for end_date: must be a date in YYYY-MM-DD format.');
  if (endMs < startMs) return parameterError('Invalid value for end_date: must not be earlier than start_date.');
  const limit = byDay ? MAX_DAYS_BY_DAY : MAX_DAYS_LIFETIME;
  if (dayCount(startMs, endMs) > limit) {
    return parameterError(
      `The time range between start_date and end_date must not exceed ${limit} days${byDay ? ' when stat_time_day is a dimension' : ''}.`,
    );
  }

  const filtering = jsonValue(query, 'filtering');
  if (!filtering.ok) return filtering.answer;
  const pages = paging(query, 1000);
  if (!pages.ok) return pages.answer;
  return { advertiserId: advertiserId.value, level, byDay, metrics: names, days: daysBetween(startMs, endMs), ...pages.value };
}

/** The entities of a level as (ID, ads under it, an ad standing for its attributes). */
function entitiesOf(state: FakeTikTokState, advertiser: CatalogAdvertiser, level: Level): { id: string; ads: readonly CatalogAd[] }[] {
  if (level === 'AUCTION_AD') return advertiser.ads.map((ad) => ({ id: ad.adId, ads: [ad] }));
  const list = level === 'AUCTION_CAMPAIGN' ? advertiser.campaigns.map((c) => c.campaignId) : advertiser.adGroups.map((g) => g.adgroupId);
  return list.map((id) => ({ id, ads: state.catalog.adsOf(id) })).filter((entity) => entity.ads.length > 0);
}

/**
 * `GET /report/integrated/get/` (§7): BASIC, AUCTION, one ID dimension ± `stat_time_day`. Rows are per entity (and
 * day), in seed order, metrics as strings; `page_info` pages them (page_size 1–1000, default 10). Delivery figures are
 * synthetic but stable; clicks the fake issued and the conversions sent back with their `ttclid` are added.
 */
export function reportRoute(state: FakeTikTokState): TikTokRouteDefinition {
  return {
    method: 'GET',
    path: REPORT_INTEGRATED_PATH,
    scopes: ROUTE_SCOPES.report,
    handle(call): LogicalAnswer {
      const request = parseRequest(call.query);
      if ('code' in request) return request;
      if (!call.grant.advertiserIds.includes(request.advertiserId)) return noAdvertiserPermission(request.advertiserId);
      const advertiser = state.catalog.advertiser(request.advertiserId);
      const entities = advertiser ? entitiesOf(state, advertiser, request.level) : [];
      const slots = request.byDay ? request.days.length : 1;
      const total = entities.length * slots;
      const first = (request.page - 1) * request.pageSize;
      const last = Math.min(first + request.pageSize, total);
      const activity = new AttributedActivity(state);
      const spec = LEVELS[request.level];

      const list = [];
      for (let index = first; index < last && advertiser; index++) {
        const entity = entities[Math.floor(index / slots)];
        if (entity === undefined) break;
        const days = request.byDay ? [request.days[index % slots] as string] : request.days;
        const figures = figuresOf(entity.ads, days, activity);
        const representative = entity.ads[0] as CatalogAd;
        const metrics: Record<string, string> = {};
        for (const name of request.metrics) {
          const attribute = spec.attributes[name];
          metrics[name] = attribute ? attribute(representative, advertiser) : (NUMERIC_METRICS[name] as (f: typeof figures) => string)(figures);
        }
        const dimensions: Record<string, string> = { [spec.idDimension]: entity.id };
        if (request.byDay) dimensions.stat_time_day = `${days[0]} 00:00:00`;
        list.push({ dimensions, metrics });
      }
      return { ...OK, data: { list, page_info: pageInfo(request.page, request.pageSize, total) } };
    },
  };
}
