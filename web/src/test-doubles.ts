import type { Message, SendResult, Transport } from './queue';

/** `document.cookie` as a browser implements it, for one path: attributes are parsed, Max-Age=0 deletes. */
export function fakeCookieJar() {
  const jar = new Map<string, string>();
  const written: string[] = [];
  return {
    written,
    blocked: false,
    get cookie(): string {
      if (this.blocked) throw new DOMException('The document is sandboxed', 'SecurityError');
      return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    },
    set cookie(line: string) {
      if (this.blocked) throw new DOMException('The document is sandboxed', 'SecurityError');
      written.push(line);
      const [pair = '', ...attributes] = line.split(';');
      const equals = pair.indexOf('=');
      const name = pair.slice(0, equals).trim();
      const maxAge = attributes.map((a) => a.trim()).find((a) => a.toLowerCase().startsWith('max-age='));
      if (maxAge !== undefined && Number(maxAge.slice('max-age='.length)) <= 0) jar.delete(name);
      else jar.set(name, pair.slice(equals + 1).trim());
    },
    clear: () => jar.clear(),
  };
}

/** `localStorage`, optionally failing every write the way Safari's private mode used to. */
export function fakeStorage({ failWrites = false } = {}): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem(key, value) {
      if (failWrites) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      items.set(key, String(value));
    },
  };
}

/** A transport that records each request's batch and answers from a script (default: delivered). */
export function scriptedTransport() {
  const answers: (SendResult | Error)[] = [];
  const sent: Message[][] = [];
  const beaconed: Message[][] = [];
  let beaconAccepts = true;
  const transport: Transport = {
    async send(body) {
      sent.push((JSON.parse(body) as { batch: Message[] }).batch);
      const answer = answers.shift() ?? 'delivered';
      if (answer instanceof Error) throw answer;
      return answer;
    },
    beacon(body) {
      if (!beaconAccepts) return false;
      beaconed.push((JSON.parse(body) as { batch: Message[] }).batch);
      return true;
    },
  };
  return {
    transport,
    sent,
    beaconed,
    answer: (...results: (SendResult | Error)[]) => answers.push(...results),
    refuseBeacons: () => {
      beaconAccepts = false;
    },
  };
}

/** A hand-cranked `setTimeout`: `runNext()` fires the shortest pending callback and lets the work it started settle. */
export function manualTimers() {
  const pending: { run: () => void; delayMs: number }[] = [];
  return {
    delays: () => pending.map((timer) => timer.delayMs),
    schedule: (run: () => void, delayMs: number) => void pending.push({ run, delayMs }),
    async runNext(): Promise<void> {
      pending.sort((a, b) => a.delayMs - b.delayMs);
      pending.shift()?.run();
      await settle();
    },
    async runAll(limit = 50): Promise<void> {
      for (let round = 0; round < limit && pending.length > 0; round += 1) await this.runNext();
    },
  };
}

/** Lets every promise chain already started run to its end. */
export const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
