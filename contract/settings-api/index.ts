import type { RouteContract } from '../route';
import { CONVERSION_ROUTES } from './conversion-routes';
import { IMPORT_ROUTES } from './import-routes';
import { SHOPIFY_ROUTES } from './shopify-routes';
import { SOURCE_ROUTES } from './source-routes';
import { TIKTOK_ROUTES } from './tiktok-routes';
import { WORKSPACE_ROUTES } from './workspace-routes';

/** The settings API under `/admin` (the CLI's). */
export const SETTINGS_API_ROUTES: readonly RouteContract[] = [...WORKSPACE_ROUTES, ...CONVERSION_ROUTES, ...SOURCE_ROUTES, ...IMPORT_ROUTES, ...SHOPIFY_ROUTES, ...TIKTOK_ROUTES];
