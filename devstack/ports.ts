import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import net from 'node:net';

/** A TCP port that nothing listens on, held for this process until `release()` or its exit. */
export interface ReservedPort {
  port: number;
  release(): void;
}

/** Below this, ports other programs are configured with (PostgreSQL, Temporal, dev servers) are common. */
const LOWEST = 20_000;
const TRIES = 100;

/** The kernel's ephemeral range: it hands these ports to `listen(0)` and to outgoing connections at any moment. */
export function ephemeralRange(): { low: number; high: number } {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return { low: low as number, high: high as number };
  } catch {
    // not Linux
  }
  return { low: 49_152, high: 65_535 }; // IANA's range, which macOS and Windows use
}

function candidates(highest: number): number[] {
  const { low, high } = ephemeralRange();
  const ports: number[] = [];
  for (let port = LOWEST; port <= highest; port += 1) if (port < low || port > high) ports.push(port);
  return ports;
}

/**
 * The lock: the UDP port of the same number. The kernel gives it to one socket at a time and frees it when the
 * process dies, so two test runs never reserve the same port and a killed run leaves no stale lock.
 */
function lockUdp(port: number, host: string): Promise<dgram.Socket | undefined> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket(net.isIPv6(host) ? 'udp6' : 'udp4');
    socket.once('error', () => {
      socket.close();
      resolve(undefined);
    });
    socket.bind(port, host, () => {
      socket.removeAllListeners('error');
      socket.unref();
      resolve(socket);
    });
  });
}

function tcpFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

/** `port` reserved, or undefined when another reservation holds it or something listens on it. */
export async function tryReservingPort(port: number, host = '127.0.0.1'): Promise<ReservedPort | undefined> {
  const lock = await lockUdp(port, host);
  if (lock === undefined) return undefined;
  if (!(await tcpFree(port, host))) {
    lock.close();
    return undefined;
  }
  let held = true;
  const release = () => {
    if (held) lock.close();
    held = false;
  };
  return { port, release };
}

/**
 * A port for a server that must be told its port before it starts (a child process, a redirect URI, a restart on the
 * same address). It is outside the kernel's ephemeral range, so no outgoing connection or `listen(0)` takes it, and
 * reserved across processes, so another run of these tests on the machine does not pick it while this one holds it.
 * A server that can report its own port should listen on port 0 instead. `highest` bounds it for a server that
 * cannot take any port.
 */
export async function reservePort(host = '127.0.0.1', highest = 65_535): Promise<ReservedPort> {
  const pool = candidates(highest);
  if (pool.length === 0) throw new Error(`no port from ${LOWEST} to ${highest} lies outside the kernel's ephemeral range (${JSON.stringify(ephemeralRange())})`);
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const reserved = await tryReservingPort(pool[Math.floor(Math.random() * pool.length)] as number, host);
    if (reserved !== undefined) return reserved;
  }
  throw new Error(`no free port on ${host} outside the ephemeral range after ${TRIES} random tries`);
}
