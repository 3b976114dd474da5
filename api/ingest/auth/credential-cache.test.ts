import type { ApiKey } from '../../../db/repositories/api-keys';
import type { ConversionRule } from '../../../db/repositories/conversion-rules';
import type { Workspace } from '../../../db/repositories/workspaces';
import { createCredentialCache } from './credential-cache';

const workspace: Workspace = { id: 'ws_1', name: 'Shop', attributionWindowDays: 30, testMode: false, testEventCode: null, defaultPhoneRegion: 'US', allowedOrigins: ['https://shop.example'], consentRequired: false, exchangeRates: {}, eventRetentionDays: 30, conversionRetentionDays: 90, matchWithoutClick: false, pipelinePartitions: 1, browserPixel: 'load', limitedDataUse: false, createdAt: new Date() };
const apiKey: ApiKey = { id: 'key_1', workspaceId: 'ws_1', name: 'backend', kind: 'secret', displayPrefix: 'dk_abcdef', createdAt: new Date(), revokedAt: null };

const purchase: ConversionRule = { sourceEvent: 'purchase', tiktokEvent: 'CompletePayment', alsoSendAs: [], valueSource: 'order_total', fixedValue: null, currency: null, serverOnly: false, destination: 'auto' };
const refund: ConversionRule = { sourceEvent: 'refund_confirmed', tiktokEvent: 'refund_confirmed', alsoSendAs: [], valueSource: 'none', fixedValue: null, currency: null, serverOnly: true, destination: 'auto' };
const qualified: ConversionRule = { ...refund, sourceEvent: 'LeadQualified', tiktokEvent: 'LeadQualified', serverOnly: false, destination: 'crm' };

/** A key store whose answers can be changed and whose lookups can be held open. */
function fakeRepos() {
  const state = { active: true, lookups: 0, hold: undefined as Promise<void> | undefined, pixelCode: 'CPIXEL0001' as string | null, rules: [purchase, refund, qualified], pixelLookups: 0 };
  return {
    state,
    repos: {
      apiKeys: {
        findActive: async (key: string) => {
          state.lookups += 1;
          const active = state.active;
          await state.hold;
          return active && key === 'dk_good' ? apiKey : undefined;
        },
      },
      workspaces: {
        find: async (id: string) => (id === workspace.id ? workspace : undefined),
        anyAllowsOrigin: async (origin: string) => {
          state.lookups += 1;
          return state.active && workspace.allowedOrigins.includes(origin);
        },
      },
      conversionRules: {
        list: async (workspaceId: string) => {
          state.pixelLookups += 1;
          return workspaceId === workspace.id ? state.rules : [];
        },
      },
      tiktokConnections: { summary: async (workspaceId: string) => (workspaceId === workspace.id ? { pixelCode: state.pixelCode } : undefined) },
    },
  };
}

describe('credential cache', () => {
  it('reuses a lookup until it expires', async () => {
    let now = 0;
    const { state, repos } = fakeRepos();
    const cache = createCredentialCache(repos, { ttlMs: 5_000, now: () => now });
    expect(await cache.resolve('dk_good')).toEqual({ apiKey, workspace });
    state.active = false;
    now = 4_999;
    expect(await cache.resolve('dk_good')).toEqual({ apiKey, workspace });
    now = 5_000;
    expect(await cache.resolve('dk_good')).toBeUndefined();
    expect(state.lookups).toBe(2);
  });

  it('forgets everything on clear(), and does not cache a lookup that was in flight during clear()', async () => {
    const { state, repos } = fakeRepos();
    const cache = createCredentialCache(repos);
    let release = () => undefined as void;
    state.hold = new Promise<void>((resolve) => (release = resolve));
    const inFlight = cache.resolve('dk_good');
    state.active = false;
    cache.clear();
    release();
    expect(await inFlight).toEqual({ apiKey, workspace });
    state.hold = undefined;
    expect(await cache.resolve('dk_good')).toBeUndefined();
  });

  it('looks a key up once for all the requests that miss the cache while its lookup is under way', async () => {
    const { state, repos } = fakeRepos();
    const cache = createCredentialCache(repos);
    let release = () => undefined as void;
    state.hold = new Promise<void>((resolve) => (release = resolve));
    const waiting = Array.from({ length: 50 }, () => cache.resolve('dk_good'));
    release();
    expect(await Promise.all(waiting)).toEqual(Array.from({ length: 50 }, () => ({ apiKey, workspace })));
    expect(state.lookups).toBe(1);
  });

  it('does not hand a lookup that was under way during clear() to a request made after it', async () => {
    const { state, repos } = fakeRepos();
    const cache = createCredentialCache(repos);
    let release = () => undefined as void;
    state.hold = new Promise<void>((resolve) => (release = resolve));
    const before = cache.resolve('dk_good');
    state.active = false;
    cache.clear();
    const after = cache.resolve('dk_good');
    release();
    expect(await before).toEqual({ apiKey, workspace });
    expect(await after).toBeUndefined();
    expect(state.lookups).toBe(2);
  });

  it('hands a cached credential over without waiting, and nothing for a key not cached, expired or cleared', async () => {
    let now = 0;
    const { repos } = fakeRepos();
    const cache = createCredentialCache(repos, { ttlMs: 5_000, now: () => now });
    expect(cache.cached('dk_good')).toBeUndefined();
    await cache.resolve('dk_good');
    expect(cache.cached('dk_good')).toEqual({ apiKey, workspace });
    expect(cache.cached('dk_other')).toBeUndefined();
    now = 5_000;
    expect(cache.cached('dk_good')).toBeUndefined();
    await cache.resolve('dk_good');
    cache.clear();
    expect(cache.cached('dk_good')).toBeUndefined();
  });

  it("caches a workspace's pixel code and the rules the pixel may see (not server-only, not sent to another source than the website) until it expires or clear()", async () => {
    let now = 0;
    const { state, repos } = fakeRepos();
    const cache = createCredentialCache(repos, { ttlMs: 5_000, now: () => now });
    expect(await cache.pixelSetup(workspace.id)).toEqual({ code: 'CPIXEL0001', rules: [purchase] });
    state.pixelCode = null;
    state.rules = [];
    now = 4_999;
    expect(await Promise.all([cache.pixelSetup(workspace.id), cache.pixelSetup(workspace.id)])).toEqual([
      { code: 'CPIXEL0001', rules: [purchase] },
      { code: 'CPIXEL0001', rules: [purchase] },
    ]);
    expect(state.pixelLookups).toBe(1);
    cache.clear();
    expect(await cache.pixelSetup(workspace.id)).toEqual({ code: null, rules: [] });
    state.rules = [purchase];
    now = 10_000;
    expect(await cache.pixelSetup(workspace.id)).toEqual({ code: null, rules: [purchase] });
    expect(state.pixelLookups).toBe(3);
  });

  it('caches origin answers next to keys, and clear() forgets both', async () => {
    const { state, repos } = fakeRepos();
    const cache = createCredentialCache(repos);
    expect(await cache.anyWorkspaceAllowsOrigin('https://shop.example')).toBe(true);
    expect(await cache.anyWorkspaceAllowsOrigin('https://elsewhere.example')).toBe(false);
    expect(await cache.resolve('dk_good')).toEqual({ apiKey, workspace });
    state.active = false;
    expect(await cache.anyWorkspaceAllowsOrigin('https://shop.example')).toBe(true);
    expect(state.lookups).toBe(3);
    cache.clear();
    expect(await cache.anyWorkspaceAllowsOrigin('https://shop.example')).toBe(false);
    expect(await cache.resolve('dk_good')).toBeUndefined();
  });
});
