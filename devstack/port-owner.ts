import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Inodes of the sockets listening on TCP `port`; undefined where the system has no /proc/net/tcp (not Linux). */
function listeningInodes(port: number): Set<string> | undefined {
  const inodes = new Set<string>();
  let readable = false;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    readable = true;
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st …: the address is HEXADDR:HEXPORT, state 0A is LISTEN, the 10th column the inode.
      const fields = line.trim().split(/\s+/);
      if (fields[3] === '0A' && parseInt(fields[1]?.split(':')[1] ?? '', 16) === port && fields[9] !== undefined) inodes.add(fields[9]);
    }
  }
  return readable ? inodes : undefined;
}

function holdsAny(pid: number, inodes: Set<string>): boolean {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false; // gone, or not ours to read
  }
  return fds.some((fd) => {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      return inode !== undefined && inodes.has(inode);
    } catch {
      return false; // closed meanwhile
    }
  });
}

/** Whether process `pid` listens on TCP `port`; undefined where the system cannot tell. */
export function listensOn(pid: number, port: number): boolean | undefined {
  const inodes = listeningInodes(port);
  return inodes === undefined ? undefined : holdsAny(pid, inodes);
}

/** Who listens on TCP `port`, as "pid N (command line)", for an error message. */
export function listenersOf(port: number): string[] {
  const inodes = listeningInodes(port);
  if (inodes === undefined || inodes.size === 0) return [];
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && holdsAny(Number(entry), inodes))
    .map((pid) => {
      let command = '';
      try {
        command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      } catch {
        // ended meanwhile
      }
      return `pid ${pid} (${command.slice(0, 120)})`;
    });
}

/**
 * Throws when something answers on `port` but process `pid` (the server just started for it) does not listen there:
 * another program took the port, and what answered is not the server a caller is about to use.
 */
export function assertListensOn(pid: number | undefined, port: number, name: string): void {
  if (pid === undefined || port === 0 || listensOn(pid, port) !== false) return;
  const others = listenersOf(port);
  throw new Error(`${name} (pid ${pid}) does not listen on port ${port}: ${others.length > 0 ? others.join(', ') : 'another program'} answers there instead`);
}
