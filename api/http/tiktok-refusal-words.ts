import { TOKEN_INVALID_CODES } from '../../adplatform/tiktok';

/**
 * What TikTok's refusal codes on `event/track` mean for a workspace's owner, and what to do (codes and meanings from
 * /work/shared/reference/tiktok-api.md §2.3). TikTok's own message is shown beside these words: it names the field.
 */
const WORDS: Readonly<Record<number, string>> = {
  40000: 'TikTok found the event’s parameters invalid: fix the field its message names in the events your code sends',
  40001: 'TikTok refused access to the pixel or advertiser: the connected TikTok account must be an admin or operator of the advertiser (check the pixel on Sources)',
  40002: 'TikTok refused a field of the event: its message names the field; fix it in the events your code sends, or in the rule’s value and currency',
  40006: 'TikTok refused a field this version of its API does not take: report it to whoever runs Signalbox',
  40007: 'TikTok says the pixel or advertiser does not exist: choose the pixel again on Sources',
  40011: 'TikTok refused a request with too many events: report it to whoever runs Signalbox',
  40050: 'TikTok refused the request as a duplicate of one it already had',
  40062: 'TikTok refused personal data that was not hashed: report it to whoever runs Signalbox',
  40118: 'TikTok has not opened this feature to the advertiser (not on its allow-list)',
  40119: 'TikTok refused it: the TikTok app and the advertiser are not of the same company',
  40125: 'TikTok refused it: the connection lacks a permission; connect TikTok again on Sources and grant every permission asked',
  40130: 'TikTok refused it: the connection lacks a permission; connect TikTok again on Sources and grant every permission asked',
  40300: 'TikTok says the advertiser does not exist: choose the advertiser again on Sources',
  40301: 'TikTok could not match the advertiser: choose the advertiser again on Sources',
  40700: 'TikTok’s own validation refused the event: its message says why',
  41000: 'TikTok refuses requests from the country this server is in',
};

const TOKEN_REFUSED = 'TikTok refused the stored access token (expired, revoked or not valid for the advertiser): connect TikTok again on Sources';

/** A refusal in words: by TikTok's code, or (no code: an answer without TikTok's envelope) by that fact. */
export function tiktokRefusalWords(code: number | null): string {
  if (code === null) return 'TikTok answered without a code (an error page rather than its usual answer)';
  if (TOKEN_INVALID_CODES.includes(code)) return TOKEN_REFUSED;
  return WORDS[code] ?? `TikTok refused it with a code Signalbox has no words for (${code}): its message says why`;
}
