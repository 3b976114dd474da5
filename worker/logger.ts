import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import pino, { type DestinationStream, type Level, type Logger } from 'pino';
import { withoutDatabaseValues } from '../db/database-error-log';
import { LOG_REDACT_PATHS } from '../domain/secret-names';

type PinoLevel = Level | 'silent';

/**
 * An error as a log line carries it: `type` (its class), `message`, `stack`, its own fields (a PostgreSQL error's
 * SQLSTATE `code`, a gRPC error's numeric `code` and `details`, a Temporal failure's `type`) and its `cause`, the same
 * way down; a PostgreSQL error with its message and names but not the values it quotes (db/database-error-log.ts).
 * Temporal's SDK logs errors under `error`, our code under `err`: both are written so.
 */
const errorFields = (error: Error) => withoutDatabaseValues(pino.stdSerializers.errWithCause(error), error);

/** The worker's pino logger: JSON lines on stdout (or `destination`), without the secrets `domain/secret-names.ts` lists. */
export function createWorkerLogger(level: PinoLevel, destination?: DestinationStream): Logger {
  return pino({ level, name: 'signalbox-worker', redact: { paths: [...LOG_REDACT_PATHS], censor: '[redacted]' }, serializers: { err: errorFields, error: errorFields } }, destination);
}

const TEMPORAL_LEVELS: Record<PinoLevel, LogLevel> = { trace: 'TRACE', debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR', fatal: 'ERROR', silent: 'ERROR' };
const PINO_LEVELS: Record<LogLevel, Level> = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' };

/**
 * Temporal's own lines go through `logger`: the SDK's (an activity or workflow that failed, with its error) and those
 * of its Rust core (`TMPRL…` warnings, gRPC retries, shutdown), which it would otherwise print to the console as
 * coloured text. Forwarding is `telemetryOptions.logging.forward` (node_modules/@temporalio/worker/lib/runtime-options.d.ts,
 * SDK 1.24); core lines carry `sdkComponent: "core"` and the Rust `target`. The Runtime traps no signal: the worker's
 * shutdown (worker/shutdown.ts) does.
 */
export function installTemporalRuntime(logger: Logger, level: PinoLevel): void {
  const temporalLevel = TEMPORAL_LEVELS[level];
  Runtime.install({
    logger: new DefaultLogger(temporalLevel, ({ level: entryLevel, message, meta }) => logger[PINO_LEVELS[entryLevel]](meta ?? {}, message)),
    telemetryOptions: { logging: { filter: { core: temporalLevel, other: 'ERROR' }, forward: {} } },
    shutdownSignals: [],
  });
}
