import type { FastifyPluginAsync } from 'fastify';
import type { Knex } from 'knex';
import { diagnosticsPeriodQuery } from '../../../contract/diagnostics';
import type { Repositories } from '../../../db/repositories';
import { parseOrReject } from '../../http/validation';
import { workspaceDiagnostics } from '../../services/diagnostics';
import { currentWorkspace } from '../auth';
import { resolvePeriod } from '../period';

/** Diagnostics: per TikTok event, what became of the conversions whose event happened in the period (any member may read). */
export const diagnosticsRoutes: FastifyPluginAsync<{ db: Knex; repos: Repositories }> = async (app, { db, repos }) => {
  app.get('/diagnostics', async (request) => {
    const query = parseOrReject(diagnosticsPeriodQuery, request.query, 'query');
    const period = await resolvePeriod(db, query);
    return { from: query.from, to: query.to, timeZone: query.timeZone, ...(await workspaceDiagnostics(repos, currentWorkspace(request).id, period, query.source)) };
  });
};
