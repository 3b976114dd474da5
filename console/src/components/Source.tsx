import { CONVERSION_SOURCE_NAMES, CONVERSION_SOURCES, type ConversionSource } from '../../../contract/source-names';

/** Where TikTok receives each source's conversions. */
const DESTINATIONS: Record<ConversionSource, string> = { web: 'pixel', app: 'TikTok app', offline: 'Offline Event Set', crm: 'CRM Event Set' };

/** Said wherever offline or CRM figures are shown: TikTok matches them differently. */
export const MATCHED_ON_PERSON =
  "Offline and CRM conversions carry no ad click and no browser cookie: TikTok matches them on the customer's email, phone or ID alone, so those keys decide how many it can match.";

export const sourceName = (source: ConversionSource) => CONVERSION_SOURCE_NAMES[source];

export const matchedOnPerson = (source: ConversionSource | null) => source === 'offline' || source === 'crm';

/** "Sent to your Offline Event Set", in the tense of the conversion's status. */
export function destinationText(source: ConversionSource, status: string): string {
  const verb = status === 'delivered' ? 'Sent to' : status === 'pending' ? 'Being sent to' : 'Meant for';
  return `${verb} your ${DESTINATIONS[source]}`;
}

/** The "Source" choice of a filter: all, or one source; submitted as `source`. */
export function SourceSelect({ value, onChange }: { value: string; onChange?: (source: string) => void }) {
  return (
    <label>
      Source
      {/* Controlled where the page follows each choice; else read by its form on "Apply". */}
      <select name="source" value={onChange ? value : undefined} defaultValue={onChange ? undefined : value} onChange={onChange && ((event) => onChange(event.target.value))}>
        <option value="">All</option>
        {CONVERSION_SOURCES.map((source) => (
          <option key={source} value={source}>
            {sourceName(source)}
          </option>
        ))}
      </select>
    </label>
  );
}
