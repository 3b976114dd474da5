import { FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_ADVERTISER_ID, FAKE_TIKTOK_PIXEL_CODE, type FakeTikTokControl } from '../../devstack/tiktok-fake';
import type { SettingsApi } from './settings-api';

/** The pages of the shops' sites (the browser keys' allowed origin). */
export const SHOP_ORIGIN = 'https://shop.example';
/** The shops' iOS app in TikTok Events Manager. */
export const SHOP_APP_ID = '7301234567890123456';

/** The events the shops' rules turn into TikTok conversions; a conversion's event_id is the order ID, else the messageId. */
export const CONVERTING_EVENTS = ['purchase', 'add_to_cart'] as const;

export interface SoakShop {
  name: string;
  workspaceId: string;
  /** A skipped conversion without a click inside the window is sent to TikTok without one instead. */
  matchWithoutClick: boolean;
  keys: { secret: string; browser: string; app: string };
}

/**
 * A workspace set up as its owner would through the settings API: browser, server and app keys, rules for purchases
 * (CompletePayment, the order total) and carts (AddToCart), the TikTok pixel with a token from Events Manager, and
 * the app's ID; the fake TikTok lets that token send for the pixel and the app.
 */
export async function createShop(api: SettingsApi, fake: FakeTikTokControl, name: string, matchWithoutClick: boolean): Promise<SoakShop> {
  const { id } = await api<{ id: string }>('POST', '/workspaces', { name });
  const at = `/workspaces/${id}`;
  await api('PATCH', `${at}/settings`, { allowedOrigins: [SHOP_ORIGIN], matchWithoutClick });
  const key = async (kind: 'secret' | 'browser' | 'app') => (await api<{ key: string }>('POST', `${at}/api-keys`, { name: `soak ${kind}`, kind })).key;
  const keys = { secret: await key('secret'), browser: await key('browser'), app: await key('app') };
  await api('PUT', `${at}/conversion-rules/purchase`, { tiktokEvent: 'CompletePayment', value: { source: 'order_total' } });
  await api('PUT', `${at}/conversion-rules/add_to_cart`, { tiktokEvent: 'AddToCart', value: { source: 'order_total' } });
  await fake.registerToken({ accessToken: FAKE_TIKTOK_ACCESS_TOKEN, pixelCodes: [FAKE_TIKTOK_PIXEL_CODE, SHOP_APP_ID], advertiserIds: [FAKE_TIKTOK_ADVERTISER_ID] });
  await api('PUT', `${at}/tiktok`, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
  await api('PUT', `${at}/tiktok/app`, { appId: SHOP_APP_ID });
  return { name, workspaceId: id, matchWithoutClick, keys };
}
