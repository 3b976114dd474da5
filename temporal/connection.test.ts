import { readFileSync } from 'node:fs';
import { ConfigError } from '../config/env';
import { createTestCertificates, type TestCertificates } from '../test/helpers/test-certificates';
import { temporalConnectionOptions, type TemporalSettings } from './connection';

let certs: TestCertificates;
beforeAll(() => {
  certs = createTestCertificates();
});
afterAll(() => certs.remove());

const local: TemporalSettings = { TEMPORAL_ADDRESS: '127.0.0.1:7233', TEMPORAL_NAMESPACE: 'default' };
const options = (settings: Partial<TemporalSettings>) => temporalConnectionOptions({ ...local, ...settings });

describe('temporalConnectionOptions', () => {
  it('connects in plain text when nothing about TLS or an API key is set (a dev server)', () => {
    expect(options({})).toEqual({ address: '127.0.0.1:7233', tls: undefined, apiKey: undefined, metadata: undefined });
  });

  it("trusts a self-hosted cluster's CA and checks the name on its certificate", () => {
    const tls = options({ TEMPORAL_TLS_CA_PATH: certs.caCert, TEMPORAL_TLS_SERVER_NAME: certs.serverName }).tls;
    expect(tls).toEqual({ serverRootCACertificate: readFileSync(certs.caCert), serverNameOverride: certs.serverName });
  });

  it('turns TLS on with the system CAs when only the server name is given', () => {
    expect(options({ TEMPORAL_TLS_SERVER_NAME: 'temporal.internal' }).tls).toEqual({ serverNameOverride: 'temporal.internal' });
  });

  it('presents a client certificate for mTLS, with or without a CA of its own', () => {
    const clientCertPair = { crt: readFileSync(certs.clientCert), key: readFileSync(certs.clientKey) };
    expect(options({ TEMPORAL_TLS_CERT_PATH: certs.clientCert, TEMPORAL_TLS_KEY_PATH: certs.clientKey }).tls).toEqual({ clientCertPair });
    expect(options({ TEMPORAL_TLS_CA_PATH: certs.caCert, TEMPORAL_TLS_CERT_PATH: certs.clientCert, TEMPORAL_TLS_KEY_PATH: certs.clientKey }).tls).toEqual({
      serverRootCACertificate: readFileSync(certs.caCert),
      clientCertPair,
    });
  });

  it('sends an API key over TLS with the namespace header (Temporal Cloud)', () => {
    const cloud = temporalConnectionOptions({ TEMPORAL_ADDRESS: 'eu-west-1.aws.api.temporal.io:7233', TEMPORAL_NAMESPACE: 'shop.a1b2c', TEMPORAL_API_KEY: 'key-123' });
    expect(cloud).toEqual({ address: 'eu-west-1.aws.api.temporal.io:7233', tls: {}, apiKey: 'key-123', metadata: { 'temporal-namespace': 'shop.a1b2c' } });
  });

  it('connects to Temporal Cloud with mTLS and its namespace', () => {
    const cloud = temporalConnectionOptions({
      TEMPORAL_ADDRESS: 'shop.a1b2c.tmprl.cloud:7233',
      TEMPORAL_NAMESPACE: 'shop.a1b2c',
      TEMPORAL_TLS_CERT_PATH: certs.clientCert,
      TEMPORAL_TLS_KEY_PATH: certs.clientKey,
    });
    expect(cloud.tls).toEqual({ clientCertPair: { crt: readFileSync(certs.clientCert), key: readFileSync(certs.clientKey) } });
    expect(cloud.apiKey).toBeUndefined();
  });

  it('refuses Temporal Cloud without credentials or without its namespace, naming the variable', () => {
    expect(() => temporalConnectionOptions({ TEMPORAL_ADDRESS: 'shop.a1b2c.tmprl.cloud:7233', TEMPORAL_NAMESPACE: 'shop.a1b2c' })).toThrow(
      /TEMPORAL_API_KEY, or TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH, are required: shop\.a1b2c\.tmprl\.cloud is Temporal Cloud/,
    );
    expect(() => temporalConnectionOptions({ TEMPORAL_ADDRESS: 'eu-west-1.aws.api.temporal.io:7233', TEMPORAL_NAMESPACE: 'default', TEMPORAL_API_KEY: 'key-123' })).toThrow(
      /TEMPORAL_NAMESPACE must be your Temporal Cloud namespace \(<namespace>\.<account-id>\)/,
    );
  });

  it('names the variable of a file that is missing, unreadable or not what it should be', () => {
    expect(() => options({ TEMPORAL_TLS_CA_PATH: `${certs.dir}/missing.pem` })).toThrow(ConfigError);
    expect(() => options({ TEMPORAL_TLS_CA_PATH: `${certs.dir}/missing.pem` })).toThrow(`TEMPORAL_TLS_CA_PATH cannot be read: ${certs.dir}/missing.pem (ENOENT)`);
    expect(() => options({ TEMPORAL_TLS_CA_PATH: certs.clientKey })).toThrow(`TEMPORAL_TLS_CA_PATH must be a PEM certificate: ${certs.clientKey} is not one`);
    expect(() => options({ TEMPORAL_TLS_CERT_PATH: certs.clientCert, TEMPORAL_TLS_KEY_PATH: certs.clientCert })).toThrow(
      `TEMPORAL_TLS_KEY_PATH must be a PEM private key: ${certs.clientCert} is not one`,
    );
  });

  it('wants the client certificate and its key together', () => {
    expect(() => options({ TEMPORAL_TLS_CERT_PATH: certs.clientCert })).toThrow('TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH must be set together');
    expect(() => options({ TEMPORAL_TLS_KEY_PATH: certs.clientKey })).toThrow('TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH must be set together');
  });
});
