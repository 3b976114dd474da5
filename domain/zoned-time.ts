/**
 * "28 Nov 2026, 01:41 Europe/Paris": a moment written in a named IANA time zone, for text read away from the console
 * (mails, chat messages), where the reader's own zone is unknown.
 */
export function zonedTime(at: Date, timeZone: string): string {
  const text = new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  return `${text} ${timeZone}`;
}
