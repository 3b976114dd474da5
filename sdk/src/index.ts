import Signalbox from './client';

export default Signalbox;
export type { SignalboxConfig } from './config';
export type { Context, MessageOptions, PageOptions, Properties, TrackOptions, Traits } from './messages';
export type { DeliveryError, DeliveryFailureReason, FlushError } from './errors';
export type { ClientStats, ErrorListener } from './reporter';
export type { Transport, TransportRequest, TransportResponse } from './transport';

// `require('@signalbox/api')` and Node's ESM `import Signalbox from '@signalbox/api'` both get the class itself;
// `.default` and `__esModule` keep TypeScript's and bundlers' `require(...).default` working too.
module.exports = Object.assign(Signalbox, { default: Signalbox, __esModule: true });
