import type { RefusalWordsView as RefusalWords } from '../../contract/debugger-views';
import type { IngestRefusal } from '../../db/repositories/ingest-refusals';
import type { RefusalReason } from '../http/ingest-refusal';

const KEYS_PAGE = { page: 'sources#keys', label: 'Sources: API keys' };
const SOURCES_PAGE = { page: 'sources#webhooks', label: 'Sources: Shopify and webhooks' };

/** The webhook source a refused delivery was posted to, when it was one. */
export interface RefusedSource {
  name: string;
  type: 'shopify' | 'webhook';
}

type Facts = Pick<IngestRefusal, 'status' | 'error' | 'reason' | 'origin' | 'message' | 'issues'> & { source: RefusedSource | null };

const BY_REASON: Record<RefusalReason, (facts: Facts) => RefusalWords> = {
  origin_not_allowed: ({ origin }) => ({
    title: `Refused: ${origin ?? 'a page'} is not an allowed origin`,
    explanation: `A page on ${origin ?? 'a site'} sent events with a browser key, and browser keys are accepted only from the sites listed as allowed origins.`,
    fix: `If it is your site, add ${origin ?? 'it'} to the allowed origins.`,
    link: { page: 'sources#allowed-origins', label: 'Sources: allowed origins' },
  }),
  browser_key_without_origin: () => ({
    title: 'Refused: a browser key used outside a web page',
    explanation: 'A browser key came from something that is not a web page (a server or an app), where anyone could have copied it from.',
    fix: 'Servers send events with a secret key, mobile apps with an app key.',
    link: KEYS_PAGE,
  }),
  app_key_from_page: ({ origin }) => ({
    title: 'Refused: an app key used on a web page',
    explanation: `An app key, meant for mobile apps, came from a web page${origin ? ` on ${origin}` : ''}.`,
    fix: 'Web pages send events with a browser key, which the tracking tag holds.',
    link: KEYS_PAGE,
  }),
  secret_key_from_page: ({ origin }) => ({
    title: 'Refused: a secret key used on a web page',
    explanation: `A secret key came from a web page${origin ? ` on ${origin}` : ''}: anyone who opens the page can read it there.`,
    fix: 'Use a browser key in web pages, and revoke this secret key if it was published.',
    link: KEYS_PAGE,
  }),
  secret_key_in_url: () => ({
    title: 'Refused: a secret key sent in the address',
    explanation: 'A secret key was sent in the request’s address, where access logs keep it.',
    fix: 'Send it in the `Authorization` header (`Bearer <key>`), and revoke this key if the logs may be read by others.',
    link: KEYS_PAGE,
  }),
  workspace_mismatch: () => ({
    title: 'Refused: the request named another workspace',
    explanation: 'The request said it was for another workspace than the one its API key belongs to.',
    fix: 'Send it with the key of the workspace it names, or without naming a workspace.',
    link: null,
  }),
  unknown_key: () => ({
    title: 'Refused: the API key is revoked or unknown',
    explanation: 'The request’s API key has been revoked, or is not one of this workspace’s keys.',
    fix: 'Use one of the workspace’s current keys.',
    link: KEYS_PAGE,
  }),
  missing_key: () => ({
    title: 'Refused: no API key',
    explanation: 'The request named this workspace but carried no API key.',
    fix: 'Send one of the workspace’s keys with each request.',
    link: KEYS_PAGE,
  }),
  malformed_authorization: () => ({
    title: 'Refused: the API key could not be read',
    explanation: 'The request’s `Authorization` header is not in a form Signalbox reads.',
    fix: 'Send `Authorization: Bearer <key>`, or Basic authentication with the key as the user name and no password.',
    link: KEYS_PAGE,
  }),
  shopify_unreadable: () => ({
    title: 'Not stored: a Shopify delivery with nothing readable in it',
    explanation: 'Shopify sent a delivery whose body is empty or not JSON (the answer below says which). It was told the delivery arrived, so it does not send it again.',
    fix: 'Once, it needs nothing. If every delivery of the shop is like this, open the webhook in Shopify (Settings → Notifications → Webhooks) and choose the JSON format.',
    link: null,
  }),
  shopify_not_its_topic: () => ({
    title: 'Not stored: a Shopify delivery sent again under another topic',
    explanation: 'The body was signed by Shopify for another kind of delivery (an order sent as a checkout or a refund, for instance). Shopify never does that: someone with a copy of an earlier delivery sent it again.',
    fix: 'Nothing was stored, so nothing needs undoing. If it keeps happening, find where copies of the shop’s deliveries are kept on their way to Signalbox (a proxy or its logs).',
    link: null,
  }),
  shopify_unstorable: ({ issues }) => ({
    title: 'Not stored: a Shopify delivery Signalbox could not store',
    explanation: `Shopify was told it arrived, so it does not send it again. ${issues && issues.length > 0 ? 'What was wrong is listed below.' : 'The answer below says what was wrong.'}`,
    fix: 'Nothing in the shop needs changing. If it keeps happening, tell whoever runs Signalbox, with what was wrong.',
    link: null,
  }),
};


function invalidFields({ issues, message }: Facts): RefusalWords {
  const count = issues?.length ?? 0;
  return {
    title: count > 1 ? `Refused: ${count} fields are invalid` : 'Refused: a field is invalid',
    explanation: count === 0 ? message : 'Nothing of the request was stored. What was wrong, field by field, is below.',
    fix: 'Whoever set up the sending of these events (your developer, or the app or plugin that sends them) must correct the fields named here; the events sent after that are stored.',
    link: null,
  };
}

/** A delivery to a Shopify or webhook source that was refused: what its owner changes on Sources, or in the platform. */
function sourceDelivery({ status, message }: Facts, source: RefusedSource): RefusalWords {
  const shopify = source.type === 'shopify';
  if (status === 401) {
    return {
      title: `Refused: a delivery to ${source.name} that was not signed with its key`,
      explanation: shopify
        ? 'The delivery was not signed with the key this source holds, so it may not come from your shop. Nothing of it was stored.'
        : 'The delivery was not signed with the secret this source holds, so it may not come from your platform. Nothing of it was stored.',
      fix: shopify
        ? 'If your shop’s deliveries are all refused, copy the key Shopify shows under Settings → Notifications → Webhooks (“Your webhooks will be signed with …”) into this source. If only some are, someone else is posting to its address, and nothing needs changing.'
        : 'If every delivery is refused, give this source the signing secret the platform shows for this webhook. If only some are, someone else is posting to its address, and nothing needs changing.',
      link: SOURCES_PAGE,
    };
  }
  if (status === 400 && !shopify) {
    return {
      title: `Refused: ${source.name} sent a delivery its mapping cannot read`,
      explanation: `Nothing of it was stored: ${message}`,
      fix: 'Open the source’s mapping, paste one of the platform’s deliveries as the sample, and correct the field the preview flags.',
      link: SOURCES_PAGE,
    };
  }
  return {
    title: `Refused: a delivery to ${source.name}`,
    explanation: `Nothing of it was stored: ${message}`,
    fix: shopify ? 'If it keeps happening, tell whoever runs Signalbox, with this refusal.' : 'Check the webhook’s settings in the platform that sends it (its address and format: JSON); if they are right, tell whoever runs Signalbox.',
    link: SOURCES_PAGE,
  };
}

/**
 * The words for one refused request, from its reason when ingest gave one, else from its HTTP answer: what happened and
 * what to do, the page where it is done when it is a setting (`page`, e.g. `sources#allowed-origins`). Literals to copy
 * are in backticks.
 */
export function refusalWords(facts: Facts): RefusalWords {
  const byReason = facts.reason === null ? undefined : BY_REASON[facts.reason as RefusalReason];
  if (byReason !== undefined) return byReason(facts);
  if (facts.source !== null) return sourceDelivery(facts, facts.source);
  if (facts.status === 400) return invalidFields(facts);
  if (facts.status === 413) {
    return { title: 'Refused: the request is too large', explanation: facts.message, fix: 'Whoever set up the sending of these events must send fewer of them in each request.', link: null };
  }
  return {
    title: 'Refused',
    explanation: facts.message,
    fix: 'Whoever set up the sending of these events (your developer, or the app or plugin that sends them) must correct what the answer names; the requests sent after that are stored.',
    link: null,
  };
}
