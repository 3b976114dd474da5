import { Client, Connection } from '@temporalio/client';
import { loadEnv, temporalSetupEnvSchema } from '../../config/env';
import { createDatabase } from '../../db/knex';
import { createTikTokConnectionRepository } from '../../db/repositories/tiktok-connections';
import type { SecretBox } from '../../db/secret-box';
import { createAdStatsSchedules } from '../../temporal/ad-stats-schedules';
import { ensureRecurringSchedules, reconcileAdStatsSchedules } from '../../temporal/schedules';
import { ensureSearchAttributes, temporalCloudRegistration, unusableSearchAttributes } from '../../temporal/search-attributes';
import { CliError } from '../errors';
import type { CliIo } from '../session';
import { operatorCommand } from './operator-command';
import { connectToTemporal } from './temporal-connection';

/** Setup reads which workspaces have an advertiser, never a token: it needs no SECRET_KEY. */
const NO_SECRETS: SecretBox = {
  seal: () => {
    throw new Error('temporal setup stores no token');
  },
  open: () => {
    throw new Error('temporal setup reads no token');
  },
};

/**
 * Registers what is missing through the operator API; where the cluster refuses it (Temporal Cloud documents tcld,
 * its UI or Terraform instead), checks with visibility queries that they were registered there.
 */
async function registerSearchAttributes(io: CliIo, connection: Connection, namespace: string): Promise<void> {
  let added: string[];
  try {
    added = await ensureSearchAttributes(connection, namespace);
  } catch (error) {
    const refusal = (error as Error).message;
    const unusable = await unusableSearchAttributes(connection, namespace);
    if (unusable.length > 0) {
      throw new CliError(
        `the search attributes ${unusable.join(', ')} are not registered on namespace ${namespace}, and Temporal refused to add them (${refusal}). ` +
          `On Temporal Cloud register them with\n  ${temporalCloudRegistration(namespace)}\nthen run \`signalbox temporal setup\` again.`,
      );
    }
    io.out(`Search attributes: registered (the operator API was refused: ${refusal}; a visibility query found them)`);
    return;
  }
  io.out(added.length === 0 ? 'Search attributes: already registered' : `Search attributes: added ${added.join(', ')}`);
}

/** `signalbox temporal setup`: what the worker also does at start, as a release step that says what it did. */
export const setUpTemporal = operatorCommand(async (io) => {
  const env = loadEnv(temporalSetupEnvSchema, io.env);
  const connection = await connectToTemporal(env);
  const db = createDatabase({ url: env.DATABASE_URL, poolMax: 1 });
  try {
    await registerSearchAttributes(io, connection, env.TEMPORAL_NAMESPACE);
    const client = new Client({ connection, namespace: env.TEMPORAL_NAMESPACE });
    const schedules = await ensureRecurringSchedules(client, env.TEMPORAL_TASK_QUEUE);
    for (const [scheduleId, done] of Object.entries(schedules)) io.out(`Schedule ${scheduleId}: ${done === 'created' ? 'created' : 'already there'}`);
    const adStats = createAdStatsSchedules(client, { taskQueue: env.TEMPORAL_TASK_QUEUE, every: env.TIKTOK_STATS_PULL_INTERVAL });
    const reconciled = await reconcileAdStatsSchedules(createTikTokConnectionRepository(db, NO_SECRETS), adStats);
    io.out(`TikTok statistics schedules: ${reconciled.created} created, ${reconciled.existing} already there`);
  } finally {
    await connection.close();
    await db.destroy();
  }
});
