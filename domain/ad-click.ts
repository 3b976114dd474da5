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
