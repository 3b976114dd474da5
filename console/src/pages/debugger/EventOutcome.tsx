import { Link } from 'react-router';
import { Words } from '../../components/bits';

/** What became of an event (computed by the console API from the conversions, the duplicate mark and the rules). */
export type Outcome =
  | { kind: 'conversions'; text: string; conversions: { id: string; tiktokEvent: string }[] }
  | { kind: 'duplicate'; text: string; conversionId: string; messageId: string; tiktokEvent: string }
  | { kind: 'no_rule' | 'rule_added_later'; text: string; eventName: string }
  | { kind: 'not_a_conversion' | 'no_conversion'; text: string };

/** The outcome in a sentence, with a link to each conversion, to the one a repeat repeated, or to make the missing rule. */
export function EventOutcome({ ws, outcome }: { ws: string; outcome: Outcome }) {
  return (
    <p className={`outcome ${outcome.kind}`}>
      <Words text={outcome.text} />{' '}
      {outcome.kind === 'conversions' &&
        outcome.conversions.map((conversion, index) => (
          <span key={conversion.id}>
            {index > 0 && ' · '}
            <Link to={`/w/${ws}/conversions/${conversion.id}`}>Open the {conversion.tiktokEvent} conversion</Link>
          </span>
        ))}
      {outcome.kind === 'duplicate' && <Link to={`/w/${ws}/conversions/${outcome.conversionId}`}>Open the {outcome.tiktokEvent} it repeats</Link>}
      {outcome.kind === 'no_rule' && (
        <Link to={`/w/${ws}/rules?event=${encodeURIComponent(outcome.eventName)}`}>
          Create a rule for <code>{outcome.eventName}</code>
        </Link>
      )}
    </p>
  );
}
