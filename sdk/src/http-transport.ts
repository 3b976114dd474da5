import * as http from 'http';
import * as https from 'https';

import { RequestTimeoutError, type Transport, type TransportRequest, type TransportResponse } from './transport.js';

/** Enough of an error body to explain it; the rest is read and discarded so the socket can be reused. */
const MAX_RESPONSE_BODY_BYTES = 64 * 1024;

/** The default transport: `http`/`https` with keep-alive (Node 14 has no global fetch). */
export function createHttpTransport(maxSockets: number): Transport {
  // Idle keep-alive sockets are unref'd by Node's agent, so they never hold the process open.
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets }),
    'https:': new https.Agent({ keepAlive: true, maxSockets }),
  };
  return {
    send: (request) => post(request, agents),
    close: () => {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

function post(request: TransportRequest, agents: { 'http:': http.Agent; 'https:': https.Agent }): Promise<TransportResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(request.url);
    const secure = url.protocol === 'https:';
    const headers = { ...request.headers, 'Content-Length': String(request.body.length) };
    const options = { method: 'POST', headers, agent: secure ? agents['https:'] : agents['http:'] };
    const req = secure ? https.request(url, options) : http.request(url, options);

    let settled = false;
    // Covers the whole exchange, not only socket inactivity as `req.setTimeout` would.
    const timer = setTimeout(() => {
      finish(new RequestTimeoutError(request.timeoutMs));
      req.destroy();
    }, request.timeoutMs);
    timer.unref();
    const finish = (error: Error | undefined, response?: TransportResponse): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(response as TransportResponse);
    };

    req.on('error', (error) => finish(error));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size >= MAX_RESPONSE_BODY_BYTES) return;
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('aborted', () => finish(new Error('the connection closed before the response was complete')));
      res.on('error', (error) => finish(error));
      res.on('end', () =>
        finish(undefined, {
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.end(request.body);
  });
}
