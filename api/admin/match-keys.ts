import type { FastifyPluginAsync } from 'fastify';
import type { MatchKeyCoverageRepository } from '../../db/repositories/match-key-coverage';
import { parseOrReject } from '../http/validation';
import { workspaceOf } from './workspace-scope';
import { matchKeyQuery } from '../../contract/settings-api/workspace-routes';

const DAY_MS = 86_400_000;
/**
 * `GET /admin/workspaces/:workspaceId/match-keys?days=30`: of the conversions delivered in the last `days` days, the
 * share that carried each match key TikTok grades (Event Match Quality), and where those keys came from.
 */
export const matchKeyRoutes: FastifyPluginAsync<{ coverage: MatchKeyCoverageRepository }> = async (app, { coverage }) => {
  app.get('/', async (request) => {
    const { days, source } = parseOrReject(matchKeyQuery, request.query, 'query');
    const since = new Date(Date.now() - days * DAY_MS);
    return { workspaceId: workspaceOf(request).id, days, since, source: source ?? null, ...(await coverage.coverage(workspaceOf(request).id, since, source)) };
  });
};
