import { Link, useSearchParams } from 'react-router';

/** The filters a Diagnostics figure links with, beyond the form's fields: each in words, each removable. */
export const LINKED_FILTERS = ['tiktokCode', 'missing', 'repeated', 'withoutClick'] as const;

const MISSING: Record<string, string> = { value: 'value', currency: 'currency', contents: 'contents (and content IDs)' };

function words(name: (typeof LINKED_FILTERS)[number], value: string): string {
  switch (name) {
    case 'tiktokCode':
      return `refused with TikTok’s code ${value}`;
    case 'missing':
      return `sent without ${MISSING[value] ?? value}`;
    case 'repeated':
      return 'repeated by later events with the same order or event ID';
    case 'withoutClick':
      return 'delivered without a TikTok click';
  }
}

/** Kept through "Apply" as hidden fields of the filter form, and listed above the table. */
export function LinkedFilters() {
  const [params] = useSearchParams();
  const given = LINKED_FILTERS.flatMap((name) => (params.get(name) ? [[name, params.get(name) as string] as const] : []));
  if (given.length === 0) return null;
  const without = (name: string) => {
    const next = new URLSearchParams(params);
    next.delete(name);
    return `?${next.toString()}`;
  };
  return (
    <ul className="linked-filters" aria-label="Also filtered">
      {given.map(([name, value]) => (
        <li key={name}>
          <input type="hidden" name={name} value={value} />
          Only those {words(name, value)} <Link to={without(name)} aria-label={`Show them all, not only those ${words(name, value)}`}>Remove</Link>
        </li>
      ))}
    </ul>
  );
}
