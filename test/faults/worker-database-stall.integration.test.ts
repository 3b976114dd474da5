import type { Knex } from 'knex';
import { createDatabase, migrateToLatest } from '../../db/knex';
import type { ConversionRow } from '../../db/types';
import { daysAgo, landing, track, ttclid } from '../helpers/messages';
import { TestPipeline } from '../helpers/pipeline';
import { startPrivatePostgres, type PrivatePostgres } from '../helpers/private-postgres';

// A freeze of most of a minute, then delivery: longer than jest's 5 s default.
jest.setTimeout(240_000);

/** Short deadlines, so that each attempt against the frozen server fails within about two seconds, not six. */
const TIMEOUTS = { connectMs: 500, acquireMs: 1_000, statementMs: 1_000, idleInTransactionMs: 10_000 };
/** Long enough for the steps' retries to reach their longest wait and stay there (before, they grew to a minute). */
const FROZEN_MS = 45_000;
/** The group workflow's longest wait between retries of a step (workflows/conversion-pipeline.ts). */
const LONGEST_RETRY_WAIT_MS = 5_000;
/** An attempt caught by the thaw (its deadline plus the client's grace), claiming, sending, on a busy machine. */
const SLACK_MS = 8_000;

let postgres: PrivatePostgres;
let db: Knex;
let pipeline: TestPipeline;
beforeAll(async () => {
  postgres = await startPrivatePostgres();
  db = createDatabase({ url: postgres.url, timeouts: TIMEOUTS });
  await migrateToLatest(db);
  pipeline = await TestPipeline.start({ database: { db, url: postgres.url, destroy: () => db.destroy() } });
});
afterAll(async () => {
  postgres?.resume();
  await pipeline?.close();
  await postgres?.stop();
});

describe("the worker's PostgreSQL frozen (SIGSTOP), then resumed", () => {
  it('delivers within seconds of PostgreSQL answering again, however long the steps have been failing', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    await pipeline.ingest(ws, [landing('visitor-frozen', ttclid(), daysAgo(1))]);
    const purchase = track('purchase', { anonymousId: 'visitor-frozen' }, { order_id: 'frozen-1', total: 5, currency: 'USD' });
    const [conversion] = await pipeline.ingest(ws, [purchase], { start: false });

    postgres.freeze();
    // Waking a partition needs Temporal only: the workflow starts and its first step fails against the frozen server, again and again.
    expect(await pipeline.waker.wakePartitions([{ workspaceId: ws.id, partition: 0 }])).toMatchObject({ woken: 1, failed: [] });
    await new Promise((resolve) => setTimeout(resolve, FROZEN_MS));
    const resumedAt = Date.now();
    postgres.resume();

    expect(await pipeline.settled(conversion as ConversionRow)).toMatchObject({ status: 'delivered', attempts: 1 });
    const accepted = (await pipeline.fake.receivedEvents()).events.filter((e) => e.eventId === 'frozen-1');
    expect(accepted).toHaveLength(1);
    expect(Date.parse(accepted[0]!.receivedAt) - resumedAt).toBeLessThanOrEqual(LONGEST_RETRY_WAIT_MS + SLACK_MS);
  });
});
