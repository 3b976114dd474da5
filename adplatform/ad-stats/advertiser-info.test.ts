import { advertiserLocale } from './advertiser-info';

describe('advertiserLocale', () => {
  it("reads TikTok's currency and prefers the named zone over the offset zone", () => {
    expect(advertiserLocale({ advertiser_id: '1', currency: 'jpy', timezone: 'Etc/GMT-9', display_timezone: 'Asia/Tokyo' })).toEqual({ currency: 'JPY', timeZone: 'Asia/Tokyo' });
    expect(advertiserLocale({ advertiser_id: '1', currency: 'EUR', timezone: 'Etc/GMT+8' })).toEqual({ currency: 'EUR', timeZone: 'Etc/GMT+8' });
  });

  it('leaves out what it cannot read rather than guessing', () => {
    expect(advertiserLocale({ advertiser_id: '1', currency: 'US Dollar', timezone: 'Mars/Olympus', display_timezone: '' })).toEqual({ currency: null, timeZone: null });
    expect(advertiserLocale(undefined)).toEqual({ currency: null, timeZone: null });
  });
});
