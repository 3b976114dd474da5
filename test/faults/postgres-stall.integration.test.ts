import { randomBytes } from 'node:crypto';
import Signalbox from '@signalbox/api';
import type { Knex } from 'knex';
import { createDatabase, migrateToLatest } from '../../db/knex';
import { createRepositories } from '../../db/repositories';
import { createSecretBox } from '../../db/secret-box';
import type { RunningIngest } from '../../api/server';
import { TEST_SECRET_KEY } from '../helpers/test-app';
import { startTestIngestServer } from '../helpers/ingest-server';
import { startPrivatePostgres, type PrivatePostgres } from '../helpers/private-postgres';

/**
 * The ingest server runs with the default database deadlines (acquire 3 s, statement 5 s + 1 s), under which a
 * request queued behind a stalled transaction used to wait ~12 s, and with this storage deadline.
 */
const STORAGE_DEADLINE_MS = 5_000;
/** The client library's default request timeout: an answer later than this is a timeout to the client. */
const CLIENT_TIMEOUT_MS = 10_000;
/** The deadline plus room for a busy two-core machine, still under the client's timeout. */
const ANSWER_WITHIN_MS = STORAGE_DEADLINE_MS + 4_000;
/** Long enough for requests to be caught in every phase: queued, waiting for a connection, mid-transaction, committing. */
const STALL_MS = 14_000;
const SENDERS = 6;
const SDK_EVENTS = 12;

let postgres: PrivatePostgres;
let db: Knex;
let ingest: RunningIngest;
let key: string;

beforeAll(async () => {
  postgres = await startPrivatePostgres();
  db = createDatabase({ url: postgres.url });
  await migrateToLatest(db);
  const repos = createRepositories(db, createSecretBox(TEST_SECRET_KEY));
  const workspace = await repos.workspaces.create('Stalled shop');
  key = (await repos.apiKeys.create(workspace.id, 'backend')).key;
  await repos.conversionRules.put(workspace.id, { sourceEvent: 'purchase', tiktokEvent: 'CompletePayment', valueSource: 'order_total', fixedValue: null, currency: null });
  ingest = await startTestIngestServer(postgres.url, {
    env: {
      INGEST_STORAGE_DEADLINE_MS: String(STORAGE_DEADLINE_MS),
      READINESS_TIMEOUT_MS: '500',
      // Wake-ups go to a queue no worker polls: this test is about ingest.
      TEMPORAL_TASK_QUEUE: `postgres-stall-${randomBytes(4).toString('hex')}`,
    },
  });
});
afterAll(async () => {
  postgres?.resume();
  await ingest?.close();
  await db?.destroy();
  await postgres?.stop();
});

interface Answer {
  status: number | 'no answer';
  retryAfter: string | null;
  body: string;
  startedAt: number;
  elapsedMs: number;
}

/** One request as a client with the library's default timeout sends it; still hanging after that is `no answer`. */
async function call(path: string, init: RequestInit = {}): Promise<Answer> {
  const startedAt = Date.now();
  try {
    const response = await fetch(`${ingest.url}${path}`, { ...init, signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
    const body = await response.text();
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body, startedAt, elapsedMs: Date.now() - startedAt };
  } catch {
    return { status: 'no answer', retryAfter: null, body: '', startedAt, elapsedMs: Date.now() - startedAt };
  }
}

/** A page view and a purchase (which a rule turns into a conversion) of one visitor. */
function postBatch(batchId: string): Promise<Answer> {
  const batch = [
    { type: 'page', name: 'Checkout', anonymousId: `visitor-${batchId}`, messageId: `${batchId}-page` },
    { type: 'track', event: 'purchase', anonymousId: `visitor-${batchId}`, messageId: `${batchId}-purchase`, properties: { order_id: `order-${batchId}`, total: 10, currency: 'USD' } },
  ];
  return call('/v1/batch', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ batch }) });
}
const messageIdsOf = (batchId: string) => [`${batchId}-page`, `${batchId}-purchase`];

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

describe('PostgreSQL frozen (SIGSTOP), then resumed', () => {
  it('answers every request within the storage deadline, 200 only after the commit or 503 with Retry-After; afterwards every event is stored once and the client library delivers all of its own', async () => {
    expect((await postBatch('warm-up')).status).toBe(200);
    expect((await call('/readyz')).status).toBe(200);

    const debugLines: string[] = [];
    const client = new Signalbox({ apiKey: key, host: ingest.url, flushAt: 4, debug: true, logger: (line) => debugLines.push(line) });
    const clientErrors: unknown[] = [];
    client.on('error', (error) => clientErrors.push(error));

    const answers = new Map<string, Answer[]>();
    let stopSending = false;
    // Senders keep posting new batches through the stall, each as soon as the last was answered.
    const senders = Array.from({ length: SENDERS }, async (_, sender) => {
      for (let n = 0; !stopSending; n += 1) {
        const batchId = `s${sender}-b${n}`;
        answers.set(batchId, [await postBatch(batchId)]);
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    postgres.freeze();
    const frozenAt = Date.now();
    const readiness = await call('/readyz');
    for (let i = 0; i < SDK_EVENTS; i += 1) {
      await client.track({ event: 'purchase', anonymousId: 'sdk-visitor', properties: { order_id: `sdk-order-${i}`, total: 20, currency: 'USD' } });
      await new Promise((resolve) => setTimeout(resolve, STALL_MS / SDK_EVENTS));
    }
    postgres.resume();
    const resumedAt = Date.now();

    // What ingest acknowledged is committed: it is there before anything is sent again.
    const acknowledged = [...answers].filter(([, [first]]) => first?.status === 200).map(([batchId]) => batchId);
    const storedNow = new Set(await db('events').whereIn('message_id', acknowledged.flatMap(messageIdsOf)).pluck('message_id'));
    expect(acknowledged.flatMap(messageIdsOf).filter((id) => !storedNow.has(id))).toEqual([]);

    stopSending = true;
    await Promise.all(senders);
    const all = [...answers.values()].flat();
    expect(all.filter((answer) => answer.status !== 200 && answer.status !== 503)).toEqual([]);
    for (const answer of all.filter((a) => a.status === 503)) {
      expect(answer.retryAfter).toBe('5');
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'storage_unavailable' });
    }
    const duringStall = all.filter((answer) => answer.startedAt + answer.elapsedMs > frozenAt && answer.startedAt < resumedAt);
    expect(duringStall.filter((answer) => answer.status === 503).length).toBeGreaterThanOrEqual(SENDERS);
    expect(duringStall.filter((answer) => answer.elapsedMs >= ANSWER_WITHIN_MS)).toEqual([]);
    expect(readiness.status).toBe(503);
    expect(JSON.parse(readiness.body)).toEqual({ status: 'not_ready', error: 'storage_unavailable', message: 'the database is not answering' });
    const times = duringStall.map((answer) => answer.elapsedMs).sort((a, b) => a - b);
    console.info(`ingest answers during a ${STALL_MS / 1000} s stall: ${times.length}, p50 ${percentile(times, 50)} ms, p99 ${percentile(times, 99)} ms, max ${times.at(-1)} ms`);

    // As a client does: every batch not acknowledged is sent again until it is.
    for (const [batchId, attempts] of answers) {
      for (let retry = 0; attempts.at(-1)?.status !== 200 && retry < 40; retry += 1) {
        if (retry > 0) await new Promise((resolve) => setTimeout(resolve, 250));
        attempts.push(await postBatch(batchId));
      }
      expect(attempts.at(-1)?.status).toBe(200);
    }
    expect((await call('/readyz')).status).toBe(200);

    // The client library retried on 503 as the server asked (Retry-After), never after timing out, and lost nothing.
    await client.flush();
    expect(clientErrors).toEqual([]);
    expect(client.getStats()).toMatchObject({ delivered: SDK_EVENTS, failed: 0, dropped: 0 });
    expect(debugLines.filter((line) => /timed out/.test(line))).toEqual([]);
    expect(debugLines.some((line) => /as the server asked\): HTTP 503/.test(line))).toBe(true);
    await client.close();

    // Stored exactly once: every batch's events, the library's, and one conversion per order.
    const stored = await db('events').select('message_id', 'anonymous_id');
    const expected = ['warm-up', ...answers.keys()].flatMap(messageIdsOf);
    expect(stored.filter((row) => row.anonymous_id !== 'sdk-visitor').map((row) => row.message_id).sort()).toEqual(expected.sort());
    expect(stored.filter((row) => row.anonymous_id === 'sdk-visitor')).toHaveLength(SDK_EVENTS);
    const conversions = await db('conversions').pluck('event_id');
    expect(conversions).toHaveLength(answers.size + 1 + SDK_EVENTS);
    expect(new Set(conversions).size).toBe(conversions.length);
  });
});
