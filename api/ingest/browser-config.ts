import type { FastifyPluginAsync } from 'fastify';
import type { CredentialCache, PixelSetup } from './auth/credential-cache';
import { browserConfigParams, type BrowserConfigView } from '../../contract/ingest';
import type { Workspace } from '../../db/repositories/workspaces';
import { notFound } from '../http/http-error';
import { parseOrReject } from '../http/validation';

/** Where the tracking script reads its workspace's settings: `<script host>/js/v1/config/<browser key>`. */
export const BROWSER_CONFIG_PATH = '/js/v1/config/:key';

/** The rules the tag applies to the pixel: none when it leaves the pixel alone. */
function pixelRules(workspace: Workspace, setup: PixelSetup): BrowserConfigView['rules'] {
  if (workspace.browserPixel === 'off') return [];
  return setup.rules.map(({ sourceEvent, tiktokEvent, alsoSendAs, valueSource, fixedValue, currency }) => ({
    sourceEvent,
    tiktokEvent,
    alsoSendAs: [...alsoSendAs],
    valueSource,
    fixedValue,
    currency,
  }));
}

/**
 * `GET /js/v1/config/:key`: what the tracking script must know before it stores anything: whether the workspace
 * waits for consent, its attribution window, and how it drives TikTok's pixel with the server's event IDs. Public like
 * the key itself; cached by browsers for 5 minutes, and in-process (key, workspace, pixel setup) by the credential cache.
 */
export const browserConfigRoutes: FastifyPluginAsync<{ credentials: CredentialCache; pixelLibraryUrl: string }> = async (app, { credentials, pixelLibraryUrl }) => {
  app.get(BROWSER_CONFIG_PATH, async (request, reply): Promise<BrowserConfigView> => {
    reply.header('access-control-allow-origin', '*');
    const { key } = parseOrReject(browserConfigParams, request.params, 'path');
    const credential = await credentials.resolve(key);
    if (credential === undefined || credential.apiKey.kind !== 'browser') throw notFound('key: not an active browser key (pk_...) of any workspace');
    const { workspace } = credential;
    const setup = await credentials.pixelSetup(workspace.id);
    reply.header('cache-control', 'public, max-age=300');
    return {
      consentRequired: workspace.consentRequired,
      attributionDays: workspace.attributionWindowDays,
      pixel: { mode: workspace.browserPixel, code: setup.code, libraryUrl: pixelLibraryUrl, limitedDataUse: workspace.limitedDataUse },
      rules: pixelRules(workspace, setup),
    };
  });
};
