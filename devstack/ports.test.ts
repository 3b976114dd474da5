import { spawn } from 'node:child_process';
import net from 'node:net';
import { createInterface } from 'node:readline';
import { ephemeralRange, reservePort, tryReservingPort, type ReservedPort } from './ports';

function listen(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

describe('reservePort', () => {
  const held: ReservedPort[] = [];
  afterEach(() => held.splice(0).forEach((reserved) => reserved.release()));

  it('gives a port outside the kernel ephemeral range that a server can listen on', async () => {
    const { low, high } = ephemeralRange();
    const reserved = await reservePort();
    held.push(reserved);
    expect(reserved.port < low || reserved.port > high).toBe(true);
    const server = await listen(reserved.port);
    await new Promise((resolve) => server.close(resolve));
  });

  it('gives none above `highest`', async () => {
    for (let n = 0; n < 50; n += 1) held.push(await reservePort('127.0.0.1', 32_767));
    expect(held.filter((reserved) => reserved.port > 32_767)).toEqual([]);
  });

  it('never gives a port that is held, though it picks at random (600 picks would repeat one without the lock)', async () => {
    for (let n = 0; n < 600; n += 1) held.push(await reservePort());
    expect(new Set(held.map((reserved) => reserved.port)).size).toBe(600);
  });
});

describe('tryReservingPort', () => {
  it('refuses a port something listens on', async () => {
    const server = await listen(0);
    try {
      expect(await tryReservingPort((server.address() as net.AddressInfo).port)).toBeUndefined();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a port another process reserved, and gives it once that process has ended', async () => {
    const free = await reservePort();
    free.release();
    // Another test run: it holds the lock (the UDP port of the same number) until it is killed.
    const other = spawn(process.execPath, ['-e', `require('node:dgram').createSocket('udp4').bind(${free.port}, '127.0.0.1', () => console.log('held'))`]);
    const exited = new Promise((resolve) => other.once('exit', resolve));
    await new Promise((resolve) => createInterface({ input: other.stdout }).once('line', resolve));
    try {
      expect(await tryReservingPort(free.port)).toBeUndefined();
    } finally {
      other.kill('SIGKILL');
      await exited;
    }
    const again = await tryReservingPort(free.port);
    again?.release();
    expect(again?.port).toBe(free.port);
  });
});
