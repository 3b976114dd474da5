import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's utime and stime (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

function stat(pid: number): { parent: number; cpuSeconds: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { parent: Number(fields[1]), cpuSeconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND };
  } catch {
    return undefined; // ended meanwhile
  }
}

/** CPU seconds used so far by each part: a process, or a process and its children (PostgreSQL's backends). */
export type Parts = Record<string, { pid: number; withChildren: boolean }>;
export type CpuReading = Map<string, Map<number, number>>;

export function readCpu(parts: Parts): CpuReading {
  const all = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).map(Number);
  const reading: CpuReading = new Map();
  for (const [name, { pid, withChildren }] of Object.entries(parts)) {
    const pids = withChildren ? [pid, ...all.filter((other) => stat(other)?.parent === pid)] : [pid];
    reading.set(name, new Map(pids.flatMap((p) => {
      const s = stat(p);
      return s === undefined ? [] : [[p, s.cpuSeconds] as const];
    })));
  }
  return reading;
}

/** Seconds of CPU per part between two readings (a backend that ended in between is not counted). */
export function cpuBetween(before: CpuReading, after: CpuReading): Record<string, number> {
  const used: Record<string, number> = {};
  for (const [name, pids] of after) {
    used[name] = [...pids].reduce((sum, [pid, seconds]) => sum + seconds - (before.get(name)?.get(pid) ?? 0), 0);
  }
  return used;
}
