import { execFile } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { stopChild, type Child } from '../../devstack/children';
import { reservePort, type ReservedPort } from '../../devstack/ports';
import { startFakeTikTok, type FakeTikTok } from '../../devstack/tiktok-fake';
import { serviceEnv, spawnBuiltWorker, startBuiltIngest, workerRunning } from '../../test/helpers/built-services';
import { startPrivatePostgres, type PrivatePostgres } from '../../test/helpers/private-postgres';
import { startPrivateTemporal, type PrivateTemporal } from '../../test/helpers/private-temporal';
import { TEST_ADMIN_TOKEN } from '../../test/helpers/test-app';

const run = promisify(execFile);

export const PROCESS_KINDS = ['ingest', 'worker', 'temporal', 'postgres'] as const;
export type ProcessKind = (typeof PROCESS_KINDS)[number];

/** A process whose memory is read: a Node or Temporal process by its RSS, PostgreSQL as its whole cluster. */
export interface WatchedProcess {
  name: string;
  pid: number;
  cluster: boolean;
}

export interface KillAndRestart {
  kind: ProcessKind;
  process: string;
  /** From the kill to the restart (the process is down meanwhile). */
  downMs: number;
  /** From the restart to serving again (answering HTTP, polling its task queue, accepting connections). */
  backAfterMs: number;
}

export interface SoakStack {
  /** The ingest processes' URLs: the first is the one the driver kills, the second is never killed. */
  ingestUrls: readonly [string, string];
  adminToken: string;
  fake: FakeTikTok;
  /** Every long-lived process as it runs now (a restart gives a new PID). */
  processes(): WatchedProcess[];
  /** kill -9 of this kind's process, a pause of 1–4 s, and a restart on the same data and address. */
  killAndRestart(kind: ProcessKind): Promise<KillAndRestart>;
  stop(): Promise<void>;
}

/**
 * The production shape on private parts: PostgreSQL and a Temporal dev server (history in a file) of the soak's own,
 * so that they can be killed and restarted with their data, two ingest processes and two workers of the build in
 * `code` (compiled server code: `dist/`, or compileServerCode's folder), and the fake TikTok in this process. The
 * schema is set up as a release does it, with `signalbox migrate`. One ingest and one worker are the driver's victims;
 * the other two are never killed, so that each kind has a process that lives through the whole run.
 */
export async function startSoakStack(code: string): Promise<SoakStack> {
  const stops: (() => Promise<unknown>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => console.error(error));
  };
  try {
    const [postgres, temporal, fake, ports] = await Promise.all([
      startPrivatePostgres().then(keep(stops, (p: PrivatePostgres) => p.stop())),
      startPrivateTemporal().then(keep(stops, (t: PrivateTemporal) => t.stop())),
      startFakeTikTok().then(keep(stops, (f: FakeTikTok) => f.close())),
      Promise.all([reservePort(), reservePort()]).then(keep(stops, async (reserved: ReservedPort[]) => reserved.forEach((r) => r.release()))),
    ]);
    const env = serviceEnv({ databaseUrl: postgres.url, temporalAddress: temporal.address, tiktokUrl: fake.url });
    await run(process.execPath, [path.join(code, 'cli', 'main.js'), 'migrate'], { env });

    const workers = [spawnBuiltWorker(code, env, 'worker-1'), spawnBuiltWorker(code, env, 'worker-2')];
    const ingests: Child[] = [];
    stops.push(async () => {
      for (const child of [...ingests, ...workers]) await stopChild(child);
    });
    const startIngest = (index: number) => startBuiltIngest(code, env, (ports[index] as ReservedPort).port, { name: `ingest-${index + 1}` });
    ingests.push(...(await Promise.all([startIngest(0), startIngest(1)])));
    await Promise.all(workers.map(workerRunning));

    const restarts: Record<ProcessKind, { name: string; kill(): Promise<void>; restart(): Promise<void> }> = {
      ingest: {
        name: 'ingest-1',
        kill: () => killHard(ingests[0] as Child),
        restart: async () => void (ingests[0] = await startIngest(0)),
      },
      worker: {
        name: 'worker-1',
        kill: () => killHard(workers[0] as Child),
        restart: async () => {
          workers[0] = spawnBuiltWorker(code, env, 'worker-1');
          await workerRunning(workers[0]);
        },
      },
      temporal: { name: 'temporal', kill: () => temporal.kill(), restart: () => temporal.restart() },
      postgres: { name: 'postgres', kill: () => postgres.kill(), restart: () => postgres.restart() },
    };

    return {
      ingestUrls: [`http://127.0.0.1:${ports[0]?.port}`, `http://127.0.0.1:${ports[1]?.port}`],
      adminToken: TEST_ADMIN_TOKEN,
      fake,
      processes: () => [
        ...[...ingests, ...workers].map((child) => ({ name: child.name, pid: child.process.pid as number, cluster: false })),
        { name: 'temporal', pid: temporal.pid(), cluster: false },
        { name: 'postgres', pid: postgres.postmasterPid(), cluster: true },
      ],
      async killAndRestart(kind) {
        const target = restarts[kind];
        const killedAt = performance.now();
        await target.kill();
        await sleep(1_000 + Math.random() * 3_000);
        const restartedAt = performance.now();
        await target.restart();
        return { kind, process: target.name, downMs: restartedAt - killedAt, backAfterMs: performance.now() - restartedAt };
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** Registers how to stop what just started, so that a failed start stops the parts that did start. */
function keep<T>(stops: (() => Promise<unknown>)[], stop: (started: T) => Promise<unknown>): (started: T) => T {
  return (started) => {
    stops.push(() => stop(started));
    return started;
  };
}

/** SIGKILL: no shutdown hook runs. */
async function killHard(child: Child): Promise<void> {
  child.process.kill('SIGKILL');
  await child.exited;
}
