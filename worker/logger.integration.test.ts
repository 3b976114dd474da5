import { Writable } from 'node:stream';
import { Connection } from '@temporalio/client';
import { createTestDatabase, type TestDatabase } from '../test/helpers/database';
import { temporalTestAddress } from '../test/helpers/pipeline';
import { createWorkerLogger } from './logger';

let testDb: TestDatabase;
let temporal: Connection;

beforeAll(async () => {
  testDb = await createTestDatabase();
  temporal = await Connection.connect({ address: temporalTestAddress() });
});
afterAll(async () => {
  await temporal?.close();
  await testDb?.destroy();
});

/** The worker's logger writing into an array, one parsed JSON object a line. */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createWorkerLogger('info', destination), lines };
}

const failed = <T>(promise: Promise<T>) => promise.then(() => { throw new Error('expected it to fail'); }, (error: unknown) => error);

describe("the worker's error lines", () => {
  it("carry a PostgreSQL error's type, message, SQLSTATE and place in its cause chain, under Temporal's key `error` as under `err`", async () => {
    const { logger, lines } = capturedLogger();
    const database = await failed(testDb.db.raw('SELECT 1 / 0'));
    const step = new Error('the deliver step failed', { cause: database });
    logger.warn({ error: step, durationMs: 12 }, 'Activity failed');
    logger.warn({ err: database }, 'readiness check failed');

    expect(lines[0]).toMatchObject({
      level: 40,
      msg: 'Activity failed',
      durationMs: 12,
      error: {
        type: 'Error',
        message: 'the deliver step failed',
        stack: expect.stringContaining('the deliver step failed'),
        cause: { type: 'DatabaseError', message: 'division by zero', code: '22012', severity: 'ERROR' },
      },
    });
    expect(lines[1]).toMatchObject({ err: { type: 'DatabaseError', code: '22012' } });
  });

  it('carry PostgreSQL\'s message and names, never the value its detail quotes', async () => {
    const { logger, lines } = capturedLogger();
    await testDb.db.raw('CREATE TABLE logged_people (email text CONSTRAINT logged_people_email UNIQUE)');
    await testDb.db('logged_people').insert({ email: 'person@example.com' });
    const database = await failed(testDb.db('logged_people').insert({ email: 'person@example.com' }));
    logger.warn({ err: database }, 'storing failed');

    expect(JSON.stringify(lines[0])).not.toContain('person@example.com');
    expect(lines[0]).toMatchObject({
      err: { type: 'DatabaseError', code: '23505', message: 'duplicate key value violates unique constraint "logged_people_email"', table: 'logged_people', constraint: 'logged_people_email' },
    });
  });

  it("carry a gRPC error's numeric status code and details", async () => {
    const { logger, lines } = capturedLogger();
    const grpc = await failed(temporal.workflowService.describeWorkflowExecution({ namespace: 'default', execution: { workflowId: 'no-such-workflow-for-the-log-test' } }));
    logger.error({ error: grpc }, 'Workflow failed');
    expect(lines[0]).toMatchObject({ level: 50, error: { type: expect.any(String), code: 5, details: expect.stringContaining('no-such-workflow-for-the-log-test') } });
  });
});

describe("the worker's log", () => {
  it('hides the secrets domain/secret-names.ts lists, one level down too, and keeps the codes errors and answers carry', () => {
    const { logger, lines } = capturedLogger();
    logger.info(
      { connection: { accessToken: 'act-worker-1', advertiserId: '7012' }, refresh_token: 'rft-worker-2', request: { headers: { 'access-token': 'hdr-worker-3' } }, tiktok: { code: 40001, state: 'active' } },
      'TikTok answered',
    );
    const line = JSON.stringify(lines[0]);
    for (const secret of ['act-worker-1', 'rft-worker-2', 'hdr-worker-3']) expect({ secret, logged: line.includes(secret) }).toEqual({ secret, logged: false });
    expect(lines[0]).toMatchObject({ connection: { accessToken: '[redacted]', advertiserId: '7012' }, refresh_token: '[redacted]', tiktok: { code: 40001, state: 'active' } });
  });
});
