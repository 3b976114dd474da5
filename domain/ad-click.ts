/**
 * Which ad a click came from. TikTok substitutes URL macros in an ad's landing URL at click time (`__CAMPAIGN_ID__`,
 * `__AID__` = ad group ID, `__CID__` = ad ID); Signalbox's documented convention is a landing URL carrying
 * `campaign_id=__CAMPAIGN_ID__&adgroup_id=__AID__&ad_id=__CID__` (or `ad_group_id`) next to `ttclid`.
 */
export interface AdClickIds {
  campaignId?: string;
  adgroupId?: string;
  adId?: string;
}

/**
 * What a marketer appends to every ad's landing page URL so that delivered conversions can be set beside TikTok's
 * figures per campaign, ad group and ad (the closed loop). TikTok replaces each macro with the ID at click time.
 */
export const AD_URL_PARAMETERS = 'campaign_id=__CAMPAIGN_ID__&adgroup_id=__AID__&ad_id=__CID__';

/** A landing page URL with the parameters added (after any it already has). */
export function withAdUrlParameters(landingUrl: string): string {
  const [beforeHash = '', hash] = landingUrl.split('#', 2);
  const joined = `${beforeHash}${beforeHash.includes('?') ? (/[?&]$/.test(beforeHash) ? '' : '&') : '?'}${AD_URL_PARAMETERS}`;
  return hash === undefined ? joined : `${joined}#${hash}`;
}

/** TikTok IDs are 16–19 digits; anything else (an unsubstituted macro, junk) is ignored. */
const TIKTOK_ID = /^\d{1,32}$/;

function idParam(params: URLSearchParams, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = params.get(name)?.trim();
    if (value !== undefined && TIKTOK_ID.test(value)) return value;
  }
  return undefined;
}

/** The campaign, ad group and ad IDs of a landing URL; empty when the URL carries none or is not a URL. */
export function readAdClickIds(url: string | undefined): AdClickIds {
  if (url === undefined || !URL.canParse(url)) return {};
  const params = new URL(url).searchParams;
  const ids: AdClickIds = {
    campaignId: idParam(params, 'campaign_id'),
    adgroupId: idParam(params, 'adgroup_id', 'ad_group_id'),
    adId: idParam(params, 'ad_id'),
  };
  return Object.fromEntries(Object.entries(ids).filter(([, value]) => value !== undefined)) as AdClickIds;
}
