import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:tls';
import { reservePort, type ReservedPort } from '../devstack/ports';
import { createTestCertificates, type TestCertificates } from '../test/helpers/test-certificates';
import { failureWords } from './failure-words';
import { createMailer } from './mailer';
import { createWebhookPoster } from './webhook';

let certificates: TestCertificates;
let untrusted: Server;
let untrustedPort: ReservedPort;
let nothing: ReservedPort;

/** The words a real send failed with. */
async function wordsOf(send: Promise<unknown>, target: 'the mail server' | 'the webhook'): Promise<string> {
  try {
    await send;
  } catch (error) {
    return failureWords(error, target);
  }
  throw new Error('the send succeeded');
}

beforeAll(async () => {
  certificates = createTestCertificates();
  // A TLS server whose certificate no authority this process trusts signed (the test CA is nobody's).
  untrusted = createServer({ cert: readFileSync(certificates.serverCert), key: readFileSync(certificates.serverKey) }, (socket) => socket.end());
  untrustedPort = await reservePort();
  await new Promise<void>((resolve) => untrusted.listen(untrustedPort.port, '127.0.0.1', resolve));
  nothing = await reservePort();
});
afterAll(async () => {
  await new Promise((resolve) => untrusted.close(resolve));
  untrustedPort.release();
  nothing.release();
  certificates.remove();
});

describe('why a mail or webhook was not sent, in words', () => {
  it('names an untrusted certificate instead of the TLS error', async () => {
    const mail = createMailer({ smtpUrl: `smtps://127.0.0.1:${untrustedPort.port}`, from: 'alerts@fern.example' }).send({ to: ['ops@fern.example'], subject: 's', text: 't' });
    expect(await wordsOf(mail, 'the mail server')).toBe(
      'the mail server did not get a secure (TLS) connection: its certificate is not signed by an authority this server trusts, and only certificates from a trusted authority are accepted',
    );
    const hook = createWebhookPoster({ internalAddresses: 'allow' })(`https://127.0.0.1:${untrustedPort.port}/hook`, 'hello');
    expect(await wordsOf(hook, 'the webhook')).toMatch(/^the webhook did not get a secure \(TLS\) connection: its certificate /);
  });

  it('says that nothing answers at the address', async () => {
    const mail = createMailer({ smtpUrl: `smtp://127.0.0.1:${nothing.port}`, from: 'alerts@fern.example' }).send({ to: ['ops@fern.example'], subject: 's', text: 't' });
    expect(await wordsOf(mail, 'the mail server')).toBe('the mail server refused the connection: nothing answers at its address and port');
    const hook = createWebhookPoster({ internalAddresses: 'allow' })(`http://127.0.0.1:${nothing.port}/hook`, 'hello');
    expect(await wordsOf(hook, 'the webhook')).toBe('the webhook refused the connection: nothing answers at its address and port');
  });

  it('keeps the words of errors that are worded already', () => {
    expect(failureWords(new Error('the webhook answered HTTP 500'), 'the webhook')).toBe('the webhook answered HTTP 500');
    expect(failureWords(Object.assign(new Error('550 5.1.1 unknown'), { code: 'EENVELOPE', responseCode: 550, response: '550 5.1.1 <x@y> User unknown' }), 'the mail server')).toBe(
      'the mail server refused the message, answering “550 5.1.1 <x@y> User unknown”',
    );
  });
});
