import { ServiceError } from '@temporalio/client';
import { AdReportRequestError } from './ad-report-service';
import { ShopifyConnectionError } from './shopify-connection/errors';
import { TikTokConnectionError } from './tiktok-connection';
import { HttpError } from '../http/http-error';

/** gRPC UNAVAILABLE: the Temporal frontend cannot be reached. */
const GRPC_UNAVAILABLE = 14;

function temporalUnreachable(error: unknown): boolean {
  return error instanceof ServiceError && (error.cause as { code?: unknown } | undefined)?.code === GRPC_UNAVAILABLE;
}

/**
 * The errors the services behind the settings API throw, as the HTTP answer: their own status and code, the message
 * (which names the field), and their details. Undefined for anything else.
 */
export function serviceErrorAsHttp(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (error instanceof TikTokConnectionError || error instanceof ShopifyConnectionError) {
    const details = Object.keys(error.details).length > 0 ? error.details : undefined;
    return new HttpError(error.httpStatus, error.code, error.message, undefined, {}, details);
  }
  if (error instanceof AdReportRequestError) return new HttpError(error.httpStatus, 'invalid_request', error.message, [error.message]);
  if (temporalUnreachable(error)) {
    return new HttpError(503, 'temporal_unavailable', 'Temporal is unreachable, so the statistics schedule could not be read or changed; try again shortly', undefined, {
      'retry-after': '5',
    });
  }
  return undefined;
}
