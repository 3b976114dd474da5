import { SOURCES } from '../soak/ledger';
import type { UpgradeOptions, UpgradeReport } from './upgrade';

const count = (n: number) => n.toLocaleString('en-US');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The upgrade's figures and verdict as `npm run test:upgrade` prints them. */
export function formatUpgradeReport(report: UpgradeReport, options: UpgradeOptions): string[] {
  const { ledger } = report;
  const lines = ['', `== Upgrade from ${report.from} to this build, ${count(report.journeys)} journeys at ${options.journeysPerSecond}/s over ${seconds(report.loadMs)}`];
  for (const step of report.steps) {
    lines.push(`at ${seconds(step.atMs)}: ${step.name}, ${seconds(step.tookMs)}`);
    for (const line of step.output.split('\n').filter((l) => l !== '')) lines.push(`    ${line}`);
  }
  lines.push('', '== Requests (through the load balancer)');
  for (const source of SOURCES) lines.push(`${source.padEnd(4)} answered: ${[...ledger.answers[source]].map(([answer, n]) => `${answer} ×${count(n)}`).join(', ')}`);
  lines.push(`${count(ledger.sent.size)} messages sent, ${count(ledger.acknowledged.size)} acknowledged`);
  lines.push(`longest stretch with conversions refused and none acknowledged: ${seconds(report.refusal.ms)}${report.refusal.ms > 0 ? ` (from ${seconds(report.refusal.fromMs)})` : ''}`);
  lines.push(`longest pause between deliveries to TikTok from the first step on: ${seconds(report.pause.ms)}`);
  lines.push('', '== Verdict');
  for (const check of report.checks) lines.push(`${check.outcome}  ${check.name}: ${check.detail}`);
  lines.push('', `UPGRADE ${report.pass ? 'PASS' : 'FAIL'}`);
  return lines;
}
