import { proxyActivities, proxyLocalActivities, upsertSearchAttributes } from '@temporalio/workflow';
import { ConversionStatusAttribute } from '../../workflows/search-attributes';

export interface NoopActivities {
  noop(step: number): Promise<void>;
}

const local = proxyLocalActivities<NoopActivities>({ startToCloseTimeout: '30 seconds' });
const remote = proxyActivities<NoopActivities>({ startToCloseTimeout: '30 seconds' });

/** The engine's ceiling for the conversion workflow's shape: six sequential local activities and one upsert, no work. */
export async function noopConversionWorkflow(): Promise<void> {
  for (let step = 0; step < 6; step++) await local.noop(step);
  upsertSearchAttributes([{ key: ConversionStatusAttribute, value: 'delivered' }]);
}

/** The same with six regular activities, each a round trip through the server's task queues. */
export async function noopRegularActivitiesWorkflow(): Promise<void> {
  for (let step = 0; step < 6; step++) await remote.noop(step);
  upsertSearchAttributes([{ key: ConversionStatusAttribute, value: 'delivered' }]);
}
