import path from 'node:path';
import { soakOptionsFromEnv } from './options';
import { formatReport } from './report';
import { runSoak } from './soak';

/**
 * `npm run bench:soak`: 20 minutes (SOAK_MINUTES) of mixed load on the built services while processes are killed
 * and TikTok fails in bursts; prints the figures and PASS or FAIL, and exits non-zero on FAIL.
 */
async function main(): Promise<void> {
  const options = soakOptionsFromEnv();
  console.log(`soak: ${options.durationMs / 60_000} minutes, ${options.journeysPerSecond} journeys/s, a kill every ~${options.killEveryMs / 1000} s, a TikTok burst every ~${options.burstEveryMs / 1000} s`);
  const report = await runSoak(options, path.join(__dirname, '..', '..'), console.log);
  for (const line of formatReport(report)) console.log(line);
  process.exitCode = report.pass ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
