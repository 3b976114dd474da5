import { Signalbox } from './client.js';

/** The client class; `import Signalbox from '@signalbox/api'`, `import { Signalbox }` and `require()` all give it. */
export default Signalbox;
export { Signalbox };
export type { FlushOptions } from './client.js';
export type { QueueFullBehavior, SignalboxConfig } from './config.js';
export {
  SignalboxClosedError,
  SignalboxDeliveryError,
  SignalboxError,
  SignalboxFlushError,
  SignalboxValidationError,
  type DeliveryFailure,
  type DeliveryFailureReason,
  type FlushResult,
  type FlushShortfall,
} from './errors.js';
export type { Context, Identity, MessageOptions, PageOptions, Properties, ScreenOptions, TrackOptions, Traits } from './messages.js';
export type { ClientStats, ErrorListener } from './reporter.js';
export type { Transport, TransportRequest, TransportResponse } from './transport.js';
