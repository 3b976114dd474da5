import type { ClientName, CreateBenchClient } from './clients/bench-client';
import { benchEvent } from './workload';

/** What a client process reports to the runner over IPC when it is done. */
export interface ClientResult {
  startedAt: number;
  finishedAt: number;
  cpuSeconds: number;
  peakRssBytes: number;
  errors: number;
}

/** Runs in a process of its own: one library, `count` track calls in a loop, then its shutdown call. */
async function main(): Promise<void> {
  const [name, host, countArg] = process.argv.slice(2);
  const count = Number(countArg);
  const { createBenchClient } = (await import(`./clients/${name as ClientName}.js`)) as { createBenchClient: CreateBenchClient };
  const client = createBenchClient(host, count);
  const cpuBefore = process.cpuUsage();
  const startedAt = Date.now();
  for (let index = 0; index < count; index += 1) {
    const queued = client.track(benchEvent(index));
    if (queued) await queued;
  }
  await client.finish();
  const cpu = process.cpuUsage(cpuBefore);
  const result: ClientResult = {
    startedAt,
    finishedAt: Date.now(),
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    errors: client.errors(),
  };
  process.send?.(result);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
