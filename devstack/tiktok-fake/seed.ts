/**
 * What the fake knows from the start and after every reset: developer apps, advertisers with their pixels and ad
 * structure, and access tokens. IDs follow the real formats (§0 "ID formats"): 19-digit strings, pixel codes of 20
 * upper-case alphanumerics starting with `C`.
 */

/** Who may call the fake: an access token and the pixel codes and advertisers it is authorized for. */
export interface FakeTikTokTokenGrant {
  accessToken: string;
  /** Values accepted as `event_source_id` (pixel codes for web events). */
  pixelCodes: string[];
  /** Advertiser IDs as strings: they exceed 2^53. */
  advertiserIds: string[];
  /** Permission IDs granted (strings, see scopes.ts); absent: every permission (a token made in Events Manager or the dev seed). */
  scopes?: string[];
}

/** A developer app of the Marketing API: `app_id` and `secret` of the OAuth code exchange (§8). */
export interface FakeTikTokApp {
  appId: string;
  secret: string;
}

export interface FakeTikTokAdSeed {
  adId: string;
  adName: string;
}

export interface FakeTikTokAdGroupSeed {
  adgroupId: string;
  adgroupName: string;
  ads: FakeTikTokAdSeed[];
}

export interface FakeTikTokCampaignSeed {
  campaignId: string;
  campaignName: string;
  /** `operation_status` of campaign/get (§7.4): ENABLE, DISABLE. Default ENABLE. */
  operationStatus?: string;
  adGroups: FakeTikTokAdGroupSeed[];
}

export interface FakeTikTokPixelSeed {
  pixelId: string;
  pixelCode: string;
  pixelName: string;
}

/** An Offline or CRM Event Set: its ID is the `event_source_id` of `offline` and `crm` events (§1.1). */
export interface FakeTikTokEventSetSeed {
  eventSetId: string;
  name: string;
}

export interface FakeTikTokAdvertiserSeed {
  advertiserId: string;
  advertiserName: string;
  /** ISO 4217: spend and values are in it. */
  currency: string;
  /** IANA zone: report days are its days. Default `Etc/GMT` (UTC). */
  timeZone?: string;
  pixels: FakeTikTokPixelSeed[];
  /** What `offline/get` and `crm/list` list; absent: none. */
  offlineEventSets?: FakeTikTokEventSetSeed[];
  crmEventSets?: FakeTikTokEventSetSeed[];
  campaigns: FakeTikTokCampaignSeed[];
  /**
   * Landing page of every ad. TikTok substitutes `__CAMPAIGN_ID__`, `__AID__` (ad group) and `__CID__` (ad) at click
   * time and appends `ttclid` (§9); Signalbox's documented convention carries the three IDs as query parameters.
   */
  landingPageUrl: string;
}

export interface FakeTikTokSeed {
  tokens: FakeTikTokTokenGrant[];
  apps?: FakeTikTokApp[];
  advertisers?: FakeTikTokAdvertiserSeed[];
}

/** 19 digits, like real advertiser IDs (§0 "ID formats"). */
export const FAKE_TIKTOK_ADVERTISER_ID = '7391846250173946281';
/** 20 upper-case alphanumerics starting with `C`, like real pixel codes (§0 "ID formats"). */
export const FAKE_TIKTOK_PIXEL_CODE = 'CSIGNALBOXDEVPIXEL01';
/** The main advertiser's Offline Event Set and CRM Event Set (19 digits, as the SDK's int64 IDs: UNVERIFIED format). */
export const FAKE_TIKTOK_OFFLINE_EVENT_SET_ID = '7391846250173950001';
export const FAKE_TIKTOK_CRM_EVENT_SET_ID = '7391846250173960001';
/** Known token of the dev stack; only the fake accepts it. */
export const FAKE_TIKTOK_ACCESS_TOKEN = 'signalbox-dev-tiktok-access-token';
/** The dev stack's developer app (set `TIKTOK_APP_ID` / `TIKTOK_APP_SECRET` to these against the fake). */
export const FAKE_TIKTOK_APP_ID = '7400000000000000001';
export const FAKE_TIKTOK_APP_SECRET = 'signalbox-dev-tiktok-app-secret';
/** A second advertiser the OAuth grant lists, with its own pixel and campaigns. */
export const FAKE_TIKTOK_SECOND_ADVERTISER_ID = '7391846250173946282';

export const SIGNALBOX_LANDING_URL_TEMPLATE =
  'https://shop.example/landing?utm_source=tiktok&campaign_id=__CAMPAIGN_ID__&adgroup_id=__AID__&ad_id=__CID__';

export interface GeneratedAdvertiserShape {
  advertiserId: string;
  advertiserName?: string;
  currency?: string;
  timeZone?: string;
  campaigns: number;
  adGroupsPerCampaign: number;
  adsPerAdGroup: number;
  pixelCodes?: string[];
}

/**
 * An advertiser with a regular structure and IDs derived from the advertiser ID, e.g. for 2,000 ads in the bench:
 * campaign `<adv-prefix>1ccc…`, ad group `…2ccgg…`, ad `…3ccggaaa…` (all 19 digits).
 */
export function generateAdvertiser(shape: GeneratedAdvertiserShape): FakeTikTokAdvertiserSeed {
  const prefix = shape.advertiserId.slice(0, 7);
  const id = (kind: number, serial: number) => `${prefix}${kind}${String(serial).padStart(11, '0')}`;
  let adGroupSerial = 0;
  let adSerial = 0;
  const campaigns: FakeTikTokCampaignSeed[] = [];
  for (let c = 1; c <= shape.campaigns; c++) {
    const adGroups: FakeTikTokAdGroupSeed[] = [];
    for (let g = 1; g <= shape.adGroupsPerCampaign; g++) {
      adGroupSerial += 1;
      const ads: FakeTikTokAdSeed[] = [];
      for (let a = 1; a <= shape.adsPerAdGroup; a++) {
        adSerial += 1;
        ads.push({ adId: id(3, adSerial), adName: `Ad ${c}.${g}.${a}` });
      }
      adGroups.push({ adgroupId: id(2, adGroupSerial), adgroupName: `Ad group ${c}.${g}`, ads });
    }
    campaigns.push({ campaignId: id(1, c), campaignName: `Campaign ${c}`, adGroups });
  }
  const pixelCodes = shape.pixelCodes ?? [];
  return {
    advertiserId: shape.advertiserId,
    advertiserName: shape.advertiserName ?? `Advertiser ${shape.advertiserId}`,
    currency: shape.currency ?? 'USD',
    timeZone: shape.timeZone ?? 'Etc/GMT',
    pixels: pixelCodes.map((pixelCode, index) => ({ pixelId: id(4, index + 1), pixelCode, pixelName: `Pixel ${index + 1}` })),
    campaigns,
    landingPageUrl: SIGNALBOX_LANDING_URL_TEMPLATE,
  };
}

const mainAdvertiser: FakeTikTokAdvertiserSeed = {
  advertiserId: FAKE_TIKTOK_ADVERTISER_ID,
  advertiserName: 'Signalbox Dev Shop',
  currency: 'USD',
  timeZone: 'Etc/GMT',
  pixels: [
    { pixelId: '7391846250173940001', pixelCode: FAKE_TIKTOK_PIXEL_CODE, pixelName: 'Dev shop pixel' },
    { pixelId: '7391846250173940002', pixelCode: 'CSIGNALBOXDEVPIXEL02', pixelName: 'Dev shop staging pixel' },
  ],
  offlineEventSets: [
    { eventSetId: FAKE_TIKTOK_OFFLINE_EVENT_SET_ID, name: 'Dev shop stores' },
    { eventSetId: '7391846250173950002', name: 'Dev shop phone orders' },
  ],
  crmEventSets: [{ eventSetId: FAKE_TIKTOK_CRM_EVENT_SET_ID, name: 'Dev shop CRM' }],
  campaigns: [
    {
      campaignId: '1800000000000000001',
      campaignName: 'Spring sale',
      adGroups: [
        {
          adgroupId: '1810000000000000001',
          adgroupName: 'Spring sale – lookalikes',
          ads: [
            { adId: '1820000000000000001', adName: 'Spring sale video A' },
            { adId: '1820000000000000002', adName: 'Spring sale video B' },
          ],
        },
        {
          adgroupId: '1810000000000000002',
          adgroupName: 'Spring sale – retargeting',
          ads: [{ adId: '1820000000000000003', adName: 'Spring sale carousel' }],
        },
      ],
    },
    {
      campaignId: '1800000000000000002',
      campaignName: 'Brand awareness',
      operationStatus: 'DISABLE',
      adGroups: [
        {
          adgroupId: '1810000000000000003',
          adgroupName: 'Brand – broad',
          ads: [{ adId: '1820000000000000004', adName: 'Brand video' }],
        },
      ],
    },
  ],
  landingPageUrl: SIGNALBOX_LANDING_URL_TEMPLATE,
};

const secondAdvertiser: FakeTikTokAdvertiserSeed = {
  ...generateAdvertiser({
    advertiserId: FAKE_TIKTOK_SECOND_ADVERTISER_ID,
    advertiserName: 'Signalbox Dev Outlet',
    currency: 'JPY',
    timeZone: 'Asia/Tokyo',
    campaigns: 1,
    adGroupsPerCampaign: 1,
    adsPerAdGroup: 2,
    pixelCodes: ['CSIGNALBOXOUTLETPX01'],
  }),
  offlineEventSets: [{ eventSetId: '7391846250173950003', name: 'Outlet stores' }],
};

export const DEFAULT_FAKE_TIKTOK_SEED: FakeTikTokSeed = {
  tokens: [
    {
      accessToken: FAKE_TIKTOK_ACCESS_TOKEN,
      pixelCodes: [FAKE_TIKTOK_PIXEL_CODE],
      advertiserIds: [FAKE_TIKTOK_ADVERTISER_ID],
    },
  ],
  apps: [{ appId: FAKE_TIKTOK_APP_ID, secret: FAKE_TIKTOK_APP_SECRET }],
  advertisers: [mainAdvertiser, secondAdvertiser],
};
