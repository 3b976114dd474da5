/** Where a message came from: the tracking script in a page, a backend through @signalbox/api, a mobile app. */
export type Source = 'web' | 'sdk' | 'app';
export const SOURCES: readonly Source[] = ['web', 'sdk', 'app'];

/** An answer as a client saw it: the HTTP status, or none (refused connection, reset, timeout). */
export type Answer = number | 'no answer';

interface SentMessage {
  source: Source;
  workspaceId: string;
  /** The conversion it must make (its TikTok event_id: the order ID, else the messageId), when a rule maps it. */
  eventId?: string;
}

/** What the clients know: every message they sent, those the API acknowledged (a 2xx), and each answer they got. */
export class Ledger {
  readonly sent = new Map<string, SentMessage>();
  readonly acknowledged = new Set<string>();
  /** Answers per source: `200`, `503`, `no answer`, … → how many requests got it. */
  readonly answers: Record<Source, Map<string, number>> = { web: new Map(), sdk: new Map(), app: new Map() };
  /**
   * Requests the clients stopped sending unacknowledged: refused for good (a 4xx other than 408 and 429; the load is
   * valid by construction) or given up after their retries. None should be.
   */
  readonly undelivered: { source: Source; why: string }[] = [];

  send(messageId: string, message: SentMessage): void {
    this.sent.set(messageId, message);
  }

  answered(source: Source, answer: Answer, messageIds: readonly string[]): void {
    const key = String(answer);
    this.answers[source].set(key, (this.answers[source].get(key) ?? 0) + 1);
    if (typeof answer === 'number' && answer >= 200 && answer < 300) for (const id of messageIds) this.acknowledged.add(id);
  }
}

/** 408, 429, 5xx and no answer are worth another try, as every client library of ours retries them. */
export function retryable(answer: Answer): boolean {
  return answer === 'no answer' || answer === 408 || answer === 429 || answer >= 500;
}
