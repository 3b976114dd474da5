import { startMailSink, type MailSink } from '../../devstack/mail-sink';
import { reservePort } from '../../devstack/ports';

/** The dev stack's SMTP sink on a reserved port, for tests that read the mail Signalbox sends. */
export async function startTestMailSink(): Promise<MailSink> {
  const reserved = await reservePort();
  const sink = await startMailSink({ port: reserved.port });
  return {
    ...sink,
    close: async () => {
      await sink.close();
      reserved.release();
    },
  };
}

/** The first link of a mail's text. */
export function linkIn(text: string): string {
  const link = /https?:\/\/\S+/.exec(text)?.[0];
  if (link === undefined) throw new Error(`no link in the mail: ${text}`);
  return link;
}
