export { buildFakeTikTokApp, type FakeTikTokAppOptions } from './app';
export { createFakeTikTokControl, type FakeAuthCodeRequest, type FakeClick, type FakeTikTokControl } from './control-client';
export type { FakeTikTokFault } from './faults';
export type { CountedEvent, FakePixelCounts } from './pixel-counts';
export type { FakeTikTokReceived, PixelIdentity, ReceivedEvent, ReceivedPixelCall, ReceivedRequest } from './received-log';
export { EVENT_TRACK_PATH } from './routes/event-track';
export { ADVERTISER_INFO_PATH } from './routes/advertiser-info';
export { AUTHORIZATION_PAGE_PATH } from './routes/authorization-page';
export { AD_GET_PATH, ADGROUP_GET_PATH, CAMPAIGN_GET_PATH } from './routes/entities';
export { OAUTH_ACCESS_TOKEN_PATH, OAUTH_ADVERTISER_GET_PATH } from './routes/oauth';
export { PIXEL_REPORT_PATH, PIXEL_SCRIPT_PATH } from './routes/pixel';
export { PIXEL_LIST_PATH } from './routes/pixel-list';
export { CRM_LIST_PATH, OFFLINE_GET_PATH } from './routes/event-set-list';
export { REPORT_INTEGRATED_PATH } from './routes/report';
export { FAKE_SCOPES, FULL_GRANT_SCOPES } from './scopes';
export {
  DEFAULT_FAKE_TIKTOK_SEED,
  FAKE_TIKTOK_ACCESS_TOKEN,
  FAKE_TIKTOK_ADVERTISER_ID,
  FAKE_TIKTOK_APP_ID,
  FAKE_TIKTOK_APP_SECRET,
  FAKE_TIKTOK_CRM_EVENT_SET_ID,
  FAKE_TIKTOK_OFFLINE_EVENT_SET_ID,
  FAKE_TIKTOK_PIXEL_CODE,
  FAKE_TIKTOK_SECOND_ADVERTISER_ID,
  generateAdvertiser,
  SIGNALBOX_LANDING_URL_TEMPLATE,
  type FakeTikTokAdvertiserSeed,
  type FakeTikTokApp,
  type FakeTikTokEventSetSeed,
  type FakeTikTokSeed,
  type FakeTikTokTokenGrant,
  type GeneratedAdvertiserShape,
} from './seed';
export { startFakeTikTok, type FakeTikTok, type StartFakeTikTokOptions } from './start';
