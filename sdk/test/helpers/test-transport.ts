import * as zlib from 'zlib';

import { RequestTimeoutError, type Transport, type TransportRequest, type TransportResponse } from '../../src/transport.js';
import { waitUntil } from './wait.js';

/** A message as the test transport decoded it from a request body. */
export type SentMessage = Record<string, unknown> & { messageId: string; type: string };

export interface RecordedRequest {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Size of the body before gzip. */
  uncompressedBytes: number;
  batch: SentMessage[];
  sentAt: string;
}

/**
 * How the transport answers one request: an HTTP response; `{ networkError }` for a request that got no response;
 * `'timeout'`, which rejects once the request's timeoutMs has passed on the (fake) clock; or a function for full
 * control, e.g. to hold a request in flight.
 */
export type Reply =
  | { status: number; headers?: Record<string, string>; body?: string }
  | { networkError: string }
  | 'timeout'
  | ((request: RecordedRequest) => Promise<TransportResponse>);

export const OK: Reply = { status: 200, body: '{"success":true}' };

/** An in-memory transport that decodes every request and answers from a script (200 once the script is used up). */
export class TestTransport implements Transport {
  readonly requests: RecordedRequest[] = [];
  closeCalls = 0;
  private readonly replies: Reply[] = [];

  /** Queues replies for the next requests, in order. */
  reply(...replies: Reply[]): this {
    this.replies.push(...replies);
    return this;
  }

  /** Every message of every request, in the order sent (retries included). */
  get messages(): SentMessage[] {
    return this.requests.flatMap((request) => request.batch);
  }

  waitForRequests(count: number): Promise<void> {
    return waitUntil(() => this.requests.length >= count, `${count} requests (got ${this.requests.length})`);
  }

  send(request: TransportRequest): Promise<TransportResponse> {
    const json = zlib.gunzipSync(request.body);
    const body = JSON.parse(json.toString('utf8')) as { batch: SentMessage[]; sentAt: string };
    const recorded: RecordedRequest = {
      url: request.url,
      headers: request.headers,
      timeoutMs: request.timeoutMs,
      uncompressedBytes: json.length,
      batch: body.batch,
      sentAt: body.sentAt,
    };
    this.requests.push(recorded);
    const reply = this.replies.shift() ?? OK;
    if (typeof reply === 'function') return reply(recorded);
    if (reply === 'timeout') {
      return new Promise((_, reject) => setTimeout(() => reject(new RequestTimeoutError(request.timeoutMs)), request.timeoutMs));
    }
    if ('networkError' in reply) return Promise.reject(new Error(reply.networkError));
    return Promise.resolve({ status: reply.status, headers: lowerCaseKeys(reply.headers ?? {}), body: reply.body ?? '' });
  }

  close(): void {
    this.closeCalls += 1;
  }
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) result[name.toLowerCase()] = value;
  return result;
}
