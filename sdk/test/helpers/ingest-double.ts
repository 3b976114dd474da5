import * as http from 'http';
import type { AddressInfo, Socket } from 'net';
import * as zlib from 'zlib';

import { checkMessage, formatIssue, MAX_BATCH_BYTES, MAX_EVENTS_PER_BATCH } from '../../src/rules/index.js';

/** What the double does with the next request instead of (or after) handling it normally. */
export type Fault =
  /** Answer with this status (and Retry-After) without storing anything. */
  | { status: number; retryAfter?: string }
  /** Store the batch, then answer with this status: the client never learns it was committed. */
  | { commitThenStatus: number; retryAfter?: string }
  /** Never answer. */
  | 'hang'
  /** Close the connection without answering. */
  | 'reset';

type StoredMessage = Record<string, unknown> & { messageId: string };

interface ExtraRule {
  matches: (message: StoredMessage) => boolean;
  problem: string;
}

/**
 * A local ingest API that plays the wire contract honestly (DESIGN.md, "Wire contract of the ingest API"):
 * `POST /v1/batch`, Bearer or Basic auth with known keys, gzip bodies, the batch and message limits, 400 naming bad
 * fields by index, and idempotent storage by messageId. Faults can be scripted per request.
 */
export class IngestDouble {
  /** Accepted messages, one per messageId. */
  readonly stored = new Map<string, StoredMessage>();
  /** Messages that arrived again with a messageId already stored. */
  duplicates = 0;
  /** Status code of every response, in order. */
  readonly statuses: number[] = [];
  private readonly faults: Fault[] = [];
  private extraRule: ExtraRule | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly server = http.createServer((req, res) => this.handle(req, res));

  constructor(private readonly apiKeys: ReadonlySet<string>) {}

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      // Also ends keep-alive sockets and requests left hanging on purpose.
      for (const socket of this.sockets) socket.destroy();
    });
  }

  /**
   * Also refuses messages that `matches`, as a newer server with a rule this client does not know would: a 400
   * naming each by index with `problem`.
   */
  refuseMessages(matches: (message: StoredMessage) => boolean, problem: string): this {
    this.extraRule = { matches, problem };
    return this;
  }

  failNext(...faults: Fault[]): this {
    this.faults.push(...faults);
    return this;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.sockets.add(req.socket);
    req.socket.once('close', () => this.sockets.delete(req.socket));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => this.respond(req, Buffer.concat(chunks), res));
  }

  private respond(req: http.IncomingMessage, raw: Buffer, res: http.ServerResponse): void {
    const send = (status: number, body: object, headers: Record<string, string> = {}): void => {
      this.statuses.push(status);
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== '/v1/batch') {
      return send(404, { error: 'not_found', message: `no route ${req.method} ${req.url}` });
    }
    if (!this.apiKeys.has(apiKeyOf(req.headers.authorization))) {
      return send(401, { error: 'unauthorized', message: 'unknown or revoked API key' });
    }
    const fault = this.faults.shift();
    if (fault === 'hang') return;
    if (fault === 'reset') {
      req.socket.destroy();
      return;
    }
    let json: Buffer;
    try {
      json = req.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(raw, { maxOutputLength: MAX_BATCH_BYTES + 1 }) : raw;
    } catch {
      return send(413, { error: 'too_large', message: `body is over ${MAX_BATCH_BYTES} bytes uncompressed, or not gzip` });
    }
    if (json.length > MAX_BATCH_BYTES) {
      return send(413, { error: 'too_large', message: `body is ${json.length} bytes, over ${MAX_BATCH_BYTES}` });
    }
    const problem = validateBatch(json, this.extraRule);
    if (!Array.isArray(problem)) return send(400, { error: 'invalid_request', ...problem });
    if (fault && 'status' in fault) {
      return send(fault.status, { error: 'fault', message: `scripted ${fault.status}` }, retryAfter(fault.retryAfter));
    }
    for (const message of problem) {
      if (this.stored.has(message.messageId)) this.duplicates += 1;
      else this.stored.set(message.messageId, message);
    }
    if (fault) {
      return send(fault.commitThenStatus, { error: 'fault', message: `scripted ${fault.commitThenStatus} after commit` }, retryAfter(fault.retryAfter));
    }
    send(200, { success: true });
  }
}

function retryAfter(value: string | undefined): Record<string, string> {
  return value === undefined ? {} : { 'Retry-After': value };
}

/** The API key from `Bearer <key>` or Basic auth with the key as user name. */
function apiKeyOf(authorization: string | undefined): string {
  if (!authorization) return '';
  const [scheme, value = ''] = authorization.split(' ');
  if (scheme === 'Bearer') return value;
  if (scheme === 'Basic') return Buffer.from(value, 'base64').toString('utf8').split(':')[0];
  return '';
}

/** The batch's messages, or the ingest API's 400 body naming every bad field by index, by the same rules. */
function validateBatch(json: Buffer, extraRule: ExtraRule | undefined): StoredMessage[] | { message: string; issues: string[] } {
  let body: unknown;
  try {
    body = JSON.parse(json.toString('utf8'));
  } catch {
    return { message: 'body is not valid JSON', issues: [] };
  }
  const batch = (body as { batch?: unknown }).batch;
  if (!Array.isArray(batch) || batch.length === 0) return { message: 'batch must be a non-empty array', issues: [] };
  if (batch.length > MAX_EVENTS_PER_BATCH) return { message: `batch must hold at most ${MAX_EVENTS_PER_BATCH} messages`, issues: [] };
  const issues: string[] = [];
  const messages: StoredMessage[] = [];
  batch.forEach((raw: unknown, index) => {
    const check = checkMessage(raw);
    if (!check.ok) issues.push(...check.issues.map((issue) => formatIssue(issue, `batch[${index}]`)));
    else if (extraRule?.matches(raw as StoredMessage)) issues.push(`batch[${index}] ${extraRule.problem}`);
    else messages.push(raw as StoredMessage);
  });
  return issues.length > 0 ? { message: issues[0], issues } : messages;
}
