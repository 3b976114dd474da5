import { useState } from 'react';
import { RULE_DESTINATION_NAMES } from '../../../../contract/source-names';
import type { RuleDestination } from '../../../../contract/views';

/** Each choice of "Send to", with one sentence of advice, and what the rule's card then says. */
const DESTINATIONS: Record<RuleDestination, { advice: string; card: string }> = {
  auto: {
    advice: 'Best for most shops: events from your app go to your TikTok app, sales in a store or on the phone to your Offline Event Set, everything else to your pixel.',
    card: 'Sent where it happened: from your app to your TikTok app, in a store or on the phone to your Offline Event Set, the rest to your pixel.',
  },
  web: {
    advice: 'For events of your website only: they always go to your pixel, wherever they come from.',
    card: 'Always sent to your pixel, as website events.',
  },
  app: {
    advice: 'For events of your mobile app only: they always go to your TikTok app.',
    card: 'Always sent to your TikTok app.',
  },
  offline: {
    advice: "For sales in a store or on the phone: they go to your Offline Event Set under a standard TikTok event, and TikTok finds the customer by their email, phone or customer ID, with no ad click needed.",
    card: "Always sent to your Offline Event Set, as sales in a store or on the phone, matched on the customer's email, phone or ID.",
  },
  crm: {
    advice: "For the stages of a lead in your CRM: they go to your CRM Event Set under a name of your own (not a standard TikTok event), and each event must carry the lead's ID from your CRM.",
    card: "Sent to your CRM Event Set with the lead's ID from your CRM, matched on the customer's email, phone or ID.",
  },
};

/** The rule card's sentence about where its conversions go. */
export function destinationText(destination: RuleDestination): string {
  return DESTINATIONS[destination].card;
}

/** The rule form's "Send to" choice, submitted as `destination`, with the advice for the one chosen. */
export function DestinationSelect({ defaultValue }: { defaultValue: RuleDestination }) {
  const [chosen, setChosen] = useState<RuleDestination>(defaultValue);
  return (
    <div className="field">
      <label>
        Send to{' '}
        <select name="destination" value={chosen} onChange={(event) => setChosen(event.target.value as RuleDestination)} aria-describedby="destination-advice">
          {(Object.keys(DESTINATIONS) as RuleDestination[]).map((destination) => (
            <option key={destination} value={destination}>
              {RULE_DESTINATION_NAMES[destination]}
            </option>
          ))}
        </select>
      </label>
      <p id="destination-advice" className="muted">
        {DESTINATIONS[chosen].advice}
      </p>
    </div>
  );
}
