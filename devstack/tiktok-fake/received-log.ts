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

/** The match keys a page gave `ttq.identify`, as it gave them. */
export interface PixelIdentity {
  email?: string;
  phone_number?: string;
  external_id?: string;
}

/** One call the pixel stand-in reported (`POST /i18n/pixel/report`): what TikTok's pixel would have sent. */
export interface ReceivedPixelCall {
  receivedAt: string;
  pixelCode: string;
  method: 'page' | 'track' | 'identify';
  /** The tracked event; `Pageview` for `page()`; absent for `identify`. */
  event?: string;
  eventId?: string;
  properties: Record<string, unknown>;
  /** The third argument of `ttq.track` without `event_id`, and the second of `ttq.load`, as the page gave them. */
  options: Record<string, unknown>;
  loadOptions: Record<string, unknown>;
  /** The page the call was made on. */
  url: string;
  /** The `_ttp` cookie when the call was made; null if consent kept it from being set. */
  ttp: string | null;
  /** The keys `identify` was given on the page so far (an identify call's own included), as the page gave them. */
  identity: PixelIdentity;
  /** Same pixel code, event and event_id already counted within 48 hours through the pixel or the Events API. */
  deduplicated: boolean;
}

export interface FakeTikTokReceived {
  requests: ReceivedRequest[];
  events: ReceivedEvent[];
  pixelCalls: ReceivedPixelCall[];
}

/** An accepted Events API event or a pixel call, in the order the fake received them over both channels. */
export type Arrival = { channel: 'eventsApi'; received: ReceivedEvent } | { channel: 'pixel'; received: ReceivedPixelCall };

export class ReceivedLog {
  private requests: ReceivedRequest[] = [];
  private events: ReceivedEvent[] = [];
  private pixelCalls: ReceivedPixelCall[] = [];
  private arrivalOrder: Arrival[] = [];

  addRequest(request: ReceivedRequest): void {
    this.requests.push(request);
  }

  addEvents(events: readonly ReceivedEvent[]): void {
    this.events.push(...events);
    this.arrivalOrder.push(...events.map((received) => ({ channel: 'eventsApi' as const, received })));
  }

  addPixelCall(call: ReceivedPixelCall): void {
    this.pixelCalls.push(call);
    this.arrivalOrder.push({ channel: 'pixel', received: call });
  }

  arrivals(): readonly Arrival[] {
    return [...this.arrivalOrder];
  }

  snapshot(): FakeTikTokReceived {
    return { requests: [...this.requests], events: [...this.events], pixelCalls: [...this.pixelCalls] };
  }

  clear(): void {
    this.requests = [];
    this.events = [];
    this.pixelCalls = [];
    this.arrivalOrder = [];
  }
}
