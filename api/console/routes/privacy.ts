import type { FastifyPluginAsync } from 'fastify';
import type { Repositories } from '../../../db/repositories';
import { erasureNodes } from '../../http/erasure-subject';
import { erasureSubjectBody } from '../../../contract/erasures';
import { parseOrReject } from '../../http/validation';
import type { ErasureService } from '../../services/erasure';
import { actorNames } from '../actor-names';
import { actorOf, currentWorkspace, needs } from '../auth';
import { changeSummary, erasureChanges } from '../change-log-text';

const ERASURES_SHOWN = 20;

/**
 * Privacy requests from Settings: an owner erases a person (by user ID, anonymous ID, email or phone, hashed as at
 * ingest) through the same service as the settings API; everyone sees the latest erasures, which name nobody, and
 * the privacy requests of Shopify's sources (a data request names its customer, for the owner to answer).
 */
export const privacyRoutes: FastifyPluginAsync<{ repos: Repositories; erasures: ErasureService }> = async (app, { repos, erasures }) => {
  app.post('/erasures', { preHandler: needs('owner') }, async (request, reply) => {
    const workspace = currentWorkspace(request);
    const nodes = erasureNodes(parseOrReject(erasureSubjectBody, request.body, 'body'), workspace.defaultPhoneRegion);
    const result = await erasures.erase(workspace.id, nodes, actorOf(request));
    const logged = { identifiers: result.identifiers, erased: { ...result.erased } };
    return reply.code(201).send({
      id: result.id,
      requestedAt: result.requestedAt,
      truncated: result.truncated,
      summary: changeSummary({ action: 'erasure.run', target: result.id, before: null, after: logged }),
      counts: erasureChanges(logged),
    });
  });

  app.get('/shopify-privacy-requests', async (request) => {
    const rows = await repos.shopifyPrivacyRequests.list(currentWorkspace(request).id, ERASURES_SHOWN);
    return {
      requests: rows.map((row) => ({
        id: row.id,
        receivedAt: row.received_at,
        topic: row.topic,
        sourceName: row.source_name,
        shop: row.shop_domain,
        customer: row.customer,
        orders: row.orders ?? [],
        counts: erasureChanges({ erased: row.removed ?? row.erased ?? {} }),
      })),
    };
  });

  app.get('/erasures', async (request) => {
    const rows = await repos.erasures.list(currentWorkspace(request).id, ERASURES_SHOWN);
    const nameOf = await actorNames(repos.users, rows.map((row) => row.actor));
    return { erasures: rows.map((row) => ({ id: row.id, requestedAt: row.requested_at, actorName: nameOf(row.actor), counts: erasureChanges({ erased: row.erased }) })) };
  });
};
