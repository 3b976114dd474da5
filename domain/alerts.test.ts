import { conditionsHolding, MIN_SETTLED_FOR_SHARE, type AlertState, type AlertThresholds } from './alerts';

const now = new Date('2026-11-26T12:00:00Z');
const all: AlertThresholds = { onReauthorization: true, failedSharePercent: 20, silenceMinutes: 60 };
const calm: AlertState = { connectionStatus: 'active', settled: { delivered: 95, failed: 5 }, lastEventAt: new Date('2026-11-26T11:30:00Z'), since: new Date('2026-11-01T00:00:00Z'), now, timeZone: 'Europe/Paris' };
const holding = (thresholds: AlertThresholds, state: Partial<AlertState>) => [...conditionsHolding(thresholds, { ...calm, ...state }).keys()];

describe('conditionsHolding', () => {
  it('finds nothing in a calm workspace', () => {
    expect(holding(all, {})).toEqual([]);
  });

  it('holds re-authorization while the connection awaits it, unless that alert is off', () => {
    expect(holding(all, { connectionStatus: 'reauthorization_required' })).toEqual(['reauthorization']);
    expect(holding({ ...all, onReauthorization: false }, { connectionStatus: 'reauthorization_required' })).toEqual([]);
    expect(holding(all, { connectionStatus: null })).toEqual([]);
  });

  it.each([
    [{ delivered: 80, failed: 20 }, true],
    [{ delivered: 81, failed: 19 }, false],
    [{ delivered: 0, failed: MIN_SETTLED_FOR_SHARE - 1 }, false],
    [{ delivered: 0, failed: MIN_SETTLED_FOR_SHARE }, true],
  ])('holds failed deliveries at the threshold share and from %p settled on: %p', (settled, holds) => {
    expect(holding(all, { settled }).includes('failed_deliveries')).toBe(holds);
    expect(holding({ ...all, failedSharePercent: null }, { settled }).includes('failed_deliveries')).toBe(false);
  });

  it('holds silence from the last event, or from when alerts were set up when none arrived', () => {
    expect(holding(all, { lastEventAt: new Date('2026-11-26T11:00:00Z') })).toEqual(['no_events']);
    expect(holding(all, { lastEventAt: new Date('2026-11-26T11:00:01Z') })).toEqual([]);
    expect(holding(all, { lastEventAt: null, since: new Date('2026-11-26T11:30:00Z') })).toEqual([]);
    expect(holding(all, { lastEventAt: null, since: new Date('2026-11-26T10:00:00Z') })).toEqual(['no_events']);
    expect(holding({ ...all, silenceMinutes: null }, { lastEventAt: null })).toEqual([]);
  });

  it('says why in words', () => {
    expect(conditionsHolding(all, { ...calm, settled: { delivered: 6, failed: 4 } }).get('failed_deliveries')).toBe('4 of the 10 conversions settled in the last hour failed (40%; the alert is at 20%).');
    expect(conditionsHolding(all, { ...calm, lastEventAt: new Date('2026-11-26T09:00:00Z') }).get('no_events')).toBe('No event has arrived for 1 hour or more (the last at 26 Nov 2026, 10:00 Europe/Paris).');
  });
});
