import { readableAdStatus } from './ad-status';

describe('readableAdStatus', () => {
  it.each([
    ['CAMPAIGN_STATUS_DELIVERY_OK', 'Active'],
    ['CAMPAIGN_STATUS_ENABLE', 'Active'],
    ['ADGROUP_STATUS_DISABLE', 'Paused'],
    ['AD_STATUS_AUDIT_DENY', 'Rejected'],
    ['ADGROUP_STATUS_CAMPAIGN_DISABLE', 'Campaign paused'],
    ['AD_STATUS_NOT_DELIVER', 'Not delivering'],
    ['ADGROUP_STATUS_BUDGET_EXCEED', 'Budget reached'],
    ['DISABLE', 'Paused'],
  ])('reads %s as %s', (code, label) => {
    expect(readableAdStatus(code)).toBe(label);
  });

  it('words a code it does not know, and has nothing for no status', () => {
    expect(readableAdStatus('AD_STATUS_SHOP_AUTHORIZATION_PENDING')).toBe('Shop authorization pending');
    expect(readableAdStatus(null)).toBeNull();
    expect(readableAdStatus(' ')).toBeNull();
  });
});
