import { readFileSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { closeAll } from '../test/helpers/close-all';
import { createTestCertificates, type TestCertificates } from '../test/helpers/test-certificates';
import { temporalConnectionOptions, type TemporalSettings } from './connection';

/**
 * `temporal server start-dev` has no TLS flags, so the dev server is put behind a TLS terminator, as a self-hosted
 * cluster often is: it speaks TLS (ALPN h2) with the test CA's server certificate and forwards the bytes in plain text.
 */
interface Terminator {
  address: string;
  close(): Promise<void>;
}

function startTlsTerminator(certs: TestCertificates, upstream: string, { requireClientCert }: { requireClientCert: boolean }): Promise<Terminator> {
  const [host, port] = [upstream.slice(0, upstream.lastIndexOf(':')), Number(upstream.slice(upstream.lastIndexOf(':') + 1))];
  const sockets = new Set<net.Socket>();
  const server = tls.createServer(
    {
      cert: readFileSync(certs.serverCert),
      key: readFileSync(certs.serverKey),
      ca: readFileSync(certs.caCert),
      requestCert: requireClientCert,
      rejectUnauthorized: requireClientCert,
      ALPNProtocols: ['h2'],
    },
    (client) => {
      const plain = net.connect(port, host);
      for (const socket of [client, plain]) {
        sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => {
          sockets.delete(socket);
          client.destroy();
          plain.destroy();
        });
      }
      client.pipe(plain).pipe(client);
    },
  );
  server.on('tlsClientError', () => undefined);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        address: `127.0.0.1:${(server.address() as net.AddressInfo).port}`,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

let certs: TestCertificates;
let serverTls: Terminator;
let mutualTls: Terminator;

beforeAll(async () => {
  certs = createTestCertificates();
  const upstream = process.env.TEMPORAL_TEST_ADDRESS as string;
  serverTls = await startTlsTerminator(certs, upstream, { requireClientCert: false });
  mutualTls = await startTlsTerminator(certs, upstream, { requireClientCert: true });
});
afterAll(() =>
  closeAll(
    () => serverTls?.close(),
    () => mutualTls?.close(),
    () => certs?.remove(),
  ),
);

const options = (settings: Omit<TemporalSettings, 'TEMPORAL_NAMESPACE'>) => temporalConnectionOptions({ TEMPORAL_NAMESPACE: 'default', ...settings });

/** The API's and CLI's connection (grpc-js): asks the server something real through it. */
async function namespaceThroughClient(settings: Omit<TemporalSettings, 'TEMPORAL_NAMESPACE'>): Promise<string | undefined> {
  const connection = await Connection.connect({ ...options(settings), connectTimeout: '5 seconds' });
  try {
    return (await connection.workflowService.describeNamespace({ namespace: 'default' })).namespaceInfo?.name ?? undefined;
  } finally {
    await connection.close();
  }
}

/** The worker's connection (Temporal's Rust core), which also says why a handshake failed. */
async function namespaceThroughWorkerConnection(settings: Omit<TemporalSettings, 'TEMPORAL_NAMESPACE'>): Promise<string | undefined> {
  const connection = await NativeConnection.connect(options(settings));
  try {
    return (await connection.workflowService.describeNamespace({ namespace: 'default' })).namespaceInfo?.name ?? undefined;
  } finally {
    await connection.close();
  }
}

describe('Temporal over TLS', () => {
  it("connects with the cluster's CA and the name on its certificate, the API's and the worker's connection alike", async () => {
    const settings = { TEMPORAL_ADDRESS: serverTls.address, TEMPORAL_TLS_CA_PATH: certs.caCert, TEMPORAL_TLS_SERVER_NAME: certs.serverName };
    expect(await namespaceThroughClient(settings)).toBe('default');
    expect(await namespaceThroughWorkerConnection(settings)).toBe('default');
  });

  it('fails without the CA (the certificate is not trusted) and without the server name (127.0.0.1 is not on it)', async () => {
    await expect(namespaceThroughWorkerConnection({ TEMPORAL_ADDRESS: serverTls.address, TEMPORAL_TLS_SERVER_NAME: certs.serverName })).rejects.toThrow(/UnknownIssuer/);
    await expect(namespaceThroughWorkerConnection({ TEMPORAL_ADDRESS: serverTls.address, TEMPORAL_TLS_CA_PATH: certs.caCert })).rejects.toThrow(/NotValidForName/);
    await expect(namespaceThroughClient({ TEMPORAL_ADDRESS: serverTls.address, TEMPORAL_TLS_SERVER_NAME: certs.serverName })).rejects.toThrow();
  });

  it('presents the client certificate where the cluster requires mTLS, and is refused without it', async () => {
    const trusted = { TEMPORAL_ADDRESS: mutualTls.address, TEMPORAL_TLS_CA_PATH: certs.caCert, TEMPORAL_TLS_SERVER_NAME: certs.serverName };
    const withClientCert = { ...trusted, TEMPORAL_TLS_CERT_PATH: certs.clientCert, TEMPORAL_TLS_KEY_PATH: certs.clientKey };
    expect(await namespaceThroughClient(withClientCert)).toBe('default');
    expect(await namespaceThroughWorkerConnection(withClientCert)).toBe('default');
    // TLS 1.3 finishes the client's side of the handshake before the server checks for a certificate, so the
    // server's refusal reaches the client either as the alert or as the connection it closed under the first call
    // (reset, or closed while that call waits).
    await expect(namespaceThroughWorkerConnection(trusted)).rejects.toThrow(/CertificateRequired|broken pipe|connection reset|connection closed/i);
    await expect(namespaceThroughClient(trusted)).rejects.toThrow();
  });
});
