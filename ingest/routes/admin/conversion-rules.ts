import type { FastifyPluginAsync } from 'fastify';
import type { Knex } from 'knex';
import type { ChangeLogRepository } from '../../../db/repositories/change-log';
import type { ConversionRuleRepository } from '../../../db/repositories/conversion-rules';
import type { EventListingRepository } from '../../../db/repositories/event-listing';
import { notFound } from '../../http-error';
import { parseOrReject } from '../../validation';
import { ruleChoice } from './rule-choice';
import { eventParam, ruleBody, ruleFromBody, ruleView } from './rule-format';
import { ruleSuggestion, SUGGESTION_DAYS, SUGGESTION_LIMIT } from './rule-suggestions';
import { workspaceOf } from './workspace-scope';

export interface ConversionRuleRoutesOptions {
  db: Knex;
  conversionRules: ConversionRuleRepository;
  changeLog: ChangeLogRepository;
  eventListing: EventListingRepository;
}

const DAY_MS = 86_400_000;

/** `/admin/workspaces/:workspaceId/conversion-rules`: which events become TikTok conversions, and their value. */
export const conversionRuleRoutes: FastifyPluginAsync<ConversionRuleRoutesOptions> = async (app, { db, conversionRules, changeLog, eventListing }) => {
  app.get('/', async (request) => ({ rules: (await conversionRules.list(workspaceOf(request).id)).map(ruleView) }));

  app.get('/suggestions', async (request) => {
    const since = new Date(Date.now() - SUGGESTION_DAYS * DAY_MS);
    const names = await eventListing.unmappedNames(workspaceOf(request).id, since, SUGGESTION_LIMIT);
    return { since, suggestions: names.map(ruleSuggestion) };
  });

  app.put('/:event', async (request) => {
    const { event } = parseOrReject(eventParam, request.params, 'path');
    const body = parseOrReject(ruleBody, request.body ?? {}, 'body');
    const workspaceId = workspaceOf(request).id;
    const saved = await db.transaction(async (trx) => {
      const before = await conversionRules.find(workspaceId, event, trx);
      const after = await conversionRules.put(workspaceId, ruleFromBody(event, body), trx);
      await changeLog.record({ workspaceId, actor: 'operator', action: 'rule.put', target: event, before: before && ruleView(before), after: ruleView(after) }, trx);
      return after;
    });
    return { ...ruleView(saved), chosen: ruleChoice(saved, { tiktokEvent: body.tiktokEvent !== undefined }) };
  });

  app.delete('/:event', async (request) => {
    const { event } = parseOrReject(eventParam, request.params, 'path');
    if (!(await conversionRules.remove(workspaceOf(request).id, event))) throw notFound(`no conversion rule for event ${event}`);
    return { event, deleted: true };
  });
};
