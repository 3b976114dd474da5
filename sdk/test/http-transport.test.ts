import * as assert from 'assert';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as zlib from 'zlib';

import { createHttpTransport } from '../src/http-transport.js';
import type { Transport, TransportRequest } from '../src/transport.js';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  remotePort: number | undefined;
}

describe('http transport', () => {
  let server: http.Server;
  let url: string;
  let transport: Transport;
  const received: Received[] = [];
  let respond: (req: http.IncomingMessage, res: http.ServerResponse) => void;

  before(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body: zlib.gunzipSync(Buffer.concat(chunks)).toString(), remotePort: req.socket.remotePort });
        respond(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/batch`;
  });
  beforeEach(() => {
    received.length = 0;
    transport = createHttpTransport(4);
    respond = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"success":true}');
    };
  });
  afterEach(() => transport.close?.());
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function request(overrides: Partial<TransportRequest> = {}): TransportRequest {
    return {
      url,
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', Authorization: 'Bearer dk_test' },
      body: zlib.gzipSync('{"batch":[],"sentAt":"2024-05-01T12:00:00.000Z"}'),
      timeoutMs: 5_000,
      ...overrides,
    };
  }

  it('POSTs the body with its headers and Content-Length, and returns status, headers and body', async () => {
    respond = (_req, res) => {
      res.writeHead(429, { 'Retry-After': '3', 'Content-Type': 'application/json' });
      res.end('{"error":"rate_limited","message":"slow down"}');
    };
    const response = await transport.send(request());
    assert.deepStrictEqual([response.status, response.headers['retry-after'], response.body], [429, '3', '{"error":"rate_limited","message":"slow down"}']);
    const [{ headers, body }] = received;
    assert.strictEqual(body, '{"batch":[],"sentAt":"2024-05-01T12:00:00.000Z"}');
    assert.strictEqual(headers.authorization, 'Bearer dk_test');
    assert.strictEqual(headers['content-encoding'], 'gzip');
    assert.strictEqual(headers['content-length'], String(request().body.length));
  });

  it('reuses one keep-alive connection for consecutive requests', async () => {
    await transport.send(request());
    await transport.send(request());
    await transport.send(request());
    assert.strictEqual(new Set(received.map((entry) => entry.remotePort)).size, 1);
  });

  it('gives up with a timeout error when no response arrives in time', async () => {
    respond = () => undefined;
    await assert.rejects(transport.send(request({ timeoutMs: 200 })), (error: Error & { code?: string }) => {
      assert.strictEqual(error.message, 'request timed out after 200 ms');
      assert.strictEqual(error.code, 'ETIMEDOUT');
      return true;
    });
  });

  it('rejects with the network error when nothing listens', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await assert.rejects(transport.send(request({ url: `http://127.0.0.1:${port}/v1/batch` })), /ECONNREFUSED/);
  });

  it('rejects when the server drops the connection mid-response', async () => {
    respond = (req, res) => {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('partial');
      setTimeout(() => req.socket.destroy(), 20);
    };
    await assert.rejects(transport.send(request()));
  });
});
