import { createKeyBody, keyParams } from '../api-keys';
import { errors } from '../errors';
import { EVENT_SET_KINDS, EVENT_SET_NAMES, eventSetPath } from '../event-set-kinds';
import { eventSetChoosing, eventSetListing, notConnected, oauthUnavailable, pixelSteps, scheduleUnavailable } from '../tiktok-answers';
import { advertiserBody, appBody, eventSetBody, pixelBody } from '../tiktok-fields';
import { installView } from '../setup-views';
import {
  advertiserChoicesView,
  authorizationUrlView,
  consoleTikTokView,
  disconnectedView,
  eventSetChoicesView,
  pixelChoicesView,
  tiktokConnectionSummaryView,
  tiktokConnectionView,
} from '../tiktok-views';
import { apiKeysView, apiKeyView, consoleCreatedKeyView, deletedSourceView, mappingPreviewView, webhookSourcesView, webhookSourceView, webhookSourceWithSecretView } from '../views';
import { createSourceBody, previewBody, secretBody, sourceParams, updateSourceBody } from '../webhook-sources';
import { inWorkspace } from '../workspaces';
import { consoleRoute, consoleWorkspacePath } from './console-route';

const path = consoleWorkspacePath;

export const CONSOLE_SOURCE_ROUTES = [
  consoleRoute({ method: 'GET', path: path('/tiktok'), summary: 'The TikTok connection', params: inWorkspace(), answers: { 200: { description: 'The connection, or null, and the permissions it needs', schema: consoleTikTokView } } }),
  consoleRoute({ method: 'POST', path: path('/tiktok/authorize'), summary: 'The TikTok authorization URL to open', role: 'editor', params: inWorkspace(), answers: { 200: { description: 'The URL', schema: authorizationUrlView }, ...errors(409), 503: oauthUnavailable } }),
  consoleRoute({ method: 'GET', path: path('/tiktok/advertisers'), summary: 'The advertisers the connection may use', params: inWorkspace(), answers: { 200: { description: 'The advertisers', schema: advertiserChoicesView }, ...errors(502), 404: notConnected } }),
  consoleRoute({ method: 'PUT', path: path('/tiktok/advertiser'), summary: 'Select the advertiser', role: 'editor', params: inWorkspace(), body: advertiserBody, answers: { 200: { description: 'The connection', schema: tiktokConnectionView }, ...errors(400, 502), 404: notConnected, 503: scheduleUnavailable } }),
  consoleRoute({ method: 'GET', path: path('/tiktok/pixels'), summary: 'The selected advertiser\'s pixels', params: inWorkspace(), answers: { 200: { description: 'The pixels', schema: pixelChoicesView }, ...pixelSteps } }),
  consoleRoute({ method: 'PUT', path: path('/tiktok/pixel'), summary: 'Select the pixel', role: 'editor', params: inWorkspace(), body: pixelBody, answers: { 200: { description: 'The connection', schema: tiktokConnectionView }, ...errors(400), ...pixelSteps } }),
  ...EVENT_SET_KINDS.flatMap((kind) => {
    const what = EVENT_SET_NAMES[kind];
    const at = path(`/tiktok${eventSetPath(kind)}`);
    return [
      consoleRoute({ method: 'GET', path: `${at}s`, summary: `The selected advertiser's ${what}s`, params: inWorkspace(), answers: { 200: { description: `The ${what}s`, schema: eventSetChoicesView }, ...eventSetListing } }),
      consoleRoute({ method: 'PUT', path: at, summary: `Select the ${what}, or none`, role: 'editor', params: inWorkspace(), body: eventSetBody, answers: { 200: { description: 'The connection', schema: tiktokConnectionView }, ...errors(400), ...eventSetChoosing } }),
    ];
  }),
  consoleRoute({ method: 'PUT', path: path('/tiktok/app'), summary: 'Set the TikTok App ID for mobile-app events', role: 'editor', params: inWorkspace(), body: appBody, answers: { 200: { description: 'The connection as stored', schema: tiktokConnectionSummaryView }, ...errors(400), 404: notConnected } }),
  consoleRoute({ method: 'DELETE', path: path('/tiktok'), summary: 'Disconnect TikTok', role: 'editor', params: inWorkspace(), answers: { 200: { description: 'Disconnected', schema: disconnectedView }, 404: notConnected, 503: scheduleUnavailable } }),
  consoleRoute({ method: 'GET', path: path('/api-keys'), summary: 'The API keys (without the keys themselves)', params: inWorkspace(), answers: { 200: { description: 'The keys', schema: apiKeysView } } }),
  consoleRoute({
    method: 'POST',
    path: path('/api-keys'),
    summary: 'Create an API key',
    description: 'The full key is in this answer only.',
    role: 'owner',
    params: inWorkspace(),
    body: createKeyBody,
    answers: { 201: { description: 'The key, shown once', schema: consoleCreatedKeyView }, ...errors(400) },
  }),
  consoleRoute({ method: 'DELETE', path: path('/api-keys/:keyId'), summary: 'Revoke an API key', role: 'owner', params: inWorkspace(keyParams), answers: { 200: { description: 'The key as revoked', schema: apiKeyView } } }),
  consoleRoute({ method: 'GET', path: path('/install'), summary: 'What a site needs: the ingest URL, the script URL, the ad URL parameters', params: inWorkspace(), answers: { 200: { description: 'The addresses', schema: installView } } }),
  consoleRoute({ method: 'GET', path: path('/sources'), summary: 'The webhook sources', params: inWorkspace(), answers: { 200: { description: 'The sources', schema: webhookSourcesView } } }),
  consoleRoute({ method: 'POST', path: path('/sources'), summary: 'Add a webhook source', role: 'editor', params: inWorkspace(), body: createSourceBody, answers: { 201: { description: 'The source, with its secret when Signalbox made it', schema: webhookSourceWithSecretView }, ...errors(400) } }),
  consoleRoute({ method: 'PATCH', path: path('/sources/:sourceId'), summary: 'Change a webhook source', role: 'editor', params: inWorkspace(sourceParams), body: updateSourceBody, answers: { 200: { description: 'The source as changed', schema: webhookSourceView }, ...errors(400) } }),
  consoleRoute({ method: 'POST', path: path('/sources/:sourceId/secret'), summary: 'Set or rotate a webhook source\'s signing secret', role: 'editor', params: inWorkspace(sourceParams), body: secretBody, answers: { 200: { description: 'The source, with the new secret when Signalbox made it', schema: webhookSourceWithSecretView }, ...errors(400) } }),
  consoleRoute({ method: 'POST', path: path('/sources/preview'), summary: 'What a pasted sample body becomes under a mapping', params: inWorkspace(), body: previewBody, answers: { 200: { description: 'The message, or every problem', schema: mappingPreviewView }, ...errors(400) } }),
  consoleRoute({ method: 'DELETE', path: path('/sources/:sourceId'), summary: 'Delete a webhook source', role: 'editor', params: inWorkspace(sourceParams), answers: { 200: { description: 'Deleted', schema: deletedSourceView } } }),
];
