import { metricsFor, parseReportRows } from './report-rows';

const row = (metrics: Record<string, string>) => ({ dimensions: { campaign_id: '1800000000000000001', stat_time_day: '2026-03-01 00:00:00' }, metrics: { campaign_name: 'App installs', ...metrics } });

describe('parseReportRows', () => {
  it('asks for the value of app purchases as well as web purchases', () => {
    expect(metricsFor('campaign')).toEqual(expect.arrayContaining(['total_complete_payment_rate', 'total_purchase_value']));
  });

  it('values an app campaign by its in-app purchases, and a mixed one by both, exactly', () => {
    const { stats } = parseReportRows('campaign', '7391846250173946281', [
      row({ spend: '50.00', impressions: '1000', clicks: '20', conversion: '3', total_complete_payment_rate: '0.00', total_purchase_value: '149.97' }),
      row({ spend: '10', impressions: '100', clicks: '2', conversion: '2', total_complete_payment_rate: '0.10', total_purchase_value: '0.20' }),
      row({ spend: '1', impressions: '1', clicks: '0', conversion: '0', total_complete_payment_rate: '-', total_purchase_value: '-' }),
    ]);
    expect(stats.map((s) => s.conversionValue)).toEqual(['149.97', '0.3', null]);
  });
});
