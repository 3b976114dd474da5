import type { FastifyPluginAsync } from 'fastify';
import type { CredentialCache } from './auth/credential-cache';
import { browserConfigParams } from '../../contract/ingest';
import { notFound } from '../http/http-error';
import { parseOrReject } from '../http/validation';

/** Where the tracking script reads its workspace's settings: `<script host>/js/v1/config/<browser key>`. */
export const BROWSER_CONFIG_PATH = '/js/v1/config/:key';

/**
 * `GET /js/v1/config/:key`: what the tracking script must know before it stores anything: whether the workspace
 * waits for consent, and its attribution window. Public like the key itself; cached by browsers for 5 minutes.
 */
export const browserConfigRoutes: FastifyPluginAsync<{ credentials: CredentialCache }> = async (app, { credentials }) => {
  app.get(BROWSER_CONFIG_PATH, async (request, reply) => {
    reply.header('access-control-allow-origin', '*');
    const { key } = parseOrReject(browserConfigParams, request.params, 'path');
    const credential = await credentials.resolve(key);
    if (credential === undefined || credential.apiKey.kind !== 'browser') throw notFound('key: not an active browser key (pk_...) of any workspace');
    reply.header('cache-control', 'public, max-age=300');
    return { consentRequired: credential.workspace.consentRequired, attributionDays: credential.workspace.attributionWindowDays };
  });
};
