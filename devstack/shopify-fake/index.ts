export { postShopifyDelivery, SHOPIFY_FIXTURE_TOPICS, shopifyDelivery, shopifyFixture, shopifyJson, sign, type ShopifyDeliveryRequest, type ShopifyFixtureTopic } from './deliveries';
