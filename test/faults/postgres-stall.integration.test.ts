import type { Knex } from 'knex';
import { createDatabase, migrateToLatest, STALLED_SERVER_GRACE_MS } from '../../db/knex';
import { createRepositories } from '../../db/repositories';
import { createSecretBox } from '../../db/secret-box';
import type { RunningIngest } from '../../api/server';
import { TEST_SECRET_KEY } from '../helpers/test-app';
import { startTestIngestServer } from '../helpers/ingest-server';
import { startPrivatePostgres, type PrivatePostgres } from '../helpers/private-postgres';

const ACQUIRE_MS = 1_000;
const STATEMENT_MS = 1_000;
const READINESS_MS = 500;
/** What the configuration promises for a stalled server, plus room for a busy two-core machine. */
const ANSWER_WITHIN_MS = ACQUIRE_MS + STATEMENT_MS + STALLED_SERVER_GRACE_MS + 4_000;
const SENDERS = 4;
const EVENTS_PER_BATCH = 5;

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
  ingest = await startTestIngestServer(postgres.url, {
    env: {
      DATABASE_CONNECT_TIMEOUT_MS: '500',
      DATABASE_ACQUIRE_TIMEOUT_MS: String(ACQUIRE_MS),
      DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_MS),
      READINESS_TIMEOUT_MS: String(READINESS_MS),
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
}

/** One request with the deadline the configuration promises; a request still hanging after it is `no answer`. */
async function call(path: string, init: RequestInit = {}): Promise<Answer> {
  try {
    const response = await fetch(`${ingest.url}${path}`, { ...init, signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
  } catch {
    return { status: 'no answer', retryAfter: null, body: '' };
  }
}

function postBatch(batchId: string): Promise<Answer> {
  const batch = Array.from({ length: EVENTS_PER_BATCH }, (_, i) => ({ type: 'track', event: 'page_scrolled', anonymousId: `visitor-${batchId}`, messageId: `${batchId}-${i}` }));
  return call('/v1/batch', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ batch }) });
}

describe('PostgreSQL frozen (SIGSTOP), then resumed', () => {
  it('answers 503 with Retry-After within the configured deadline, /readyz says not ready, and after SIGCONT nothing acknowledged is lost', async () => {
    expect((await postBatch('warm-up')).status).toBe(200);
    expect((await call('/readyz')).status).toBe(200);

    const answers = new Map<string, Answer[]>();
    let frozen = false;
    let stopSending = false;
    // Senders keep posting new batches, so requests are caught in every phase: waiting for a connection, inside a transaction, committing.
    const senders = Array.from({ length: SENDERS }, async (_, sender) => {
      for (let n = 0; !stopSending; n += 1) {
        const batchId = `s${sender}-b${n}`;
        const answer = await postBatch(batchId);
        answers.set(batchId, [answer]);
        if (frozen && answer.status !== 200) return;
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    postgres.freeze();
    frozen = true;
    const readiness = await call('/readyz');
    stopSending = true;
    await Promise.all(senders);
    postgres.resume();

    const all = [...answers.values()].flat();
    expect(all.map((answer) => answer.status).filter((status) => status !== 200 && status !== 503)).toEqual([]);
    const refused = all.filter((answer) => answer.status === 503);
    expect(refused.length).toBeGreaterThanOrEqual(SENDERS);
    for (const answer of refused) {
      expect(answer.retryAfter).toBe('5');
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'storage_unavailable' });
    }
    expect(readiness.status).toBe(503);
    expect(JSON.parse(readiness.body)).toEqual({ status: 'not_ready', error: 'storage_unavailable', message: 'the database is not answering' });

    // As a client does: every batch not acknowledged is sent again until it is.
    for (const [batchId, attempts] of answers) {
      for (let retry = 0; attempts.at(-1)?.status !== 200 && retry < 40; retry += 1) {
        if (retry > 0) await new Promise((resolve) => setTimeout(resolve, 250));
        attempts.push(await postBatch(batchId));
      }
      expect(attempts.at(-1)?.status).toBe(200);
    }
    expect((await call('/readyz')).status).toBe(200);

    const stored = await db('events').select('message_id');
    const expected = ['warm-up', ...answers.keys()].flatMap((batchId) => Array.from({ length: EVENTS_PER_BATCH }, (_, i) => `${batchId}-${i}`));
    expect(stored.map((row) => row.message_id).sort()).toEqual(expected.sort());
  });
});
