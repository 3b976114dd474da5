import { Link } from 'react-router';
import { Words } from '../../components/bits';
import type { EventOutcomeView as Outcome } from '../../../../contract/debugger-views';

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
      {outcome.kind === 'no_rule' && outcome.warning && <span className="warn">{outcome.warning} </span>}
      {outcome.kind === 'no_rule' && (
        <Link to={`/w/${ws}/rules?event=${encodeURIComponent(outcome.eventName)}`}>
          {outcome.warning ? 'Create a rule for it anyway' : <>Create a rule for <code>{outcome.eventName}</code></>}
        </Link>
      )}
    </p>
  );
}
