import { Client, ScheduleNotFoundError } from '@temporalio/client';
import { loadEnv, retentionRunEnvSchema } from '../../config/env';
import type { BeforeDaysOutcome, RetentionSummary } from '../../temporal/retention-now';
import { runRetentionNow } from '../../temporal/retention-now';
import { RETENTION_SCHEDULE_ID } from '../../temporal/schedules';
import { CliError } from '../errors';
import { operatorCommand } from './operator-command';
import { connectToTemporal } from './temporal-connection';

const KEPT_BECAUSE: Record<Exclude<BeforeDaysOutcome, 'dropped'>, string> = {
  lock_timeout: 'ingest held the events table past the lock timeout; the next run tries again',
  pending_conversion: "a pending conversion's event is in it; it goes once the conversion is settled",
  inside_retention: "a workspace's retention period still covers its newest event",
};

const days = (list: readonly string[]) => (list.length === 0 ? '0' : `${list.length} (${list.join(', ')})`);

/** What a run did and kept, in the operator's words: one line per kind of work. */
function describeRetentionRun({ summary: s, workflowId }: { summary: RetentionSummary; workflowId: string }): string[] {
  return [
    `Retention run ${workflowId}: ${s.complete ? 'complete' : 'stopped at its limit; the next run carries on'}`,
    `Days dropped: ${days(s.daysDropped)}`,
    ...s.daysKept.map(({ day, reason }) => `Day kept: ${day}: ${KEPT_BECAUSE[reason]}`),
    s.retainedSince === null
      ? 'Days retained: none'
      : `Days retained: from ${s.retainedSince}, inside the longest retention period (${s.longestRetentionDays} days)`,
    ...(s.beforeDays === undefined
      ? []
      : [`Events stored before days (events_before_days): ${s.beforeDays === 'dropped' ? 'dropped' : `kept: ${KEPT_BECAUSE[s.beforeDays]}`}`]),
    `Partitions created ahead: ${days(s.partitionsCreated)}`,
    `Events deleted: ${s.deleted}, stripped of personal data: ${s.stripped}; conversions deleted: ${s.conversionsDeleted}`,
  ];
}

/** `signalbox retention run`: the signalbox-retention schedule triggered now, and what its run did. */
export const runRetention = operatorCommand(async (io) => {
  const env = loadEnv(retentionRunEnvSchema, io.env);
  const connection = await connectToTemporal(env);
  try {
    const client = new Client({ connection, namespace: env.TEMPORAL_NAMESPACE });
    const run = await runRetentionNow(client, (workflowId) => io.err(`Started ${workflowId}; waiting for it to finish…`)).catch((error: unknown) => {
      if (error instanceof ScheduleNotFoundError) {
        throw new CliError(`the ${RETENTION_SCHEDULE_ID} schedule is not on namespace ${env.TEMPORAL_NAMESPACE}: run \`signalbox temporal setup\` (or start a worker)`);
      }
      throw error;
    });
    io.out(describeRetentionRun(run).join('\n'));
  } finally {
    await connection.close();
  }
});
