import { eventSourceFor, happenedOffline, matchedOnPerson, readLead } from './event-source';
import type { TrackedMessage } from './message';

const message = (extra: Partial<TrackedMessage>): TrackedMessage => ({ type: 'track', event: 'Order Completed', messageId: 'm-1', timestamp: '2026-03-20T12:00:00Z', ...extra });
const app = { app: { name: 'Shop' }, device: { advertisingId: 'x' } };

describe('eventSourceFor', () => {
  it('with auto, sends app events to the app, events that happened offline to the Offline Event Set, the rest to the pixel', () => {
    expect(eventSourceFor('auto', message({ context: app }), false)).toBe('app');
    expect(eventSourceFor('auto', message({}), true)).toBe('app');
    expect(eventSourceFor('auto', message({ context: { channel: 'offline' } }), false)).toBe('offline');
    expect(eventSourceFor('auto', message({ context: { channel: 'web' } }), false)).toBe('web');
    expect(eventSourceFor('auto', message({ properties: { channel: 'offline' } }), false)).toBe('web');
  });

  it('sends every event to the source a rule chooses, CRM only when chosen', () => {
    expect(eventSourceFor('web', message({ context: { channel: 'offline', ...app } }), true)).toBe('web');
    expect(eventSourceFor('offline', message({}), false)).toBe('offline');
    expect(eventSourceFor('crm', message({ context: app }), false)).toBe('crm');
  });
});

describe('offline and CRM facts', () => {
  it('knows offline only from context.channel "offline"', () => {
    expect(happenedOffline(message({ context: { channel: 'offline' } }))).toBe(true);
    expect(happenedOffline(message({ context: { channel: 'Offline ' } }))).toBe(false);
  });

  it('matches offline and CRM events on the person', () => {
    expect(['web', 'app', 'offline', 'crm'].filter((s) => matchedOnPerson(s as never))).toEqual(['offline', 'crm']);
  });

  it('reads the lead from properties.lead_id and lead_event_source, trimmed; none without a lead ID', () => {
    expect(readLead(message({ properties: { lead_id: ' hs-1 ', lead_event_source: 'HubSpot' } }))).toEqual({ lead_id: 'hs-1', lead_event_source: 'HubSpot' });
    expect(readLead(message({ properties: { lead_id: 42, lead_event_source: '' } }))).toEqual({ lead_id: '42' });
    expect(readLead(message({ properties: { lead_event_source: 'HubSpot' } }))).toBeUndefined();
    expect(readLead(message({ properties: { lead_id: { id: 1 } } }))).toBeUndefined();
  });
});
