import { STATUS_CODES } from 'node:http';
import type { FakeTikTokFault } from './faults';

/** TikTok's envelope (§2.1): `data` is `{}` on errors. */
export interface TikTokEnvelopeBody {
  code: number;
  message: string;
  request_id: string;
  data: Record<string, unknown>;
}

/** What a TikTok route sends back: the envelope (HTTP 200 even for logical errors, §2.2) or a raw gateway body. */
export type FakeAnswer =
  | { kind: 'envelope'; httpStatus: number; envelope: TikTokEnvelopeBody }
  | { kind: 'raw'; httpStatus: number; body: string; contentType: string };

/** A route's logical answer before the envelope is put around it. */
export interface LogicalAnswer {
  code: number;
  message: string;
  data?: Record<string, unknown>;
}

export const OK: LogicalAnswer = { code: 0, message: 'OK', data: {} };

/** Exact text from the live probe in §2.2 [V2] AE. */
export const MISSING_TOKEN: LogicalAnswer = {
  code: 40104,
  message: 'Access token is null, you should set it in http header with key Access-Token.',
};

/** Text UNVERIFIED; the code is [V2] (§2.3). */
export const UNKNOWN_TOKEN: LogicalAnswer = { code: 40105, message: 'Access token is incorrect or has been revoked.' };

/** Text from the RS fixture quoted in §2.3 (40001). */
export function noPixelPermission(pixelCode: string): LogicalAnswer {
  return {
    code: 40001,
    message: `No permission to operate pixel code: ${pixelCode}. You must be an admin or operator of this advertiser account.`,
  };
}

/** The token lacks the permission the endpoint needs (text UNVERIFIED; 40001 is TikTok's permission code, §2.3 [V2]). */
export function missingScope(path: string): LogicalAnswer {
  return { code: 40001, message: `No permission to operate ${path}: the authorization does not include this permission.` };
}

/** An Offline or CRM Event Set not among the token's advertisers' (text UNVERIFIED; 40001 as for a pixel, §2.3). */
export function noEventSetPermission(eventSetId: string): LogicalAnswer {
  return { code: 40001, message: `No permission to operate event set: ${eventSetId}. It is not an event set of an advertiser this token is authorized for.` };
}

export function noAdvertiserPermission(advertiserId: string): LogicalAnswer {
  return { code: 40001, message: `No permission to operate advertiser: ${advertiserId}.` };
}

export function parameterError(message: string): LogicalAnswer {
  return { code: 40002, message };
}

export function envelopeAnswer(requestId: string, answer: LogicalAnswer, httpStatus = 200): FakeAnswer {
  return {
    kind: 'envelope',
    httpStatus,
    envelope: { code: answer.code, message: answer.message, request_id: requestId, data: answer.data ?? {} },
  };
}

const INJECTED_MESSAGES: Readonly<Record<number, string>> = {
  20001: 'Partial success.',
  40100: 'Requests made too frequently. Please try again later.',
  40133: 'Advertiser QPS reaches QPS limit for current path, request is temporarily restricted.',
  50000: 'System error.',
  50002: 'Error occurred while processing the request. Please try again later.',
};

/** The answer an injected fault replaces the real one with (see FakeTikTokFault). */
export function faultAnswer(fault: FakeTikTokFault, requestId: string): FakeAnswer {
  if (fault.body !== undefined) {
    return { kind: 'raw', httpStatus: fault.httpStatus ?? 200, body: fault.body, contentType: contentTypeOf(fault.body) };
  }
  if (fault.code !== undefined) {
    const message = fault.message ?? INJECTED_MESSAGES[fault.code] ?? `Injected fault with code ${fault.code}.`;
    return envelopeAnswer(requestId, { code: fault.code, message }, fault.httpStatus);
  }
  const status = fault.httpStatus ?? 502;
  return { kind: 'raw', httpStatus: status, body: gatewayPage(status), contentType: 'text/html' };
}

/** What nginx in front of the API answers when the request does not reach API logic (§2.2). */
export function gatewayPage(status: number): string {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

function contentTypeOf(body: string): string {
  try {
    JSON.parse(body);
    return 'application/json';
  } catch {
    return 'text/html';
  }
}
