import * as http from 'http';
import * as zlib from 'zlib';

/** Counts of one client's run, as the sink saw them. */
export interface SinkCounts {
  /** Distinct events (by `messageId`, or PostHog's `uuid`). */
  events: number;
  /** Events received again: the same ID in a later request, after a retry. */
  duplicates: number;
  requests: number;
  /** `Date.now()` when the last new event was counted. */
  lastEventAt: number;
}

function emptyCounts(): SinkCounts {
  return { events: 0, duplicates: 0, requests: 0, lastEventAt: 0 };
}

/**
 * A local ingest stand-in that answers every POST with 200 and counts the events in each body's `batch` array
 * (Segment, PostHog and RudderStack bodies all carry one), gzip or not. It works synchronously, one request at a
 * time, so an event counts as received only once it has been decompressed and parsed.
 */
export class Sink {
  private counts = emptyCounts();
  private seen = new Set<string>();
  private readonly server = http.createServer((req, res) => this.handle(req, res));

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as { port: number };
    return `http://127.0.0.1:${port}`;
  }

  reset(): void {
    this.counts = emptyCounts();
    this.seen = new Set();
  }

  snapshot(): SinkCounts {
    return { ...this.counts };
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        this.count(Buffer.concat(chunks), req.headers['content-encoding'] === 'gzip');
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"success":true}');
      } catch (error) {
        res.writeHead(400, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: 'bad_request', message: String(error) }));
      }
    });
  }

  private count(raw: Buffer, gzipped: boolean): void {
    const body = JSON.parse((gzipped ? zlib.gunzipSync(raw) : raw).toString('utf8')) as { batch?: unknown };
    if (!Array.isArray(body.batch)) throw new Error('body has no batch array');
    this.counts.requests += 1;
    let added = 0;
    for (const message of body.batch as Array<{ messageId?: string; uuid?: string }>) {
      const id = message.messageId ?? message.uuid;
      if (id === undefined) throw new Error('an event has neither messageId nor uuid');
      if (this.seen.has(id)) {
        this.counts.duplicates += 1;
      } else {
        this.seen.add(id);
        added += 1;
      }
    }
    this.counts.events += added;
    if (added > 0) this.counts.lastEventAt = Date.now();
  }
}
