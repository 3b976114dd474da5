import type { FastifyPluginAsync } from 'fastify';
import { AD_URL_PARAMETERS, withAdUrlParameters } from '../../domain/ad-click';
import { workspaceOf } from './workspace-scope';

/**
 * `GET /admin/workspaces/:workspaceId/tiktok/ad-url-parameters`: what to add to every ad's landing page URL in TikTok
 * Ads Manager, so that reports can set the conversions Signalbox delivered beside TikTok's figures per campaign, ad
 * group and ad. Without it reports show 0 delivered everywhere.
 */
export const tiktokAdUrlRoutes: FastifyPluginAsync = async (app) => {
  app.get('/ad-url-parameters', async (request) => {
    const site = workspaceOf(request).allowedOrigins[0] ?? 'https://shop.example';
    return {
      urlParameters: AD_URL_PARAMETERS,
      macros: { __CAMPAIGN_ID__: 'campaign ID', __AID__: 'ad group ID', __CID__: 'ad ID' },
      exampleLandingUrl: withAdUrlParameters(`${site}/`),
      instructions:
        "In TikTok Ads Manager, add these URL parameters to the landing page URL of every ad (ad level, Destination: the website URL; keep any parameters it already has). TikTok replaces each macro with the ad's IDs at click time and appends ttclid; the tracking script records the landing URL, and Signalbox ties the click, and every conversion it delivers for that click, to the campaign, ad group and ad.",
    };
  });
};
