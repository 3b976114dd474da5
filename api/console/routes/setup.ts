import type { FastifyPluginAsync } from 'fastify';
import type { Repositories } from '../../../db/repositories';
import { MATCH_RATE_KEYS, MATCH_RATE_TARGET } from '../../../domain/match-rate';
import { currentWorkspace } from '../auth';
import { MATCH_RATE_DAYS, setupSteps } from '../setup-steps';

/** The setup checklist (Overview, and the status every page shows until it is done), from the workspace's state now. */
export const setupRoutes: FastifyPluginAsync<{ repos: Repositories }> = async (app, { repos }) => {
  app.get('/setup', async (request) => {
    const workspace = currentWorkspace(request);
    const now = new Date();
    const [browserKeyUse, lastEventAt, connection, rules, firstDelivered, coverage] = await Promise.all([
      repos.apiKeys.lastBrowserUse(workspace.id),
      repos.eventCounts.lastReceivedAt(workspace.id),
      repos.tiktokConnections.summary(workspace.id),
      repos.conversionRules.list(workspace.id),
      repos.conversionFigures.firstDelivered(workspace.id),
      repos.conversionFigures.matchKeyCoverage(workspace.id, { from: new Date(now.getTime() - MATCH_RATE_DAYS * 86_400_000), to: now }),
    ]);
    const steps = setupSteps({
      now,
      allowedOrigins: workspace.allowedOrigins,
      browserKeyUse,
      lastEventAt,
      connection,
      rules: rules.length,
      firstDelivered,
      matchRate: { delivered: coverage.delivered, matched: coverage.matched },
    });
    return {
      steps,
      done: steps.filter((step) => step.done).length,
      complete: steps.every((step) => step.done),
      matchRate: { keys: MATCH_RATE_KEYS, target: MATCH_RATE_TARGET, days: MATCH_RATE_DAYS, delivered: coverage.delivered, matched: coverage.matched },
    };
  });
};
