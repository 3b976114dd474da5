import { readFileSync } from 'node:fs';
import type { NativeConnectionOptions } from '@temporalio/worker';

/** Accepted by both the client's `Connection` and the worker's `NativeConnection`. */
export type TemporalConnectionOptions = Pick<NativeConnectionOptions, 'address' | 'tls' | 'apiKey' | 'metadata'>;

export interface TemporalSettings {
  TEMPORAL_ADDRESS: string;
  TEMPORAL_NAMESPACE: string;
  TEMPORAL_TASK_QUEUE: string;
  TEMPORAL_API_KEY?: string;
  TEMPORAL_TLS_CERT_PATH?: string;
  TEMPORAL_TLS_KEY_PATH?: string;
}

/** Connection options for a local dev server, a self-hosted cluster with mTLS, or Temporal Cloud with an API key. */
export function temporalConnectionOptions(settings: TemporalSettings): TemporalConnectionOptions {
  const { TEMPORAL_TLS_CERT_PATH: certPath, TEMPORAL_TLS_KEY_PATH: keyPath, TEMPORAL_API_KEY: apiKey } = settings;
  if ((certPath === undefined) !== (keyPath === undefined)) {
    throw new Error('TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH must be set together');
  }
  const clientCertPair = certPath && keyPath ? { crt: readFileSync(certPath), key: readFileSync(keyPath) } : undefined;
  return {
    address: settings.TEMPORAL_ADDRESS,
    tls: clientCertPair ? { clientCertPair } : apiKey ? true : undefined,
    apiKey,
    metadata: apiKey ? { 'temporal-namespace': settings.TEMPORAL_NAMESPACE } : undefined,
  };
}
