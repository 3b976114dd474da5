/**
 * Marketing API permission IDs (the integers of the `scope` array of `oauth2/access_token`), as listed by
 * api-evangelist/tiktok-ads `scopes/tiktok-ads-scopes.yml` (harvested from TikTok's "App permissions" docs; one
 * secondary source, so UNVERIFIED in the sense of the reference). A first-level ID implies every permission below it.
 * IDs above 2^53 are kept as strings here and sent as bare JSON numbers, as TikTok does.
 */
export const FAKE_SCOPES = {
  adAccountManagement: '1',
  readAdAccountInformation: '100',
  adsManagement: '2',
  readCampaigns: '200',
  readAdGroups: '210',
  readAds: '220',
  reporting: '4',
  consolidatedReport: '44',
  measurement: '5',
  reportConversionEvent: '7224195155857866754',
  pixelManagement: '8',
  readPixels: '800',
  offlineEventsManagement: '7043626160646946818',
  readOfflineEvents: '7224195155857833986',
  crmEventManagement: '7294180478502830081',
  readCrmEventSets: '7294180478502846465',
} as const;

const S = FAKE_SCOPES;

/** What a grant made through the fake's authorization page carries unless a test asks for less. */
export const FULL_GRANT_SCOPES: readonly string[] = ['1', '2', '3', '4', '5', '6', '7', '8', '9', S.offlineEventsManagement, S.crmEventManagement];

/** Any one of these lets the call through (parents imply children). */
export const ROUTE_SCOPES = {
  eventTrack: [S.measurement, S.reportConversionEvent],
  advertiserGet: [S.adAccountManagement, '10', S.readAdAccountInformation],
  pixelList: [S.pixelManagement, '80', S.readPixels],
  offlineGet: [S.offlineEventsManagement, S.readOfflineEvents],
  crmList: [S.crmEventManagement, S.readCrmEventSets],
  campaignGet: [S.adsManagement, '20', S.readCampaigns],
  adgroupGet: [S.adsManagement, '21', S.readAdGroups],
  adGet: [S.adsManagement, '22', S.readAds],
  report: [S.reporting, S.consolidatedReport],
} as const satisfies Record<string, readonly string[]>;
