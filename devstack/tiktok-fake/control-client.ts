import type { FakeTikTokFault } from './faults';
import type { FakePixelCounts } from './pixel-counts';
import type { FakeTikTokReceived } from './received-log';
import type { FakeTikTokTokenGrant } from './seed';

export interface FakeAuthCodeRequest {
  appId: string;
  /** Default: every seeded advertiser. */
  advertiserIds?: string[];
  /** Permission IDs as strings. Default: every first-level permission (see scopes.ts). */
  scopes?: string[];
}

/** A click on an ad as TikTok would serve it: the `ttclid` and the landing URL with the ad's IDs substituted. */
export interface FakeClick {
  ttclid: string;
  landingUrl: string;
  advertiserId: string;
  campaignId: string;
  adgroupId: string;
  adId: string;
  clickedAt: string;
}

/** Typed client of the fake's `/_fake/` control API; works against an in-process or a separate fake. */
export interface FakeTikTokControl {
  /** `POST /_fake/faults`: queue faults, consumed in order per path; a fault with `forMs` is a burst of that length. */
  injectFaults(faults: FakeTikTokFault[]): Promise<void>;
  /** `DELETE /_fake/faults`. */
  clearFaults(): Promise<void>;
  /** `GET /_fake/events`: every request received (with its answer), every accepted event, every pixel call reported. */
  receivedEvents(): Promise<FakeTikTokReceived>;
  /** `GET /_fake/pixels/:pixelCode/counts`: per event and event_id, what each channel sent and what TikTok counts. */
  pixelCounts(pixelCode: string): Promise<FakePixelCounts>;
  /** `POST /_fake/reset`: back to the seed tokens, no faults, nothing received, empty dedup store, real time. */
  reset(): Promise<void>;
  /** `POST /_fake/tokens`: add or replace an access token and what it may use. */
  registerToken(grant: FakeTikTokTokenGrant): Promise<void>;
  /** `PUT /_fake/clock`: pin the fake's now (dedup window, request_id timestamps, receivedAt). */
  setClock(now: Date): Promise<void>;
  /** `POST /_fake/oauth/codes`: an `auth_code` as if the owner had approved this grant on the authorization page. */
  issueAuthCode(request: FakeAuthCodeRequest): Promise<string>;
  /** `POST /_fake/clicks`: someone clicks this ad (at `at`, default now on the fake's clock). */
  click(adId: string, at?: Date): Promise<FakeClick>;
}

export function createFakeTikTokControl(baseUrl: string): FakeTikTokControl {
  const call = async (method: string, path: string, body?: unknown): Promise<Response> => {
    const response = await fetch(`${baseUrl.replace(/\/+$/, '')}${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) {
      throw new Error(`Fake TikTok control ${method} ${path} failed: HTTP ${response.status} ${await response.text()}`);
    }
    return response;
  };
  return {
    injectFaults: async (faults) => void (await call('POST', '/_fake/faults', { faults })),
    clearFaults: async () => void (await call('DELETE', '/_fake/faults')),
    receivedEvents: async () => (await call('GET', '/_fake/events')).json() as Promise<FakeTikTokReceived>,
    pixelCounts: async (pixelCode) => (await call('GET', `/_fake/pixels/${encodeURIComponent(pixelCode)}/counts`)).json() as Promise<FakePixelCounts>,
    reset: async () => void (await call('POST', '/_fake/reset')),
    registerToken: async (grant) => void (await call('POST', '/_fake/tokens', grant)),
    setClock: async (now) => void (await call('PUT', '/_fake/clock', { now: now.toISOString() })),
    issueAuthCode: async (request) => ((await (await call('POST', '/_fake/oauth/codes', request)).json()) as { authCode: string }).authCode,
    click: async (adId, at) => (await call('POST', '/_fake/clicks', { adId, ...(at ? { at: at.toISOString() } : {}) })).json() as Promise<FakeClick>,
  };
}
