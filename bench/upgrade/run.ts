import path from 'node:path';
import { buildRelease, previousRelease } from './previous-release';
import { formatUpgradeReport } from './report';
import { upgradeOptionsFromEnv } from './options';
import { runUpgrade } from './upgrade';

/**
 * `npm run test:upgrade`: builds the previous release (CHANGELOG.md's newest, or UPGRADE_FROM) once into a cache,
 * runs it under load, upgrades it to this build by OPERATIONS.md's sequence, prints the figures and PASS or FAIL, and
 * exits non-zero on FAIL.
 */
async function main(): Promise<void> {
  const release = previousRelease();
  const previous = await buildRelease(release, console.log);
  const current = path.join(__dirname, '..', '..');
  const options = upgradeOptionsFromEnv();
  const report = await runUpgrade(previous, current, release.name, options, console.log);
  for (const line of formatUpgradeReport(report, options)) console.log(line);
  process.exitCode = report.pass ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
