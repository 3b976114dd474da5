import { spawn } from 'node:child_process';
import net from 'node:net';
import { assertListensOn, listensOn } from './port-owner';

describe('who listens on a port (Linux /proc)', () => {
  let server: net.Server;
  let port: number;
  beforeAll(async () => {
    server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('tells the process listening from one that is not', async () => {
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      expect(listensOn(process.pid, port)).toBe(true);
      expect(listensOn(other.pid as number, port)).toBe(false);
      expect(() => assertListensOn(process.pid, port, 'this test')).not.toThrow();
      expect(() => assertListensOn(other.pid as number, port, 'the child')).toThrow(
        new RegExp(`^the child \\(pid ${other.pid}\\) does not listen on port ${port}: pid ${process.pid} \\(.*\\) answers there instead$`),
      );
    } finally {
      other.kill('SIGKILL');
    }
  });
});
