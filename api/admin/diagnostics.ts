import type { FastifyPluginAsync } from 'fastify';
import { diagnosticsDaysQuery } from '../../contract/diagnostics';
import type { Repositories } from '../../db/repositories';
import { parseOrReject } from '../http/validation';
import { workspaceDiagnostics } from '../services/diagnostics';
import { workspaceOf } from './workspace-scope';

const DAY_MS = 86_400_000;

/**
 * `GET /admin/workspaces/:workspaceId/diagnostics?days=7`: per TikTok event, what became of the conversions whose
 * event happened in the last `days` days (received, delivered, refused by TikTok and why, missing recommended
 * parameters, repeated event IDs, delivered without a click).
 */
export const diagnosticsRoutes: FastifyPluginAsync<{ repos: Repositories }> = async (app, { repos }) => {
  app.get('/', async (request) => {
    const { days, source } = parseOrReject(diagnosticsDaysQuery, request.query, 'query');
    const to = new Date();
    const from = new Date(to.getTime() - days * DAY_MS);
    const workspaceId = workspaceOf(request).id;
    return { workspaceId, days, from, to, ...(await workspaceDiagnostics(repos, workspaceId, { from, to }, source)) };
  });
};
