export { createShopifyConnectionService, SHOPIFY_SCOPES, SUBSCRIBED_TOPICS, type ShopifyApp, type ShopifyConnectionService, type ShopifyConnectionView, type ShopifyStatusView } from './connection-service';
export { ShopifyConnectionError, type ShopifyConnectionErrorCode } from './errors';
export { createShopifyAdmin, SHOPIFY_API_VERSION, topicEnum, type ShopifyAdmin } from './shopify-admin';
