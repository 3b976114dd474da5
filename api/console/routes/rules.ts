import type { FastifyPluginAsync } from 'fastify';
import type { SendTestConversion } from '../../services/tiktok-connection';
import type { Repositories } from '../../../db/repositories';
import type { WebhookSource } from '../../../db/repositories/webhook-sources';
import { defaultTikTokEvent, TIKTOK_STANDARD_EVENTS } from '../../../domain/event-mapping';
import { conversionWarning, ruleForSource } from '../../../domain/rule-advice';
import { notFound } from '../../http/http-error';
import { ruleFromBody, ruleView } from '../../http/rule-format';
import { eventParam, ruleBody } from '../../../contract/rules';
import type { ConversionRuleService } from '../../services/settings/conversion-rules';
import type { PastEventService } from '../../services/past-events';
import { pastEventsBody } from '../../../contract/past-events';
import { pastEventRunView } from '../../http/past-events-format';
import { pastEventLimit } from '../../../domain/past-events';
import { parseOrReject } from '../../http/validation';
import { actorOf, currentWorkspace, needs } from '../auth';

const WEEK_MS = 7 * 86_400_000;

/** The rule each source needs that no rule covers yet, once per event name. */
function neededRules(sources: readonly WebhookSource[], mapped: ReadonlySet<string>) {
  const needed = new Map<string, { event: string; tiktokEvent: string; source: string }>();
  for (const source of sources) {
    const rule = ruleForSource(source);
    if (rule !== null && !mapped.has(rule.event) && !needed.has(rule.event)) needed.set(rule.event, { ...rule, source: source.name });
  }
  return [...needed.values()];
}

/** Conversion rules with what arrived for them lately, and the test conversion of test mode (spec §4.5 steps 3–4). */
export const ruleRoutes: FastifyPluginAsync<{ repos: Repositories; rules: ConversionRuleService; sendTestConversion: SendTestConversion; pastEvents: PastEventService }> = async (
  app,
  { repos, rules, sendTestConversion, pastEvents },
) => {
  const editor = { preHandler: needs('editor') };

  app.get('/rules', async (request) => {
    const workspace = currentWorkspace(request);
    const workspaceId = workspace.id;
    const to = new Date();
    const [list, counts, runs, sources] = await Promise.all([
      repos.conversionRules.list(workspaceId),
      repos.eventCounts.perDay(workspaceId, { from: new Date(to.getTime() - WEEK_MS), to, timeZone: 'UTC' }),
      pastEvents.latest(workspaceId),
      repos.webhookSources.list(workspaceId),
    ]);
    const byName = new Map<string, { events: number; lastEventId: string }>();
    for (const count of counts.filter((c) => c.type === 'track')) {
      const seen = byName.get(count.eventName) ?? { events: 0, lastEventId: '0' };
      byName.set(count.eventName, { events: seen.events + count.events, lastEventId: BigInt(count.lastEventId) > BigInt(seen.lastEventId) ? count.lastEventId : seen.lastEventId });
    }
    const mapped = new Set(list.map((rule) => rule.sourceEvent));
    const samples = new Map((await repos.eventStream.find(workspaceId, list.flatMap((rule) => byName.get(rule.sourceEvent)?.lastEventId ?? []))).map((e) => [e.event_name, e]));
    return {
      rules: list.map((rule) => {
        const sample = samples.get(rule.sourceEvent);
        const run = runs.get(rule.sourceEvent);
        return {
          ...ruleView(rule),
          eventsLast7Days: byName.get(rule.sourceEvent)?.events ?? 0,
          sample: sample ? { receivedAt: sample.received_at, message: sample.message } : null,
          pastEvents: run === undefined ? null : pastEventRunView(run),
          warning: conversionWarning(rule.sourceEvent),
        };
      }),
      unmappedEvents: [...byName.entries()]
        .filter(([name]) => !mapped.has(name))
        .sort((a, b) => b[1].events - a[1].events)
        .slice(0, 20)
        .map(([event, seen]) => ({ event, eventsLast7Days: seen.events, suggestedTiktokEvent: defaultTikTokEvent(event), warning: conversionWarning(event) })),
      neededRules: neededRules(sources, mapped),
      /** What a rule's `alsoSendAs` may name. */
      tiktokStandardEvents: [...TIKTOK_STANDARD_EVENTS].sort(),
      /** How many days back "Send past events" may reach, and what stops it there. */
      pastEventLimit: pastEventLimit(workspace),
    };
  });

  app.put('/rules/:event', editor, async (request) => {
    const { event } = parseOrReject(eventParam, request.params, 'path');
    const body = parseOrReject(ruleBody, request.body ?? {}, 'body');
    return ruleView(await rules.put(actorOf(request), currentWorkspace(request).id, ruleFromBody(event, body)));
  });

  app.delete('/rules/:event', editor, async (request) => {
    const { event } = parseOrReject(eventParam, request.params, 'path');
    if (!(await rules.remove(actorOf(request), currentWorkspace(request).id, event))) throw notFound(`no conversion rule for event ${event}`);
    return { event, deleted: true };
  });

  /** Send past events: `{ days, dryRun: true }` counts what would be sent; without dryRun a run starts. */
  app.post('/rules/:event/send-past', editor, async (request, reply) => {
    const { event } = parseOrReject(eventParam, request.params, 'path');
    const { days, dryRun } = parseOrReject(pastEventsBody, request.body ?? {}, 'body');
    const workspaceId = currentWorkspace(request).id;
    if (dryRun === true) return pastEvents.preview(workspaceId, event, days);
    return reply.code(202).send(pastEventRunView(await pastEvents.send(actorOf(request), workspaceId, event, days)));
  });

  app.post('/test-conversion', editor, async (request) => sendTestConversion(currentWorkspace(request).id));
};
