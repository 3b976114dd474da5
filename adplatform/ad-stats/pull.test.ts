import type { AdStatsRepository, DailyStatInput } from '../../db/repositories/ad-stats';
import { createTikTokClient, type TikTokClient } from '../tiktok';
import { generateAdvertiser, REPORT_INTEGRATED_PATH, startFakeTikTok, type FakeTikTok } from '../../devstack/tiktok-fake';
import { pullReportRange, TikTokCallFailed, type AdStatsPullContext, type PullProgress } from './pull';

const TOKEN = 'pull-test-token';
// 2 campaigns × 2 ad groups × 3 ads = 12 ads; over 10 days, 120 ad-level rows: 12 pages of 10.
const ADVERTISER = generateAdvertiser({ advertiserId: '7400000000000000001', campaigns: 2, adGroupsPerCampaign: 2, adsPerAdGroup: 3 });
const RANGE = { startDate: '2026-03-01', endDate: '2026-03-10' };
const PAGES = 12;

let fake: FakeTikTok;

beforeAll(async () => {
  fake = await startFakeTikTok({ seed: { tokens: [{ accessToken: TOKEN, pixelCodes: [], advertiserIds: [ADVERTISER.advertiserId] }], advertisers: [ADVERTISER] } });
});
afterAll(() => fake.close());

/** The real client, counting report requests in flight. */
function countingClient() {
  const client = createTikTokClient({ baseUrl: fake.url });
  const counts = { inFlight: 0, maxInFlight: 0, completed: 0 };
  const wrapped: TikTokClient = {
    ...client,
    async getReport(...args) {
      counts.inFlight += 1;
      counts.maxInFlight = Math.max(counts.maxInFlight, counts.inFlight);
      try {
        return await client.getReport(...args);
      } finally {
        counts.inFlight -= 1;
        counts.completed += 1;
      }
    },
  };
  return { client: wrapped, counts };
}

type StorePage = AdStatsRepository['storePage'];

function context(tiktok: TikTokClient, storePage: StorePage, onProgress?: (p: PullProgress) => void): AdStatsPullContext {
  const adStats = { storePage, upsertEntities: () => Promise.resolve(), upsertDaily: () => Promise.resolve(0) } as AdStatsRepository;
  return { tiktok, adStats, workspaceId: 'ws_pull', advertiserId: ADVERTISER.advertiserId, accessToken: TOKEN, concurrency: 3, pageSize: 10, onProgress };
}

describe('pullReportRange', () => {
  it('stores every page once, fetching the next pages (never more than `concurrency` at once) while a page is stored', async () => {
    const { client, counts } = countingClient();
    const stored: DailyStatInput[] = [];
    const progress: PullProgress[] = [];
    let firstStore = true;
    const storePage: StorePage = async (_workspaceId, stats) => {
      if (firstStore) {
        firstStore = false;
        // Page 1 is only stored once four more pages have arrived: a pull that stored before fetching on would hang here.
        while (counts.completed < 5) await new Promise((resolve) => setImmediate(resolve));
      }
      stored.push(...stats);
      return stats.length;
    };

    const result = await pullReportRange(context(client, storePage, (p) => progress.push(p)), 'ad', RANGE);

    expect(result).toEqual({ ranges: 1, requests: PAGES, rows: 120 });
    expect(counts.maxInFlight).toBeLessThanOrEqual(3);
    expect(new Set(stored.map((r) => `${r.entityId} ${r.statDate}`)).size).toBe(120);
    expect(progress).toHaveLength(PAGES);
    expect(progress.at(-1)).toEqual({ requests: PAGES, rows: 120 });
  });

  it('starts no further page once storing one has failed, and rejects with that failure', async () => {
    const { client, counts } = countingClient();
    let stores = 0;
    const storePage: StorePage = async (_workspaceId, stats) => {
      stores += 1;
      if (stores === 2) throw new Error('database went away');
      return stats.length;
    };

    await expect(pullReportRange(context(client, storePage), 'ad', RANGE)).rejects.toThrow('database went away');
    expect(counts.completed).toBeLessThan(PAGES);
    expect(counts.inFlight).toBe(0);
  });
});

describe('a pull retried while TikTok was failing (probe)', () => {
  const storePage: StorePage = (_workspaceId, stats) => Promise.resolve(stats.length);
  const reportAnswers = async () => (await fake.receivedEvents()).requests.filter((r) => r.path === REPORT_INTEGRATED_PATH).map((r) => r.answer?.code ?? r.answer?.httpStatus);
  const noWait = { attempts: 4, delayMs: () => 1 };
  beforeEach(() => fake.reset());

  it('tries its first call once: an outage costs one request per attempt of the pull', async () => {
    await fake.injectFaults([{ path: REPORT_INTEGRATED_PATH, httpStatus: 503, times: 10 }]);
    const error = await pullReportRange({ ...context(createTikTokClient({ baseUrl: fake.url }), storePage), retry: noWait, probe: true }, 'ad', RANGE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TikTokCallFailed);
    expect(await reportAnswers()).toEqual([503]);
  });

  it('goes back to the in-call retries once TikTok has answered', async () => {
    // The probe (page 1) is answered; page 2 is throttled twice and retried within the call, as in a first attempt.
    let calls = 0;
    const client = createTikTokClient({ baseUrl: fake.url });
    const afterFirstPage: TikTokClient = {
      ...client,
      async getReport(...args) {
        calls += 1;
        if (calls === 2) await fake.injectFaults([{ path: REPORT_INTEGRATED_PATH, code: 40100, times: 2 }]);
        return client.getReport(...args);
      },
    };
    const probed = { ...context(afterFirstPage, storePage), retry: noWait, probe: true, concurrency: 1 };
    expect(await pullReportRange(probed, 'ad', RANGE)).toEqual({ ranges: 1, requests: PAGES, rows: 120 });
    expect(probed.probe).toBe(false);
    expect((await reportAnswers()).slice(0, 4)).toEqual([0, 40100, 40100, 0]);
  });
});
