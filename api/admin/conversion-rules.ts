import type { FastifyPluginAsync } from 'fastify';
import type { ConversionRuleRepository } from '../../db/repositories/conversion-rules';
import type { EventListingRepository } from '../../db/repositories/event-listing';
import { notFound } from '../http/http-error';
import type { ConversionRuleService } from '../services/settings/conversion-rules';
import type { PastEventService } from '../services/past-events';
import { pastEventsBody } from '../../contract/past-events';
import { pastEventRunView } from '../http/past-events-format';
import { parseOrReject } from '../http/validation';
import { ruleChoice } from './rule-choice';
import { ruleFromBody, ruleView } from '../http/rule-format';
import { eventParam, ruleBody } from '../../contract/rules';
import { ruleSuggestion, SUGGESTION_DAYS, SUGGESTION_LIMIT } from './rule-suggestions';
import { workspaceOf } from './workspace-scope';

export interface ConversionRuleRoutesOptions {
  conversionRules: ConversionRuleRepository;
  /** Writes a rule with its change-log entry in one transaction. */
  rules: ConversionRuleService;
  eventListing: EventListingRepository;
  pastEvents: PastEventService;
}

const DAY_MS = 86_400_000;

/** `/admin/workspaces/:workspaceId/conversion-rules`: which events become TikTok conversions, and their value. */
export const conversionRuleRoutes: FastifyPluginAsync<ConversionRuleRoutesOptions> = async (app, { conversionRules, rules, eventListing, pastEvents }) => {
  app.get('/', async (request) => ({ rules: (await conversionRules.list(workspaceOf(request).id)).map(ruleView) }));

  app.get('/suggestions', async (request) => {
    const since = new Date(Date.now() - SUGGESTION_DAYS * DAY_MS);
    const names = await eventListing.unmappedNames(workspaceOf(request).id, since, SUGGESTION_LIMIT);
    return { since, suggestions: names.map(ruleSuggestion) };
  });

  app.put('/:event', async (request) => {
    const { event } = parseOrReject(eventParam, request.params, 'path');
    const body = parseOrReject(ruleBody, request.body ?? {}, 'body');
    const saved = await rules.put('operator', workspaceOf(request).id, ruleFromBody(event, body));
    return { ...ruleView(saved), chosen: ruleChoice(saved, { tiktokEvent: body.tiktokEvent !== undefined }) };
  });

  app.delete('/:event', async (request) => {
    const { event } = parseOrReject(eventParam, request.params, 'path');
    if (!(await rules.remove('operator', workspaceOf(request).id, event))) throw notFound(`no conversion rule for event ${event}`);
    return { event, deleted: true };
  });

  /** Send past events: `{ days, dryRun: true }` counts what would be sent; without dryRun a run starts (202). */
  app.post('/:event/backfill', async (request, reply) => {
    const { event } = parseOrReject(eventParam, request.params, 'path');
    const { days, dryRun } = parseOrReject(pastEventsBody, request.body ?? {}, 'body');
    const workspaceId = workspaceOf(request).id;
    if (dryRun === true) return pastEvents.preview(workspaceId, event, days);
    return reply.code(202).send(pastEventRunView(await pastEvents.send('operator', workspaceId, event, days)));
  });

  /** The rule's latest run of send past events, with its progress. */
  app.get('/:event/backfill', async (request) => {
    const { event } = parseOrReject(eventParam, request.params, 'path');
    const run = (await pastEvents.latest(workspaceOf(request).id)).get(event);
    if (run === undefined) throw notFound(`the past events of ${event} were never sent`);
    return pastEventRunView(run);
  });
};
