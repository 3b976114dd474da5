import { rmSync } from 'node:fs';
import { SHORT_UPGRADE } from '../bench/upgrade/options';
import { buildRelease, previousRelease } from '../bench/upgrade/previous-release';
import { formatUpgradeReport } from '../bench/upgrade/report';
import { runUpgrade, type UpgradeReport } from '../bench/upgrade/upgrade';
import { compileServerCode } from './helpers/built-code';

/**
 * `npm run test:upgrade` with 20 s of load either side (issue 48): the previous release (CHANGELOG.md's newest) runs a
 * worker and an API behind a load balancer that checks `/readyz`, two shops send visits, purchases and carts, and the
 * release is upgraded to this build by OPERATIONS.md's steps; then every message and conversion is accounted for. The
 * longest refusal and delivery pause are printed, not asserted (wall time on a shared machine): `npm run test:upgrade` judges them.
 */
// Building the previous release the first time (cached outside the clone after), two builds' services starting, the
// load, the drain and the accounting, on a shared machine.
jest.setTimeout(20 * 60_000);

let code: string | undefined;
let report: UpgradeReport;

beforeAll(async () => {
  const release = previousRelease();
  const previous = await buildRelease(release, console.log);
  code = await compileServerCode('upgrade-');
  report = await runUpgrade(previous, code, release.name, SHORT_UPGRADE, () => undefined);
  console.log(formatUpgradeReport(report, SHORT_UPGRADE).join('\n'));
});

afterAll(() => {
  if (code) rmSync(code, { recursive: true, force: true });
});

describe('an upgrade from the previous release under load, by the release order', () => {
  it('ran every step and kept sending', () => {
    expect(report.steps.map((step) => step.name)).toHaveLength(5);
    expect(report.ledger.acknowledged.size).toBeGreaterThan(100);
  });

  it.each([
    'every acknowledged message stored once',
    'every acknowledged purchase and cart made one conversion',
    'every conversion in a final state after the drain',
    'TikTok counted each delivered conversion once, and nothing else',
    'the batch sent before and after the upgrade stored once',
    'the load ran as designed',
  ])('%s', (name) => {
    expect(report.checks.find((check) => check.name === name)).toMatchObject({ outcome: 'PASS' });
  });
});
