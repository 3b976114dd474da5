import nodemailer from 'nodemailer';

export interface MailMessage {
  to: readonly string[];
  /** Sent as one line (see {@link oneLine}), whatever it holds. */
  subject: string;
  text: string;
}

/**
 * `text` on one line: each run of whitespace and control characters (line breaks, tabs, Unicode's line separators)
 * one space. For names put into a mail (stored before names were refused with them): a line break in a subject would
 * start a header, in a body a paragraph the sender did not write.
 */
export function oneLine(text: string): string {
  return text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
}

/** Sends one message; throws with the reason when the server is missing, unreachable or refuses it. */
export interface Mailer {
  /** Whether a mail server is set up (`SMTP_URL`): without one every send fails with NoMailServerError. */
  readonly configured: boolean;
  send(message: MailMessage): Promise<void>;
}

/** What every send fails with when no mail server is configured. */
export class NoMailServerError extends Error {
  constructor() {
    super('no mail server is configured (SMTP_URL is not set)');
    this.name = 'NoMailServerError';
  }
}

/** Each wait on the mail server ends: an evaluation or a reset request never hangs on it. */
const TIMEOUT_MS = 10_000;

/** Mail through the SMTP server of `SMTP_URL`; without one, every send fails saying so. */
export function createMailer(options: { smtpUrl: string | undefined; from: string }): Mailer {
  const { smtpUrl, from } = options;
  if (smtpUrl === undefined) {
    return {
      configured: false,
      send: async () => {
        throw new NoMailServerError();
      },
    };
  }
  const transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: TIMEOUT_MS, greetingTimeout: TIMEOUT_MS, socketTimeout: TIMEOUT_MS });
  return {
    configured: true,
    async send(message) {
      await transport.sendMail({ from, to: [...message.to], subject: oneLine(message.subject), text: message.text });
    },
  };
}
