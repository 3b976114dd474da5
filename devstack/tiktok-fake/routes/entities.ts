import type { CatalogAd, CatalogAdGroup, CatalogCampaign } from '../ad-catalog';
import { noAdvertiserPermission, OK, type LogicalAnswer } from '../envelope';
import { ROUTE_SCOPES } from '../scopes';
import type { FakeTikTokState } from '../state';
import type { TikTokRouteDefinition } from '../tiktok-route';
import { jsonStringArray, jsonValue, pageInfo, paging, requiredDigits } from './params';

export const CAMPAIGN_GET_PATH = '/open_api/v1.3/campaign/get/';
export const ADGROUP_GET_PATH = '/open_api/v1.3/adgroup/get/';
export const AD_GET_PATH = '/open_api/v1.3/ad/get/';

type Kind = 'campaign' | 'adgroup' | 'ad';

const PATHS: Record<Kind, string> = { campaign: CAMPAIGN_GET_PATH, adgroup: ADGROUP_GET_PATH, ad: AD_GET_PATH };
const SCOPES: Record<Kind, readonly string[]> = {
  campaign: ROUTE_SCOPES.campaignGet,
  adgroup: ROUTE_SCOPES.adgroupGet,
  ad: ROUTE_SCOPES.adGet,
};

function secondaryStatus(kind: Kind, operationStatus: string): string {
  const prefix = kind === 'campaign' ? 'CAMPAIGN_STATUS' : kind === 'adgroup' ? 'ADGROUP_STATUS' : 'AD_STATUS';
  return operationStatus === 'ENABLE' ? `${prefix}_DELIVERY_OK` : `${prefix}_DISABLE`;
}

function campaignRow(c: CatalogCampaign) {
  return {
    advertiser_id: c.advertiserId,
    campaign_id: c.campaignId,
    campaign_name: c.campaignName,
    objective_type: 'WEB_CONVERSIONS',
    budget_mode: 'BUDGET_MODE_DAY',
    budget: 100,
    operation_status: c.operationStatus,
    secondary_status: secondaryStatus('campaign', c.operationStatus),
    create_time: '2024-01-15 09:30:00',
    modify_time: '2024-01-15 09:30:00',
  };
}

function adGroupRow(g: CatalogAdGroup) {
  return {
    ...campaignRow(g),
    adgroup_id: g.adgroupId,
    adgroup_name: g.adgroupName,
    optimization_event: 'SHOPPING',
    secondary_status: secondaryStatus('adgroup', g.operationStatus),
  };
}

function adRow(a: CatalogAd) {
  return { ...adGroupRow(a), ad_id: a.adId, ad_name: a.adName, secondary_status: secondaryStatus('ad', a.operationStatus) };
}

/**
 * `GET /campaign/get/`, `/adgroup/get/`, `/ad/get/` (§7.4): the advertiser's entities, paged (page_size 1–1000).
 * `fields` narrows the returned fields; `filtering` is checked for JSON and otherwise not applied.
 */
export function entityRoute(state: FakeTikTokState, kind: Kind): TikTokRouteDefinition {
  return {
    method: 'GET',
    path: PATHS[kind],
    scopes: SCOPES[kind],
    handle(call): LogicalAnswer {
      const advertiserId = requiredDigits(call.query, 'advertiser_id');
      if (!advertiserId.ok) return advertiserId.answer;
      const pages = paging(call.query, 1000);
      if (!pages.ok) return pages.answer;
      const fields = jsonStringArray(call.query, 'fields', false);
      if (!fields.ok) return fields.answer;
      const filtering = jsonValue(call.query, 'filtering');
      if (!filtering.ok) return filtering.answer;
      if (!call.grant.advertiserIds.includes(advertiserId.value)) return noAdvertiserPermission(advertiserId.value);

      const advertiser = state.catalog.advertiser(advertiserId.value);
      const rows: Record<string, unknown>[] =
        kind === 'campaign'
          ? (advertiser?.campaigns ?? []).map(campaignRow)
          : kind === 'adgroup'
            ? (advertiser?.adGroups ?? []).map(adGroupRow)
            : (advertiser?.ads ?? []).map(adRow);
      const { page, pageSize } = pages.value;
      const list = rows
        .slice((page - 1) * pageSize, page * pageSize)
        .map((row) => (fields.value ? Object.fromEntries(fields.value.filter((f) => f in row).map((f) => [f, row[f]])) : row));
      return { ...OK, data: { list, page_info: pageInfo(page, pageSize, rows.length) } };
    },
  };
}
