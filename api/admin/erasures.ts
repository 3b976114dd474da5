import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { ErasureRepository } from '../../db/repositories/erasures';
import { subjectNodes, type SubjectField } from '../../domain/personal-data';
import type { ErasureService } from '../services/erasure';
import { badRequest } from '../http/http-error';
import { parseOrReject } from '../http/validation';
import { jsonBody } from '../http/fields';
import { workspaceOf } from './workspace-scope';

const identifier = z.string({ error: 'must be a string' }).max(1000, 'must be at most 1000 characters').optional();
const eraseBody = jsonBody({ userId: identifier, anonymousId: identifier, email: identifier, phone: identifier }).refine(
  (subject) => Object.values(subject).some((value) => value !== undefined),
  'must name the person by at least one of userId, anonymousId, email, phone',
);
const limitMessage = 'must be a whole number from 1 to 200';
const listQuery = z.strictObject({ limit: z.coerce.number({ error: limitMessage }).int(limitMessage).min(1, limitMessage).max(200, limitMessage).default(50) });

function unreadableIssue(field: SubjectField, region: string): string {
  switch (field) {
    case 'email':
      return 'email is not an email address (nor the SHA-256 of one)';
    case 'phone':
      return `phone is not a phone number (numbers without a country code are read in the workspace's default region, ${region})`;
    default:
      return `${field} is not a usable identifier (empty, or a placeholder such as "null" or "anonymous" that ingest never links)`;
  }
}

/** `/admin/workspaces/:workspaceId/erasures`: erase a person, and the log of erasures (identifiers as digests only). */
export const erasureRoutes: FastifyPluginAsync<{ erasures: ErasureService; log: ErasureRepository }> = async (app, { erasures, log }) => {
  app.post('/', async (request, reply) => {
    const workspace = workspaceOf(request);
    const { nodes, unreadable } = subjectNodes(parseOrReject(eraseBody, request.body, 'body'), workspace.defaultPhoneRegion);
    if (unreadable.length > 0) {
      const issues = unreadable.map((field) => unreadableIssue(field, workspace.defaultPhoneRegion));
      throw badRequest(issues.join('; '), issues);
    }
    return reply.code(201).send(await erasures.erase(workspace.id, nodes, 'operator'));
  });

  app.get('/', async (request) => {
    const { limit } = parseOrReject(listQuery, request.query, 'query');
    const rows = await log.list(workspaceOf(request).id, limit);
    return { erasures: rows.map((row) => ({ id: row.id, requestedAt: row.requested_at, actor: row.actor, identifiers: row.identifiers, erased: row.erased })) };
  });
};
