import { defaultTikTokEvent } from './event-mapping';

describe('defaultTikTokEvent', () => {
  it.each([
    ['purchase', 'CompletePayment'],
    ['add_to_cart', 'AddToCart'],
    ['begin_checkout', 'InitiateCheckout'],
    ['signup', 'CompleteRegistration'],
    ['lead', 'SubmitForm'],
    ['view_content', 'ViewContent'],
    ['search', 'Search'],
  ])('maps the standard event %s to %s (spec §6.1)', (service, tiktok) => {
    expect(defaultTikTokEvent(service)).toBe(tiktok);
  });

  it('sends any other name as a custom event under its own name (spec §6.2)', () => {
    expect(defaultTikTokEvent('subscription_started')).toBe('subscription_started');
  });
});
