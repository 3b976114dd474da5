import type { AdStatsRepository, DailyStatInput } from '../../db/repositories/ad-stats';
import { createTikTokClient, type TikTokClient } from '../tiktok';
import { generateAdvertiser, startFakeTikTok, type FakeTikTok } from '../../devstack/tiktok-fake';
import { pullReportRange, type AdStatsPullContext, type PullProgress } from './pull';

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
