import type { TikTokApp, TikTokEvent, TikTokUser } from './tiktok-wire';
import { meaningfulIdentifier } from './identifiers';
import type { TrackedMessage } from './message';

type Json = Record<string, unknown>;

const ZERO_AD_ID = /^0{8}-0{4}-0{4}-0{4}-0{12}$/;

export interface AppContext {
  name?: string;
  version?: string;
  /** TikTok's device identifiers (reference §1.3): IDFA upper-case, GAID lower-case, sent unhashed. */
  device: Pick<TikTokUser, 'idfa' | 'idfv' | 'gaid' | 'att_status'>;
}

function record(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function platform(context: Json): 'ios' | 'android' | undefined {
  const name = (text(record(context.device).type) ?? text(record(context.os).name) ?? '').toLowerCase();
  if (name === 'ios' || name === 'ipados') return 'ios';
  return name === 'android' ? 'android' : undefined;
}

/**
 * The app and device as Segment's and RudderStack's mobile libraries describe them (`context.app`, `context.device`,
 * `context.os`). An advertising ID of all zeros (tracking not authorized on iOS) is no ID.
 */
export function readAppContext(message: TrackedMessage): AppContext {
  const context = record(message.context);
  const app = record(context.app);
  const device = record(context.device);
  const rawAdId = meaningfulIdentifier(device.advertisingId);
  const adId = rawAdId !== undefined && !ZERO_AD_ID.test(rawAdId) ? rawAdId : undefined;
  const tracking = device.adTrackingEnabled;
  const result: AppContext = { name: text(app.name), version: text(app.version) ?? text(app.build), device: {} };
  switch (platform(context)) {
    case 'ios':
      if (adId !== undefined && tracking !== false) result.device.idfa = adId.toUpperCase();
      if (meaningfulIdentifier(device.id) !== undefined) result.device.idfv = String(device.id).trim();
      if (typeof tracking === 'boolean') result.device.att_status = tracking ? 'AUTHORIZED' : 'DENIED';
      break;
    case 'android':
      if (adId !== undefined && tracking !== false) result.device.gaid = adId.toLowerCase();
      result.device.att_status = 'NOT_APPLICABLE';
      break;
  }
  return result;
}

/** TikTok can attribute an app event by its advertising ID without a click ID. */
export function hasAdvertisingId(app: AppContext): boolean {
  return app.device.idfa !== undefined || app.device.gaid !== undefined;
}

/** A web-shaped TikTok event turned into an app event: the app named, device IDs added, no page (reference §1.2). */
export function toAppEvent(event: TikTokEvent, app: AppContext, appId: string): TikTokEvent {
  const { page: _page, ...rest } = event;
  const described: TikTokApp = { app_id: appId };
  if (app.name !== undefined) described.app_name = app.name;
  if (app.version !== undefined) described.app_version = app.version;
  return { ...rest, user: { ...event.user, ...app.device }, app: described };
}
