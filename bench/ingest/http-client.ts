import net from 'node:net';

const HEADER_END = Buffer.from('\r\n\r\n');
const LAST_CHUNK = Buffer.from('\r\n0\r\n\r\n');

/** One kept-alive connection, one request at a time. */
class Connection {
  private readonly socket: net.Socket;
  private received: Buffer = Buffer.alloc(0);
  private answer?: (status: number) => void;
  /** Set once the connection cannot take another request. */
  closed = false;

  constructor(host: string, port: number) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('error', () => this.close());
    this.socket.on('close', () => this.close());
  }

  request(bytes: Buffer): Promise<number> {
    return new Promise((resolve) => {
      this.answer = resolve;
      this.socket.write(bytes);
    });
  }

  close(): void {
    if (!this.closed) this.socket.destroy();
    this.closed = true;
    this.settle(0);
  }

  private settle(status: number): void {
    const answer = this.answer;
    this.answer = undefined;
    answer?.(status);
  }

  /** Reads one answer: its status, then its body by Content-Length (or to the last chunk). */
  private read(chunk: Buffer): void {
    this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
    const headerEnd = this.received.indexOf(HEADER_END);
    if (headerEnd === -1) return;
    const head = this.received.toString('latin1', 0, headerEnd).toLowerCase();
    const length = /\r\ncontent-length: *(\d+)/.exec(head);
    const bodyStart = headerEnd + HEADER_END.length;
    let end: number;
    if (length !== null) end = bodyStart + Number(length[1]);
    else {
      const last = this.received.indexOf(LAST_CHUNK, bodyStart - 2);
      end = last === -1 ? Number.POSITIVE_INFINITY : last + LAST_CHUNK.length;
    }
    if (this.received.length < end) return;
    this.received = this.received.subarray(end);
    this.settle(Number(head.slice(9, 12)));
    if (head.includes('\r\nconnection: close')) this.close();
  }
}

/**
 * POSTs prepared bodies over kept-alive connections (at most `maxSockets`, opened as needed); resolves with the status
 * (0: no answer) and the time from the call to the end of the answer. A few lines of HTTP/1.1 instead of Node's http
 * client, which cost the load generator ~0.3 ms of CPU per request on the benchmark machine, half of what ingest
 * spent on one: the generator shares the machine's cores with the processes it measures.
 */
export function createSender(baseUrl: string, key: string, maxSockets: number) {
  const url = new URL(baseUrl);
  const port = Number(url.port);
  const idle: Connection[] = [];
  const waiting: ((connection: Connection) => void)[] = [];
  let open = 0;
  let closing = false;

  function connection(): Promise<Connection> {
    const ready = idle.pop();
    if (ready !== undefined) return Promise.resolve(ready);
    if (open < maxSockets) {
      open += 1;
      return Promise.resolve(new Connection(url.hostname, port));
    }
    return new Promise((resolve) => waiting.push(resolve));
  }

  function release(used: Connection): void {
    if (used.closed || closing) {
      used.close();
      open -= 1;
      if (waiting.length > 0 && !closing) {
        open += 1;
        (waiting.shift() as (connection: Connection) => void)(new Connection(url.hostname, port));
      }
      return;
    }
    const next = waiting.shift();
    if (next !== undefined) next(used);
    else idle.push(used);
  }

  return {
    async post(path: string, body: Buffer): Promise<{ status: number; ms: number }> {
      const started = performance.now();
      const head = `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
      const used = await connection();
      const status = await used.request(Buffer.concat([Buffer.from(head, 'latin1'), body]));
      release(used);
      return { status, ms: performance.now() - started };
    },
    close(): void {
      closing = true;
      for (const connection of idle.splice(0)) connection.close();
    },
  };
}

export type Sender = ReturnType<typeof createSender>;
