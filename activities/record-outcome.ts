import type { ActivityDeps } from './deps';
import type { Outcome } from './types';

/** Step 6: the conversion ends delivered, skipped or failed; a conversion that already ended keeps its outcome. */
export async function recordOutcome(deps: ActivityDeps, conversionId: string, outcome: Outcome): Promise<void> {
  await deps.repos.conversions.finish(conversionId, outcome);
}
