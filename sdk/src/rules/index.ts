/**
 * The message rules of the ingest API, one source for the client library (which checks every call with them) and
 * the server (which checks every message it stores). Dependency-free, Node 14+, no recursion on input.
 */
export { formatIssue, formatPath, type Issue, type PathPart } from './issues.js';
export { checkJsonValue } from './json-value.js';
export * from './limits.js';
export { checkMessage, MESSAGE_TYPES, type JsonObject, type MessageCheck, type MessageType, type ValidMessage } from './message.js';
export { textProblem } from './text.js';
export {
  correctClockSkew,
  correctedTimestampProblem,
  EARLIEST_TIME_MS,
  isStorableTime,
  LATEST_TIME_MS,
  NOT_A_TIMESTAMP,
  parseTimestamp,
  timestampProblem,
} from './timestamp.js';
