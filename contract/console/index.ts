import type { RouteContract } from '../route';
import { ACCOUNT_ROUTES } from './account-routes';
import { CONSOLE_DATA_ROUTES } from './data-routes';
import { CONSOLE_SHOPIFY_ROUTES } from './shopify-routes';
import { CONSOLE_SOURCE_ROUTES } from './source-routes';
import { CONSOLE_WORKSPACE_ROUTES } from './workspace-routes';

/** The console's JSON API under `/console/api`. */
export const CONSOLE_API_ROUTES: readonly RouteContract[] = [...ACCOUNT_ROUTES, ...CONSOLE_WORKSPACE_ROUTES, ...CONSOLE_DATA_ROUTES, ...CONSOLE_SOURCE_ROUTES, ...CONSOLE_SHOPIFY_ROUTES];
