import type { ConversionStatus } from '../../db/types';
import type { PipelineMetrics } from '../deps';
import type { StepTimes } from './step-times';

/** A conversion whose outcome a step has just committed. */
export interface EndedConversion {
  status: Exclude<ConversionStatus, 'pending'>;
  reason: string | null;
  /** When ingest created it: the pipeline's lag is measured from here. */
  createdAt: Date;
}

/** How the conversions of a group ended; reasons as `domain/reasons.ts` names them. */
export interface GroupOutcomes {
  delivered: number;
  skipped: Record<string, number>;
  failed: Record<string, number>;
}

/** What the delivery step's log line needs of preparation (the workflow passes it on): the group's claim and what ended there. */
export interface PreparationSummary {
  claimed: number;
  /** Epoch milliseconds. */
  claimedAt: number;
  outcomes: GroupOutcomes;
  /** Where preparation's time went (absent from workflows that started before it was passed on). */
  stepsMs?: StepTimes;
}

export function noOutcomes(): GroupOutcomes {
  return { delivered: 0, skipped: {}, failed: {} };
}

/** Counts conversions whose outcomes were just committed, in the group's tally and in the worker's metrics. */
export function countEnded(metrics: PipelineMetrics, outcomes: GroupOutcomes, ended: readonly EndedConversion[]): void {
  const now = Date.now();
  for (const { status, reason, createdAt } of ended) {
    if (status === 'delivered') outcomes.delivered += 1;
    else outcomes[status][reason ?? 'none'] = (outcomes[status][reason ?? 'none'] ?? 0) + 1;
    metrics.conversionEnded({ status, reason, lagSeconds: (now - createdAt.getTime()) / 1000 });
  }
}

function addCounts(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const sum = { ...a };
  for (const [reason, count] of Object.entries(b)) sum[reason] = (sum[reason] ?? 0) + count;
  return sum;
}

export function addOutcomes(a: GroupOutcomes, b: GroupOutcomes): GroupOutcomes {
  return { delivered: a.delivered + b.delivered, skipped: addCounts(a.skipped, b.skipped), failed: addCounts(a.failed, b.failed) };
}
