import type { FastifyPluginAsync } from 'fastify';
import type { ErasureRepository } from '../../db/repositories/erasures';
import type { ErasureService } from '../services/erasure';
import { erasureNodes } from '../http/erasure-subject';
import { erasureSubjectBody } from '../../contract/erasures';
import { parseOrReject } from '../http/validation';
import { workspaceOf } from './workspace-scope';
import { erasureListQuery } from '../../contract/settings-api/workspace-routes';

/** `/admin/workspaces/:workspaceId/erasures`: erase a person, and the log of erasures (identifiers as digests only). */
export const erasureRoutes: FastifyPluginAsync<{ erasures: ErasureService; log: ErasureRepository }> = async (app, { erasures, log }) => {
  app.post('/', async (request, reply) => {
    const workspace = workspaceOf(request);
    const nodes = erasureNodes(parseOrReject(erasureSubjectBody, request.body, 'body'), workspace.defaultPhoneRegion);
    return reply.code(201).send(await erasures.erase(workspace.id, nodes, 'operator'));
  });

  app.get('/', async (request) => {
    const { limit } = parseOrReject(erasureListQuery, request.query, 'query');
    const rows = await log.list(workspaceOf(request).id, limit);
    return { erasures: rows.map((row) => ({ id: row.id, requestedAt: row.requested_at, actor: row.actor, identifiers: row.identifiers, erased: row.erased })) };
  });
};
