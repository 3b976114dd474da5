import { generateAdvertiser, startFakeTikTok } from '../../devstack/tiktok-fake';
import { BENCH_ADVERTISER, BENCH_TOKEN } from './workload';

/** The fake in its own process, as TikTok is remote: its CPU is not ours. Sends its URL to the parent, then serves. */
async function main(): Promise<void> {
  const advertiser = generateAdvertiser(BENCH_ADVERTISER);
  const fake = await startFakeTikTok({ seed: { tokens: [{ accessToken: BENCH_TOKEN, pixelCodes: [], advertiserIds: [advertiser.advertiserId] }], advertisers: [advertiser] } });
  process.send?.({ url: fake.url });
  // The parent asks for the CPU this process used, to show where a round's time went.
  process.on('message', (message) => {
    if (message === 'cpu') process.send?.({ cpuUsage: process.cpuUsage() });
  });
  process.once('disconnect', () => void fake.close().then(() => process.exit(0)));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
