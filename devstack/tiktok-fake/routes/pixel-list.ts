import { noAdvertiserPermission, OK, type LogicalAnswer } from '../envelope';
import { ROUTE_SCOPES } from '../scopes';
import type { FakeTikTokState } from '../state';
import type { TikTokRouteDefinition } from '../tiktok-route';
import { pageInfo, paging, requiredDigits } from './params';

export const PIXEL_LIST_PATH = '/open_api/v1.3/pixel/list/';

/** `GET /pixel/list/?advertiser_id=&page=&page_size=`: page_size 1–20, default 10 (§8 [V2] SDK pixel_list.yml, GO). */
export function pixelListRoute(state: FakeTikTokState): TikTokRouteDefinition {
  return {
    method: 'GET',
    path: PIXEL_LIST_PATH,
    scopes: ROUTE_SCOPES.pixelList,
    handle(call): LogicalAnswer {
      const advertiserId = requiredDigits(call.query, 'advertiser_id');
      if (!advertiserId.ok) return advertiserId.answer;
      const pages = paging(call.query, 20);
      if (!pages.ok) return pages.answer;
      if (!call.grant.advertiserIds.includes(advertiserId.value)) return noAdvertiserPermission(advertiserId.value);

      const pixels = state.catalog.advertiser(advertiserId.value)?.seed.pixels ?? [];
      const { page, pageSize } = pages.value;
      const slice = pixels.slice((page - 1) * pageSize, page * pageSize).map((pixel) => ({
        pixel_id: pixel.pixelId,
        pixel_code: pixel.pixelCode,
        pixel_name: pixel.pixelName,
        pixel_category: 'THIRD_PARTY',
        pixel_setup_mode: 'DEVELOPER',
        create_time: '2024-01-15 09:30:00',
        partner_name: '',
        advanced_matching_fields: { email: true, phone_number: true },
        events: [],
      }));
      return { ...OK, data: { pixels: slice, page_info: pageInfo(page, pageSize, pixels.length) } };
    },
  };
}
