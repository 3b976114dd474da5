import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SunkMail {
  at: Date;
  from: string;
  to: string[];
  subject: string;
  text: string;
}

export interface MailSink {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  /** Every message received so far, oldest first. */
  messages(): SunkMail[];
  /** The first message (already received or still to come) that `matches`; rejects after `timeoutMs`. */
  waitFor(matches: (mail: SunkMail) => boolean, timeoutMs?: number): Promise<SunkMail>;
  close(): Promise<void>;
}

const addresses = (value: { value: { address?: string }[] } | { value: { address?: string }[] }[] | undefined) =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).flatMap((group) => group.value.map((entry) => entry.address ?? ''));

/**
 * A local SMTP server that accepts every message and keeps it: the dev stack's outbox (each message also written to
 * `outboxDirectory` as `<time>.eml` and `<time>.txt`) and the tests' mail server. Plain SMTP on loopback, no auth.
 */
export async function startMailSink(options: { port: number; host?: string; outboxDirectory?: string; onMail?: (mail: SunkMail, file?: string) => void }): Promise<MailSink> {
  const host = options.host ?? '127.0.0.1';
  const received: SunkMail[] = [];
  const waiters = new Set<() => void>();
  if (options.outboxDirectory !== undefined) mkdirSync(options.outboxDirectory, { recursive: true });

  const keep = (raw: Buffer) =>
    simpleParser(raw).then((parsed) => {
      const mail: SunkMail = { at: new Date(), from: addresses(parsed.from).join(', '), to: addresses(parsed.to), subject: parsed.subject ?? '', text: parsed.text ?? '' };
      received.push(mail);
      let file: string | undefined;
      if (options.outboxDirectory !== undefined) {
        const name = `${mail.at.toISOString().replace(/[:.]/g, '-')}-${received.length}`;
        file = path.join(options.outboxDirectory, `${name}.txt`);
        writeFileSync(path.join(options.outboxDirectory, `${name}.eml`), raw);
        writeFileSync(file, `From: ${mail.from}\nTo: ${mail.to.join(', ')}\nSubject: ${mail.subject}\nDate: ${mail.at.toISOString()}\n\n${mail.text}`);
      }
      options.onMail?.(mail, file);
      for (const wake of waiters) wake();
    });

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    banner: 'Signalbox outbox',
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        keep(Buffer.concat(chunks)).then(
          () => callback(),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  return {
    url: `smtp://${host}:${options.port}`,
    messages: () => [...received],
    waitFor(matches, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = received.find(matches);
          if (found === undefined) return;
          finish();
          resolve(found);
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`no matching mail within ${timeoutMs} ms; received: ${received.map((m) => `"${m.subject}" to ${m.to.join(', ')}`).join('; ') || 'none'}`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
