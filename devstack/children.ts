import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createLogFormatter } from './log-format';
import { assertListensOn } from './port-owner';

export interface Child {
  name: string;
  process: ChildProcess;
  exited: Promise<number | null>;
  /** Resolves with the first output line matching `pattern`. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Calls `listener` with each output line from now on. */
  onLine(listener: (line: string) => void): void;
}

/**
 * Node's flags for the ingest API, wherever it runs (`npm start`, the image's command, the benchmarks): semi-spaces of
 * 32 MiB for V8's young generation instead of its default 16. Ingest's garbage is short-lived (each request's parsed
 * messages and the documents sent to PostgreSQL); with the default young generation its scavenges took 15% of its CPU
 * in batches, 8% with this one (BENCHMARKS.md, issue 49), for a young generation of 64 MiB instead of 32
 * (`new_space` in v8.getHeapSpaceStatistics(), measured on Node 20).
 */
export const INGEST_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Runs a Node script of the build as its own process group, so that Ctrl-C reaches only the dev stack, which then
 * stops the parts in order. Output lines are printed with the part's name.
 */
export function startNodeChild(name: string, script: string, env: NodeJS.ProcessEnv, nodeOptions: readonly string[] = []): Child {
  const child = spawn(process.execPath, [...nodeOptions, script], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child);
  const lineWaiters = new Set<(line: string) => void>();
  const formatLogLine = createLogFormatter();
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      for (const waiter of lineWaiters) waiter(line);
      const formatted = formatLogLine(line);
      if (formatted !== undefined) console.log(`[${name}] ${formatted}`);
    });
  }
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const waitForLine = (pattern: RegExp, timeoutMs = 60_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`${name} printed nothing matching ${pattern} within ${timeoutMs} ms`)), timeoutMs);
      const onLine = (line: string) => {
        const match = line.match(pattern);
        if (match) done(undefined, match);
      };
      const done = (error?: Error, match?: RegExpMatchArray) => {
        clearTimeout(timer);
        lineWaiters.delete(onLine);
        if (error) reject(error);
        else resolve(match as RegExpMatchArray);
      };
      lineWaiters.add(onLine);
      void exited.then((code) => done(new Error(`${name} exited with code ${code} while starting`)));
    });
  return { name, process: child, exited, waitForLine, onLine: (listener) => lineWaiters.add(listener) };
}

export async function stopChild(child: Child, graceMs = 20_000): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  const force = setTimeout(() => child.process.kill('SIGKILL'), graceMs);
  child.process.kill('SIGTERM');
  await child.exited;
  clearTimeout(force);
}

/**
 * Resolves once `url` answers any HTTP status, from the child itself: rejects when the child dies, when another
 * program answers on that port instead, or when time runs out.
 */
export async function waitForHttp(url: string, child: Child, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null) throw new Error(`${child.name} exited with code ${child.process.exitCode} while starting`);
    const answered = await fetch(url, { signal: AbortSignal.timeout(1000) }).then(
      async (response) => {
        await response.arrayBuffer();
        return true;
      },
      () => false,
    );
    if (answered) return assertListensOn(child.process.pid, Number(new URL(url).port), child.name);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${child.name} did not answer on ${url} within ${timeoutMs} ms`);
}
