import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { createRepositories } from '../../db/repositories';
import { createSecretBox } from '../../db/secret-box';
import { adStatsScheduleId } from '../../temporal/ad-stats-schedules';
import { ALERTS_SCHEDULE_ID, CONSOLE_ROLLUP_SCHEDULE_ID, OUTBOX_SWEEPER_SCHEDULE_ID, RETENTION_SCHEDULE_ID } from '../../temporal/schedules';
import { unusableSearchAttributes } from '../../temporal/search-attributes';
import { runSignalbox } from '../../test/helpers/cli';
import { closeAll } from '../../test/helpers/close-all';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { TEST_SECRET_KEY } from '../../test/helpers/test-app';

/** A namespace of this file's own on the dev server: it starts without Signalbox's search attributes, as a new cluster does. */
const namespace = `signalbox-setup-${randomBytes(4).toString('hex')}`;
const taskQueue = `setup-test-${randomBytes(4).toString('hex')}`;
const ALL_ATTRIBUTES = ['SignalboxWorkspaceId', 'SignalboxConversionStatus', 'SignalboxTikTokEvent'];
const FIXED_SCHEDULES = [OUTBOX_SWEEPER_SCHEDULE_ID, RETENTION_SCHEDULE_ID, CONSOLE_ROLLUP_SCHEDULE_ID, ALERTS_SCHEDULE_ID];

let testDb: TestDatabase;
let connection: Connection;
let client: Client;
let workspaceId: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  connection = await Connection.connect({ address: process.env.TEMPORAL_TEST_ADDRESS as string });
  client = new Client({ connection, namespace });
  await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
  const repos = createRepositories(testDb.db, createSecretBox(TEST_SECRET_KEY));
  workspaceId = (await repos.workspaces.create('Scheduled shop')).id;
  await repos.tiktokConnections.put(workspaceId, { accessToken: 'act.token', advertiserId: '7012345678901234567', pixelCode: 'CSETUPPIXEL000000001' });
});
afterAll(() =>
  closeAll(
    // Deleting the namespace deletes its schedules: none is left to start workflows on the shared server.
    () => connection?.operatorService.deleteNamespace({ namespace }),
    () => connection?.close(),
    () => testDb?.destroy(),
  ),
);

function signalbox(args: string[]) {
  const env = { DATABASE_URL: testDb.url, TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS, TEMPORAL_NAMESPACE: namespace, TEMPORAL_TASK_QUEUE: taskQueue };
  return runSignalbox(args, { env, cwd: __dirname });
}

describe('signalbox temporal setup', () => {
  it('registers the search attributes and creates the schedules a new namespace lacks, and changes nothing when run again', async () => {
    expect(await unusableSearchAttributes(connection, namespace)).toEqual(ALL_ATTRIBUTES);

    expect(await signalbox(['temporal', 'setup'])).toEqual({
      code: 0,
      stdout: [
        `Search attributes: added ${ALL_ATTRIBUTES.join(', ')}`,
        ...FIXED_SCHEDULES.map((id) => `Schedule ${id}: created`),
        'TikTok statistics schedules: 1 created, 0 already there',
      ].join('\n'),
      stderr: '',
    });
    expect(await unusableSearchAttributes(connection, namespace)).toEqual([]);
    for (const scheduleId of FIXED_SCHEDULES) {
      const { action } = await client.schedule.getHandle(scheduleId).describe();
      expect(action).toMatchObject({ type: 'startWorkflow', taskQueue });
    }
    const adStats = await client.schedule.getHandle(adStatsScheduleId(workspaceId)).describe();
    expect(adStats.action).toMatchObject({ workflowType: 'adStatsPullWorkflow', taskQueue, args: [{ workspaceId }] });

    expect(await signalbox(['temporal', 'setup'])).toEqual({
      code: 0,
      stdout: ['Search attributes: already registered', ...FIXED_SCHEDULES.map((id) => `Schedule ${id}: already there`), 'TikTok statistics schedules: 0 created, 1 already there'].join(
        '\n',
      ),
      stderr: '',
    });
  });
});
