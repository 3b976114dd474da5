import { readFileSync } from 'node:fs';
import { descendantsOf } from '../../test/setup/process-tree';
import type { WatchedProcess } from './stack';

/** A process's memory at one moment: milliseconds after the load started, and bytes. */
export interface MemorySample {
  atMs: number;
  bytes: number;
}

/** One process (one PID: a restarted process is a new series) and its samples. */
export interface MemorySeries {
  name: string;
  pid: number;
  /** What `bytes` is: `RSS`, or for PostgreSQL `private (PSS anon)` summed over the postmaster and its children. */
  measure: string;
  samples: MemorySample[];
}

/** From /proc/<pid>/status (kB); undefined once the process is gone. */
function rssBytes(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

function pssAnonBytes(pid: number): number {
  try {
    const match = /^Pss_Anon:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0; // ended meanwhile
  }
}

/**
 * PostgreSQL's own memory: each process's anonymous pages, shared ones split among their sharers (PSS), summed over
 * the postmaster and every backend and helper. Shared buffers are left out: they fill up to `shared_buffers` by design,
 * and summing each backend's RSS would count them once per backend.
 */
function clusterBytes(postmaster: number): number | undefined {
  if (rssBytes(postmaster) === undefined) return undefined;
  return [postmaster, ...descendantsOf(postmaster).map((entry) => entry.pid)].reduce((sum, pid) => sum + pssAnonBytes(pid), 0);
}

export interface MemorySampler {
  stop(): MemorySeries[];
}

/** Reads the memory of every process `processes()` lists every `everyMs`, from now until stopped. */
export function startMemorySampler(processes: () => WatchedProcess[], everyMs: number, startedAt: number): MemorySampler {
  const series = new Map<string, MemorySeries>();
  const sample = () => {
    const atMs = performance.now() - startedAt;
    for (const process of processes()) {
      const bytes = process.cluster ? clusterBytes(process.pid) : rssBytes(process.pid);
      if (bytes === undefined) continue;
      const key = `${process.name}:${process.pid}`;
      const entry = series.get(key) ?? { name: process.name, pid: process.pid, measure: process.cluster ? 'private (PSS anon)' : 'RSS', samples: [] };
      series.set(key, entry);
      entry.samples.push({ atMs, bytes });
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return [...series.values()];
    },
  };
}

/** Growth allowed between the window's first and last quarter: room for the garbage collector's and allocator's swings. */
export const ALLOWED_GROWTH = 0.1;
/** Memory must not grow over the load's last 10 minutes… */
export const MEMORY_WINDOW_MS = 10 * 60_000;
/**
 * …after at least 5 minutes of warm-up. Shorter runs are not judged: the Node processes' RSS swings by 20–30% within
 * a minute or two (a major collection returns pages, the heap grows back), which only 2.5-minute medians smooth out.
 */
export const MEMORY_WARM_UP_MS = 5 * 60_000;

export interface Flatness {
  series: MemorySeries;
  /** Medians of the samples in the window's first and last quarter. */
  firstQuarterBytes: number;
  lastQuarterBytes: number;
  growth: number;
  flat: boolean;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * The memory test. The window is [`fromMs`, `toMs`] (the load's last 10 minutes). A process is judged when one PID
 * of it was sampled from the window's start to its end (within one sampling interval of each); a process restarted
 * inside the window is not judged. Its samples in the window are cut into quarters by time, and it is flat when the
 * median of the last quarter is at most 10% above the median of the first.
 */
export function judgeMemory(all: readonly MemorySeries[], fromMs: number, toMs: number, everyMs: number): Flatness[] {
  const quarter = (toMs - fromMs) / 4;
  return all.flatMap((series) => {
    const inWindow = series.samples.filter((s) => s.atMs >= fromMs && s.atMs <= toMs);
    const spans = inWindow.length > 0 && (inWindow[0] as MemorySample).atMs <= fromMs + everyMs && (inWindow.at(-1) as MemorySample).atMs >= toMs - everyMs;
    if (!spans) return [];
    const firstQuarterBytes = median(inWindow.filter((s) => s.atMs <= fromMs + quarter).map((s) => s.bytes));
    const lastQuarterBytes = median(inWindow.filter((s) => s.atMs >= toMs - quarter).map((s) => s.bytes));
    const growth = lastQuarterBytes / firstQuarterBytes - 1;
    return [{ series, firstQuarterBytes, lastQuarterBytes, growth, flat: lastQuarterBytes <= firstQuarterBytes * (1 + ALLOWED_GROWTH) }];
  });
}
