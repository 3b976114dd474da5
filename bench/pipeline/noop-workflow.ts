import { proxyLocalActivities, upsertSearchAttributes } from '@temporalio/workflow';
import { ConversionStatusAttribute } from '../../workflows/search-attributes';

export interface NoopActivities {
  noop(step: number): Promise<void>;
}

const local = proxyLocalActivities<NoopActivities>({ startToCloseTimeout: '30 seconds' });

/** The engine's ceiling for the per-conversion design: six sequential local activities and one upsert, no work. */
export async function noopConversionWorkflow(): Promise<void> {
  for (let step = 0; step < 6; step++) await local.noop(step);
  upsertSearchAttributes([{ key: ConversionStatusAttribute, value: 'delivered' }]);
}

