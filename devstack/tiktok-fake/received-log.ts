/** One HTTP request that reached a TikTok route of the fake, listed on arrival, with the answer it got. */
export interface ReceivedRequest {
  /** The `request_id` sent back; null when the answer was not an envelope (an injected raw body). */
  requestId: string | null;
  /** ISO time on the fake's clock. */
  receivedAt: string;
  method: string;
  path: string;
  headers: { accessToken?: string; contentType?: string; userAgent?: string };
  rawBody: string;
  /** Null while the answer is held back by injected latency. */
  answer: { httpStatus: number; code?: number; message?: string } | null;
  /** True when an injected fault produced the answer. */
  faulted: boolean;
}

/** One event TikTok accepted (the request answered code 0), as the Events Manager would list it. */
export interface ReceivedEvent {
  requestId: string;
  receivedAt: string;
  answerCode: number;
  eventSource: string;
  eventSourceId: string;
  event: string;
  eventId?: string;
  eventTime: number;
  /** Same (event_source_id, event, event_id) already accepted within 48 hours: TikTok counts it once. */
  deduplicated: boolean;
  /** Sent with `test_event_code`: shown in the Test Events view, kept out of reporting. */
  test: boolean;
  testEventCode?: string;
  /** The event object exactly as sent. */
  payload: Record<string, unknown>;
}

export interface FakeTikTokReceived {
  requests: ReceivedRequest[];
  events: ReceivedEvent[];
}

export class ReceivedLog {
  private requests: ReceivedRequest[] = [];
  private events: ReceivedEvent[] = [];

  addRequest(request: ReceivedRequest): void {
    this.requests.push(request);
  }

  addEvents(events: readonly ReceivedEvent[]): void {
    this.events.push(...events);
  }

  snapshot(): FakeTikTokReceived {
    return { requests: [...this.requests], events: [...this.events] };
  }

  clear(): void {
    this.requests = [];
    this.events = [];
  }
}
