import { INGEST_ROUTES } from './ingest';
import { OPERATION_ROUTES } from './operations';
import type { RouteContract } from './route';
import { SETTINGS_API_ROUTES } from './settings-api';
import { CONSOLE_API_ROUTES } from './console';

/** Every route of the HTTP API, in the order the reference lists them. */
export const ALL_ROUTES: readonly RouteContract[] = [...INGEST_ROUTES, ...SETTINGS_API_ROUTES, ...CONSOLE_API_ROUTES, ...OPERATION_ROUTES];

/** The reference's title and introduction. */
export const API_INFO = {
  title: 'Signalbox API',
  version: '0.1.0',
  description: [
    'Server-side event tracking and TikTok conversion forwarding. Four faces:',
    '',
    '- **Ingest** (`/v1`): Segment-compatible tracking API, authenticated by a workspace\'s API key; webhook sources by their signature.',
    '- **Settings API** (`/admin`): workspaces, keys, rules, TikTok, people; `Authorization: Bearer <ADMIN_TOKEN>`. The `signalbox` CLI speaks it.',
    '- **Console API** (`/console/api`): what the console uses; the session cookie, and the session\'s CSRF token on writes.',
    '- **OAuth callbacks** of TikTok (`/oauth/tiktok/callback`) and Shopify (`/oauth/shopify/callback`).',
    '',
    'Every error is `{ error, message }`, with `issues` naming each bad field of a 400.',
  ].join('\n'),
};
