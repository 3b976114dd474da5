import type { FastifyPluginAsync } from 'fastify';
import type { ConversionRuleRepository } from '../../../db/repositories/conversion-rules';
import type { ConversionRuleService } from '../../settings/conversion-rules';
import { notFound } from '../../http-error';
import { parseOrReject } from '../../validation';
import { eventParam, ruleBody, ruleFromBody, ruleView } from './rule-format';
import { workspaceOf } from './workspace-scope';

/** `/admin/workspaces/:workspaceId/conversion-rules`: which events become TikTok conversions, and their value. */
export const conversionRuleRoutes: FastifyPluginAsync<{ conversionRules: ConversionRuleRepository; rules: ConversionRuleService }> = async (app, { conversionRules, rules }) => {
  app.get('/', async (request) => ({ rules: (await conversionRules.list(workspaceOf(request).id)).map(ruleView) }));

  app.put('/:event', async (request) => {
    const { event } = parseOrReject(eventParam, request.params, 'path');
    const body = parseOrReject(ruleBody, request.body ?? {}, 'body');
    return ruleView(await rules.put('operator', workspaceOf(request).id, ruleFromBody(event, body)));
  });

  app.delete('/:event', async (request) => {
    const { event } = parseOrReject(eventParam, request.params, 'path');
    if (!(await rules.remove('operator', workspaceOf(request).id, event))) throw notFound(`no conversion rule for event ${event}`);
    return { event, deleted: true };
  });
};
