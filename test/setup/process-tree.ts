import { readdirSync, readFileSync } from 'node:fs';

/** A process as /proc shows it; `started` (clock ticks after boot) tells it apart from a later one given its PID. */
export interface ProcessEntry {
  pid: number;
  parent: number;
  started: string;
  command: string;
}

/** The process `pid`; undefined once it has ended. */
export function processEntry(pid: number): ProcessEntry | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (comm) ": state, ppid, …, starttime as the 20th field.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') return undefined; // ended, waiting to be reaped: nothing left to stop
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return { pid, parent: Number(fields[1]), started: fields[19] as string, command };
  } catch {
    return undefined; // ended meanwhile
  }
}

export function isRunning(entry: ProcessEntry): boolean {
  return processEntry(entry.pid)?.started === entry.started;
}

/** Every process below `root` (children, their children, …) that `keep` does not exclude, with its subtree. */
export function descendantsOf(root: number, keep: (entry: ProcessEntry) => boolean = () => true): ProcessEntry[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => processEntry(Number(name)))
    .filter((entry): entry is ProcessEntry => entry !== undefined);
  const found: ProcessEntry[] = [];
  for (let parents = new Set([root]); parents.size > 0; ) {
    const children = all.filter((entry) => parents.has(entry.parent));
    found.push(...children.filter(keep));
    parents = new Set(children.map((entry) => entry.pid));
  }
  return found;
}

/** Sends `signal` to each process still running (not a later one given its PID); returns those signalled. */
export function signalAll(processes: readonly ProcessEntry[], signal: NodeJS.Signals): ProcessEntry[] {
  return processes.filter((entry) => {
    if (!isRunning(entry)) return false;
    try {
      process.kill(entry.pid, signal);
      return true;
    } catch {
      return false; // ended meanwhile
    }
  });
}
