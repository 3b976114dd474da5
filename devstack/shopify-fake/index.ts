export { postShopifyDelivery, SHOPIFY_FIXTURE_TOPICS, shopifyDelivery, shopifyFixture, shopifyJson, sign, type ShopifyDeliveryRequest, type ShopifyFixtureTopic } from './deliveries';
export { startFakeStorefront, STOREFRONT_PRODUCTS, type FakeStorefront, type StorefrontCart, type StorefrontProduct, type StorefrontRequest } from './storefront';
export { FAKE_SHOP_DOMAIN, FAKE_SHOPIFY_API_KEY, FAKE_SHOPIFY_API_SECRET, startFakeShopifyAdmin, type FakeShopifyAdmin } from './admin';
