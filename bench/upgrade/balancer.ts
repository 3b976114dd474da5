import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A backend as the balancer sees it: its address, whether it takes traffic, and its health checks in a row. */
interface Backend {
  url: URL;
  ready: boolean;
  /** Answers in a row that disagree with `ready`: at `HealthCheck.rise` or `fall` of them, `ready` flips. */
  streak: number;
}

/** How the balancer checks `/readyz`: every `everyMs`; in after `rise` 200s in a row, out after `fall` failures. */
export interface HealthCheck {
  everyMs: number;
  rise: number;
  fall: number;
}

export interface Balancer {
  url: string;
  /** Starts checking `url`'s `/readyz`; it takes traffic from its first 200. */
  add(url: string): void;
  /** Whether `url` takes traffic. */
  isReady(url: string): boolean;
  /** Deregisters `url`: no new request goes to it. */
  remove(url: string): void;
  close(): Promise<void>;
}

/**
 * A load balancer as OPERATIONS.md asks for one in front of the API: round robin over the backends its `/readyz`
 * checks keep in rotation, and, like nginx's `proxy_next_upstream error`, the next one when a backend refuses the
 * connection. What a backend answers (a 503 included) goes back to the client as it is.
 */
export async function startBalancer(health: HealthCheck): Promise<Balancer> {
  const backends: Backend[] = [];
  let turn = 0;
  const judge = (backend: Backend, ok: boolean) => {
    backend.streak = ok === backend.ready ? 0 : backend.streak + 1;
    if (backend.streak >= (ok ? health.rise : health.fall)) [backend.ready, backend.streak] = [ok, 0];
  };
  const check = (backend: Backend) =>
    fetch(new URL('/readyz', backend.url), { signal: AbortSignal.timeout(health.everyMs) }).then(
      async (response) => {
        await response.arrayBuffer();
        judge(backend, response.status === 200);
      },
      () => judge(backend, false),
    );
  const checker = setInterval(() => backends.forEach((backend) => void check(backend)), health.everyMs);

  function forward(request: http.IncomingMessage, body: Buffer, response: http.ServerResponse, tried: Set<Backend>): void {
    const ready = backends.filter((backend) => backend.ready && !tried.has(backend));
    const backend = ready[turn++ % Math.max(ready.length, 1)];
    if (backend === undefined) {
      response.writeHead(502, { 'content-type': 'text/plain' }).end('no backend is ready');
      return;
    }
    tried.add(backend);
    const upstream = http.request(
      { host: backend.url.hostname, port: backend.url.port, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      if (response.headersSent) response.destroy();
      else forward(request, body, response, tried);
    });
    upstream.end(body);
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => forward(request, Buffer.concat(chunks), response, new Set()));
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    add(url) {
      backends.push({ url: new URL(url), ready: false, streak: 0 });
    },
    isReady: (url) => backends.some((backend) => backend.ready && backend.url.href === new URL(url).href),
    remove(url) {
      const index = backends.findIndex((backend) => backend.url.href === new URL(url).href);
      if (index >= 0) backends.splice(index, 1);
    },
    async close() {
      clearInterval(checker);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
