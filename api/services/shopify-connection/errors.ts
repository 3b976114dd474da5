/** Why a Shopify connection step failed; `httpStatus` is what the settings API answers. */
export type ShopifyConnectionErrorCode =
  | 'shopify_not_configured'
  | 'workspace_not_found'
  | 'shop_invalid'
  | 'state_invalid'
  | 'state_expired'
  | 'state_reused'
  | 'state_workspace_mismatch'
  | 'hmac_invalid'
  | 'shop_mismatch'
  | 'code_rejected'
  | 'shop_connected_elsewhere'
  | 'not_connected'
  | 'token_invalid'
  | 'shopify_rejected'
  | 'shopify_unavailable';

const HTTP_STATUS: Record<ShopifyConnectionErrorCode, number> = {
  shopify_not_configured: 503,
  workspace_not_found: 404,
  shop_invalid: 400,
  state_invalid: 400,
  state_expired: 400,
  state_reused: 400,
  state_workspace_mismatch: 400,
  hmac_invalid: 400,
  shop_mismatch: 400,
  code_rejected: 400,
  shop_connected_elsewhere: 409,
  not_connected: 404,
  token_invalid: 409,
  shopify_rejected: 502,
  shopify_unavailable: 503,
};

export class ShopifyConnectionError extends Error {
  readonly httpStatus: number;

  constructor(
    readonly code: ShopifyConnectionErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'ShopifyConnectionError';
    this.httpStatus = HTTP_STATUS[code];
  }
}
