import { randomBytes } from 'node:crypto';
import { OK, parameterError, type LogicalAnswer } from '../envelope';
import { ROUTE_SCOPES } from '../scopes';
import type { FakeTikTokState } from '../state';
import type { TikTokRouteDefinition } from '../tiktok-route';
import { requiredText } from './params';

export const OAUTH_ACCESS_TOKEN_PATH = '/open_api/v1.3/oauth2/access_token/';
export const OAUTH_ADVERTISER_GET_PATH = '/open_api/v1.3/oauth2/advertiser/get/';

/** Codes are [V2] (§2.3); the texts are UNVERIFIED. */
const INVALID_APP: LogicalAnswer = { code: 40101, message: 'Invalid app_id or secret. Please check the auth parameters.' };
const INVALID_AUTH_CODE: LogicalAnswer = {
  code: 40110,
  message: 'The auth_code is invalid: it does not exist, has expired, or has already been used.',
};

/**
 * `POST /oauth2/access_token/` with JSON `{app_id, secret, auth_code}` and no token (§8): a good code becomes a
 * long-term token granted the code's advertisers (with their pixels) and permissions; the code is then spent.
 */
export function accessTokenRoute(state: FakeTikTokState): TikTokRouteDefinition {
  return {
    method: 'POST',
    path: OAUTH_ACCESS_TOKEN_PATH,
    auth: 'none',
    handle(call): LogicalAnswer {
      let body: unknown;
      try {
        body = JSON.parse(call.rawBody);
      } catch {
        return parameterError('Request body is not valid JSON; expected {"app_id", "secret", "auth_code"}.');
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return parameterError('Invalid request body: expected a JSON object.');
      const fields = body as Record<string, unknown>;
      for (const name of ['app_id', 'secret', 'auth_code']) {
        if (typeof fields[name] !== 'string' || fields[name] === '') return parameterError(`Missing required field: ${name}.`);
      }
      const [appId, secret, authCode] = [fields.app_id, fields.secret, fields.auth_code] as string[];
      if (!state.oauth.credentialsMatch(appId, secret)) return INVALID_APP;
      const redemption = state.oauth.redeem(authCode, appId, call.now.getTime());
      if (!redemption.ok) return INVALID_AUTH_CODE;

      const { advertiserIds, scopes } = redemption.grant;
      const accessToken = randomBytes(20).toString('hex');
      state.registerToken({ accessToken, advertiserIds, pixelCodes: state.catalog.pixelCodesOf(advertiserIds), scopes });
      return {
        ...OK,
        data: { access_token: accessToken, advertiser_ids: advertiserIds, scope: scopes.map((scope) => BigInt(scope)) },
      };
    },
  };
}

/** `GET /oauth2/advertiser/get/?app_id=&secret=` with the token: the advertisers it was granted, with names (§8). */
export function advertiserGetRoute(state: FakeTikTokState): TikTokRouteDefinition {
  return {
    method: 'GET',
    path: OAUTH_ADVERTISER_GET_PATH,
    scopes: ROUTE_SCOPES.advertiserGet,
    handle(call): LogicalAnswer {
      const appId = requiredText(call.query, 'app_id');
      if (!appId.ok) return appId.answer;
      const secret = requiredText(call.query, 'secret');
      if (!secret.ok) return secret.answer;
      if (!state.oauth.credentialsMatch(appId.value, secret.value)) return INVALID_APP;
      const list = call.grant.advertiserIds.map((advertiserId) => ({
        advertiser_id: advertiserId,
        advertiser_name: state.catalog.advertiser(advertiserId)?.seed.advertiserName ?? `Advertiser ${advertiserId}`,
      }));
      return { ...OK, data: { list } };
    },
  };
}
