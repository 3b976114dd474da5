import nodemailer from 'nodemailer';

export interface MailMessage {
  to: readonly string[];
  subject: string;
  text: string;
}

/** Sends one message; throws with the reason when the server is missing, unreachable or refuses it. */
export interface Mailer {
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
      send: async () => {
        throw new NoMailServerError();
      },
    };
  }
  const transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: TIMEOUT_MS, greetingTimeout: TIMEOUT_MS, socketTimeout: TIMEOUT_MS });
  return {
    async send(message) {
      await transport.sendMail({ from, to: [...message.to], subject: message.subject, text: message.text });
    },
  };
}
