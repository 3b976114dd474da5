import type { GeneratedAdvertiserShape } from '../../devstack/tiktok-fake';

export const BENCH_TOKEN = 'bench-ad-stats-token';
/** 20 campaigns × 10 ad groups × 10 ads = 2,000 ads. */
export const BENCH_ADVERTISER: GeneratedAdvertiserShape = { advertiserId: '7500000000000000001', campaigns: 20, adGroupsPerCampaign: 10, adsPerAdGroup: 10 };
export const BENCH_DAYS = 90;
