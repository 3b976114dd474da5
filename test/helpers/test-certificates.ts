import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** PEM file paths of a throwaway certificate authority and what it signed. */
export interface TestCertificates {
  dir: string;
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** The DNS name on the server's certificate (not the address it listens on). */
  serverName: string;
  remove(): void;
}

const openssl = (dir: string, args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

function sign(dir: string, name: string, subject: string, extensions: string): void {
  writeFileSync(path.join(dir, `${name}.ext`), extensions);
  openssl(dir, ['req', ...newKey, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
  openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '1', '-out', `${name}.pem`, '-extfile', `${name}.ext`]);
}

/** A CA, a server certificate for `temporal.test` and a client certificate, made with the openssl command. */
export function createTestCertificates(): TestCertificates {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'signalbox-certs-'));
  const serverName = 'temporal.test';
  openssl(dir, [
    'req', '-x509', ...newKey, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=Signalbox test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  sign(dir, 'server', `/CN=${serverName}`, `subjectAltName=DNS:${serverName}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n`);
  sign(dir, 'client', '/CN=signalbox-worker', 'extendedKeyUsage=clientAuth\nbasicConstraints=CA:FALSE\n');
  const file = (name: string) => path.join(dir, name);
  return {
    dir,
    caCert: file('ca.pem'),
    serverCert: file('server.pem'),
    serverKey: file('server.key'),
    clientCert: file('client.pem'),
    clientKey: file('client.key'),
    serverName,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
