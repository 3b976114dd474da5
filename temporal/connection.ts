import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { TLSConfig } from '@temporalio/client';
import type { NativeConnectionOptions } from '@temporalio/worker';
import { ConfigError } from '../config/env';

/** Accepted by both the client's `Connection` and the worker's `NativeConnection`. */
export type TemporalConnectionOptions = Pick<NativeConnectionOptions, 'address' | 'tls' | 'apiKey' | 'metadata'>;

export interface TemporalSettings {
  TEMPORAL_ADDRESS: string;
  TEMPORAL_NAMESPACE: string;
  TEMPORAL_API_KEY?: string;
  TEMPORAL_TLS_CA_PATH?: string;
  TEMPORAL_TLS_SERVER_NAME?: string;
  TEMPORAL_TLS_CERT_PATH?: string;
  TEMPORAL_TLS_KEY_PATH?: string;
}

/** Namespace endpoints (`<namespace>.<account>.tmprl.cloud`) and regional API-key endpoints (`<region>.<cloud>.api.temporal.io`). */
const TEMPORAL_CLOUD_HOST = /\.(tmprl\.cloud|api\.temporal\.io)$/;

type PemKind = 'certificate' | 'private key';

/** Reads a PEM file named by `variable`; a file that is missing, unreadable or not PEM of that kind stops the process. */
function readPem(variable: string, path: string, kind: PemKind): Buffer {
  let contents: Buffer;
  try {
    contents = readFileSync(path);
  } catch (error) {
    throw new ConfigError(`${variable} cannot be read: ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  try {
    if (kind === 'certificate') new X509Certificate(contents);
    else createPrivateKey(contents);
  } catch {
    throw new ConfigError(`${variable} must be a PEM ${kind}: ${path} is not one`);
  }
  return contents;
}

function checkTemporalCloud(settings: TemporalSettings): void {
  const host = settings.TEMPORAL_ADDRESS.slice(0, settings.TEMPORAL_ADDRESS.lastIndexOf(':'));
  if (!TEMPORAL_CLOUD_HOST.test(host)) return;
  if (settings.TEMPORAL_API_KEY === undefined && settings.TEMPORAL_TLS_CERT_PATH === undefined) {
    throw new ConfigError(`TEMPORAL_API_KEY, or TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH, are required: ${host} is Temporal Cloud`);
  }
  if (settings.TEMPORAL_NAMESPACE === 'default') {
    throw new ConfigError(`TEMPORAL_NAMESPACE must be your Temporal Cloud namespace (<namespace>.<account-id>): ${host} has no "default"`);
  }
}

/**
 * Connection options for a local dev server (plain), a self-hosted cluster over TLS (its CA, the name on its
 * certificate, and a client certificate for mTLS), or Temporal Cloud (an API key, or mTLS, with its namespace). TLS is
 * on as soon as any of these is set. Every file is read and checked here, at the process's start.
 */
export function temporalConnectionOptions(settings: TemporalSettings): TemporalConnectionOptions {
  const { TEMPORAL_TLS_CERT_PATH: certPath, TEMPORAL_TLS_KEY_PATH: keyPath, TEMPORAL_API_KEY: apiKey } = settings;
  if ((certPath === undefined) !== (keyPath === undefined)) {
    throw new ConfigError('TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH must be set together (the client certificate and its key)');
  }
  checkTemporalCloud(settings);
  const tls: TLSConfig = {};
  if (settings.TEMPORAL_TLS_CA_PATH !== undefined) tls.serverRootCACertificate = readPem('TEMPORAL_TLS_CA_PATH', settings.TEMPORAL_TLS_CA_PATH, 'certificate');
  if (settings.TEMPORAL_TLS_SERVER_NAME !== undefined) tls.serverNameOverride = settings.TEMPORAL_TLS_SERVER_NAME;
  if (certPath !== undefined && keyPath !== undefined) {
    tls.clientCertPair = { crt: readPem('TEMPORAL_TLS_CERT_PATH', certPath, 'certificate'), key: readPem('TEMPORAL_TLS_KEY_PATH', keyPath, 'private key') };
  }
  const usesTls = Object.keys(tls).length > 0 || apiKey !== undefined;
  return {
    address: settings.TEMPORAL_ADDRESS,
    tls: usesTls ? tls : undefined,
    apiKey,
    metadata: apiKey ? { 'temporal-namespace': settings.TEMPORAL_NAMESPACE } : undefined,
  };
}
