import { noAdvertiserPermission, OK, type LogicalAnswer } from '../envelope';
import { ROUTE_SCOPES } from '../scopes';
import type { FakeTikTokEventSetSeed } from '../seed';
import type { FakeTikTokState } from '../state';
import type { TikTokCallContext, TikTokRouteDefinition } from '../tiktok-route';
import { requiredDigits, type Param } from './params';

export const OFFLINE_GET_PATH = '/open_api/v1.3/offline/get/';
export const CRM_LIST_PATH = '/open_api/v1.3/crm/list/';

/** Neither list is paged; both take `advertiser_id` (the `event_set_ids` and `name` filters are not played). */
function listed(call: TikTokCallContext, setsOf: (advertiserId: string) => FakeTikTokEventSetSeed[] | undefined): Param<{ advertiserId: string; sets: FakeTikTokEventSetSeed[] }> {
  const advertiserId = requiredDigits(call.query, 'advertiser_id');
  if (!advertiserId.ok) return advertiserId;
  if (!call.grant.advertiserIds.includes(advertiserId.value)) return { ok: false, answer: noAdvertiserPermission(advertiserId.value) };
  return { ok: true, value: { advertiserId: advertiserId.value, sets: setsOf(advertiserId.value) ?? [] } };
}

/** `GET /offline/get/?advertiser_id=`: `data.event_set_list[]` (SDK yml_files/offline_get.yml; timestamps' format UNVERIFIED). */
export function offlineGetRoute(state: FakeTikTokState): TikTokRouteDefinition {
  return {
    method: 'GET',
    path: OFFLINE_GET_PATH,
    scopes: ROUTE_SCOPES.offlineGet,
    handle(call): LogicalAnswer {
      const found = listed(call, (id) => state.catalog.advertiser(id)?.seed.offlineEventSets);
      if (!found.ok) return found.answer;
      const { advertiserId, sets } = found.value;
      const eventSetList = sets.map((set) => ({
        event_set_id: set.eventSetId,
        name: set.name,
        description: '',
        advertiser_id: advertiserId,
        auto_tracking: false,
        create_time: '2024-01-15 09:30:00',
        update_time: '2024-01-15 09:30:00',
      }));
      return { ...OK, data: { event_set_list: eventSetList } };
    },
  };
}

/** `GET /crm/list/?advertiser_id=`: `data.crm_event_sets[]` (bububa/tiktok-business model/event/crm_list.go). */
export function crmListRoute(state: FakeTikTokState): TikTokRouteDefinition {
  return {
    method: 'GET',
    path: CRM_LIST_PATH,
    scopes: ROUTE_SCOPES.crmList,
    handle(call): LogicalAnswer {
      const found = listed(call, (id) => state.catalog.advertiser(id)?.seed.crmEventSets);
      if (!found.ok) return found.answer;
      const crmEventSets = found.value.sets.map((set) => ({ event_set_id: set.eventSetId, name: set.name, create_time: '2024-01-15T09:30:00Z' }));
      return { ...OK, data: { crm_event_sets: crmEventSets } };
    },
  };
}
