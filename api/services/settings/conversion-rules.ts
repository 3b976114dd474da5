import type { Knex } from 'knex';
import type { Repositories } from '../../../db/repositories';
import type { ConversionRule } from '../../../db/repositories/conversion-rules';
import { ruleView } from '../../http/rule-format';
import type { Actor } from './actor';

/**
 * Conversion rules written with their change-log entry in the same transaction; `onChange` after each change (the
 * browser config's cached rules).
 */
export function createConversionRuleService(deps: { db: Knex; repos: Pick<Repositories, 'conversionRules' | 'changeLog'>; onChange: () => void }) {
  const { conversionRules, changeLog } = deps.repos;
  return {
    async put(actor: Actor, workspaceId: string, rule: ConversionRule): Promise<ConversionRule> {
      const saved = await deps.db.transaction(async (trx) => {
        const before = await conversionRules.find(workspaceId, rule.sourceEvent, trx);
        const stored = await conversionRules.put(workspaceId, rule, trx);
        await changeLog.record(
          { workspaceId, actor, action: 'rule.put', target: rule.sourceEvent, before: before === undefined ? null : ruleView(before), after: ruleView(stored) },
          trx,
        );
        return stored;
      });
      deps.onChange();
      return saved;
    },

    /** False when the workspace has no rule for the event. */
    async remove(actor: Actor, workspaceId: string, sourceEvent: string): Promise<boolean> {
      const removed = await deps.db.transaction(async (trx) => {
        const before = await conversionRules.find(workspaceId, sourceEvent, trx);
        if (before === undefined || !(await conversionRules.remove(workspaceId, sourceEvent, trx))) return false;
        await changeLog.record({ workspaceId, actor, action: 'rule.delete', target: sourceEvent, before: ruleView(before), after: null }, trx);
        return true;
      });
      if (removed) deps.onChange();
      return removed;
    },
  };
}

export type ConversionRuleService = ReturnType<typeof createConversionRuleService>;
