import { noAdvertiserPermission, OK, parameterError, type LogicalAnswer } from '../envelope';
import { ROUTE_SCOPES } from '../scopes';
import type { FakeTikTokState } from '../state';
import type { TikTokRouteDefinition } from '../tiktok-route';
import { jsonStringArray } from './params';

export const ADVERTISER_INFO_PATH = '/open_api/v1.3/advertiser/info/';

/**
 * `GET /advertiser/info/`: the account details of each advertiser in `advertiser_ids` (a JSON array) the token may
 * use, narrowed to `fields` when given. Fields served: advertiser_id, name, currency, timezone, display_timezone,
 * status, country (see adplatform/tiktok/config.ts for the sources).
 */
export function advertiserInfoRoute(state: FakeTikTokState): TikTokRouteDefinition {
  return {
    method: 'GET',
    path: ADVERTISER_INFO_PATH,
    scopes: ROUTE_SCOPES.advertiserGet,
    handle(call): LogicalAnswer {
      const ids = jsonStringArray(call.query, 'advertiser_ids', true);
      if (!ids.ok) return ids.answer;
      const advertiserIds = ids.value ?? [];
      if (advertiserIds.length === 0) return parameterError('Invalid value for advertiser_ids: must list at least one advertiser ID.');
      const fields = jsonStringArray(call.query, 'fields', false);
      if (!fields.ok) return fields.answer;
      const denied = advertiserIds.find((id) => !call.grant.advertiserIds.includes(id));
      if (denied !== undefined) return noAdvertiserPermission(denied);

      const list = advertiserIds.map((id) => {
        const seed = state.catalog.advertiser(id)?.seed;
        const info: Record<string, unknown> = {
          advertiser_id: id,
          name: seed?.advertiserName ?? `Advertiser ${id}`,
          currency: seed?.currency ?? 'USD',
          timezone: seed?.timeZone ?? 'Etc/GMT',
          display_timezone: seed?.timeZone ?? 'Etc/GMT',
          status: 'STATUS_ENABLE',
          country: 'US',
        };
        return fields.value === undefined ? info : Object.fromEntries(Object.entries(info).filter(([name]) => name === 'advertiser_id' || fields.value?.includes(name)));
      });
      return { ...OK, data: { list } };
    },
  };
}
