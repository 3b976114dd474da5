import { createServer } from 'node:http';
import { reservePort } from '../../devstack/ports';

export interface WebhookReceiver {
  url: string;
  /** The JSON bodies received, oldest first (failed answers included). */
  received: unknown[];
  /** The status the next requests are answered with (default 200). */
  answerWith(status: number): void;
  close(): Promise<void>;
}

/** A real HTTP server on a reserved port standing in for Slack's incoming webhook. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const reserved = await reservePort();
  const received: unknown[] = [];
  let status = 200;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'no_service');
    });
  });
  await new Promise<void>((resolve) => server.listen(reserved.port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${reserved.port}/services/T000/B000/XXXX`,
    received,
    answerWith: (next) => {
      status = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          reserved.release();
          resolve();
        });
      }),
  };
}
