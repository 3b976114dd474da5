import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's utime and stime (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

function statFields(pid: string): { comm: string; cpuSeconds: number; systemSeconds: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const commEnd = stat.lastIndexOf(')');
    const fields = stat.slice(commEnd + 2).split(' ');
    return { comm: stat.slice(stat.indexOf('(') + 1, commEnd), cpuSeconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND, systemSeconds: Number(fields[12]) / TICKS_PER_SECOND };
  } catch {
    return undefined; // gone meanwhile
  }
}

/** CPU seconds (user and system) process `pid` has used so far; undefined once it is gone. */
export const cpuSecondsOf = (pid: number): number | undefined => statFields(String(pid))?.cpuSeconds;

/** Per process: its part, its CPU seconds (user and system) and of those the system's (the kernel's work for it). */
export type CpuSnapshot = Map<string, { part: string; cpuSeconds: number; systemSeconds: number }>;

/**
 * CPU seconds used so far by each process of the pipeline (Linux /proc), by part: the named processes, the PostgreSQL
 * server (every `postgres` process) and the Temporal dev server.
 */
export function cpuSnapshot(named: Record<string, number | undefined>): CpuSnapshot {
  const processes: CpuSnapshot = new Map();
  const byPid = new Map(Object.entries(named).map(([name, pid]) => [String(pid), name]));
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    const stat = statFields(pid);
    if (stat === undefined) continue;
    const part = byPid.get(pid) ?? (stat.comm === 'postgres' ? 'PostgreSQL' : stat.comm === 'temporal' ? 'Temporal dev server' : undefined);
    if (part !== undefined) processes.set(pid, { part, cpuSeconds: stat.cpuSeconds, systemSeconds: stat.systemSeconds });
  }
  return processes;
}

/** CPU seconds each part used between two snapshots, as `part 1.2 s` items; a process that ended meanwhile is not counted. */
export function cpuUsed(before: CpuSnapshot, after: CpuSnapshot): string {
  const parts = new Map<string, number>();
  for (const [pid, { part, cpuSeconds }] of after) parts.set(part, (parts.get(part) ?? 0) + cpuSeconds - (before.get(pid)?.cpuSeconds ?? 0));
  return [...parts].map(([part, seconds]) => `${part} ${seconds.toFixed(1)} s`).join(', ');
}
