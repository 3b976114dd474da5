import { AD_URL_PARAMETERS, readAdClickIds, withAdUrlParameters } from './ad-click';
import { observe, type VisitorSighting } from './observation';

describe('the ad URL parameters of the closed loop', () => {
  it('are read back as the campaign, ad group and ad once TikTok has substituted its macros', () => {
    const landing = withAdUrlParameters('https://shop.example/ferns?utm_source=tiktok#top');
    expect(landing).toBe(`https://shop.example/ferns?utm_source=tiktok&${AD_URL_PARAMETERS}#top`);
    const clicked = landing.replace('__CAMPAIGN_ID__', '1800000000000000001').replace('__AID__', '1810000000000000002').replace('__CID__', '1820000000000000003');
    expect(readAdClickIds(`${clicked.split('#')[0]}&ttclid=E.C.P.x`)).toEqual({ campaignId: '1800000000000000001', adgroupId: '1810000000000000002', adId: '1820000000000000003' });
    expect(withAdUrlParameters('https://shop.example/')).toBe(`https://shop.example/?${AD_URL_PARAMETERS}`);
  });
});

describe('readAdClickIds', () => {
  it('reads the IDs TikTok substituted into the landing URL, accepting ad_group_id too', () => {
    expect(readAdClickIds('https://shop.example/?campaign_id=1800000000000000001&adgroup_id=1810000000000000001&ad_id=1820000000000000002&ttclid=E.C.P.x')).toEqual({
      campaignId: '1800000000000000001',
      adgroupId: '1810000000000000001',
      adId: '1820000000000000002',
    });
    expect(readAdClickIds('https://shop.example/?ad_group_id=42')).toEqual({ adgroupId: '42' });
  });

  it('ignores unsubstituted macros, junk and non-URLs', () => {
    expect(readAdClickIds('https://shop.example/?campaign_id=__CAMPAIGN_ID__&ad_id=abc')).toEqual({});
    expect(readAdClickIds('not a url')).toEqual({});
    expect(readAdClickIds(undefined)).toEqual({});
  });
});

describe('observe: ad IDs on a click', () => {
  const at = new Date('2026-01-01T00:00:00Z');
  const url = 'https://shop.example/landing?campaign_id=18&adgroup_id=181&ad_id=1820&ttclid=E.C.P.abc';

  it('records the ad with the click', () => {
    const { sighting } = observe({ type: 'page', messageId: 'm1', timestamp: at.toISOString(), anonymousId: 'a1', context: { page: { url } } }, at, 'US');
    expect(sighting).toMatchObject<Partial<VisitorSighting>>({ ttclid: 'E.C.P.abc', ad: { campaignId: '18', adgroupId: '181', adId: '1820' } });
  });

  it('records no ad without a ttclid', () => {
    const plain = url.replace('&ttclid=E.C.P.abc', '');
    const { sighting } = observe({ type: 'page', messageId: 'm2', timestamp: at.toISOString(), anonymousId: 'a1', context: { page: { url: plain } } }, at, 'US');
    expect(sighting?.ad).toBeUndefined();
  });
});
