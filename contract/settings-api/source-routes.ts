import { errors } from '../errors';
import { deletedSourceView, mappingPreviewView, webhookSourcesView, webhookSourceView, webhookSourceWithSecretView } from '../views';
import { createSourceBody, previewBody, secretBody, sourceParams, updateSourceBody } from '../webhook-sources';
import { inWorkspace } from '../workspaces';
import { adminRoute, inWorkspacePath } from './admin-route';

export const SOURCE_ROUTES = [
  adminRoute({
    method: 'POST',
    path: inWorkspacePath('/sources'),
    summary: 'Add a webhook source (a Shopify shop, or any platform posting signed JSON)',
    params: inWorkspace(),
    body: createSourceBody,
    bodyExample: { type: 'webhook', name: 'Payments', mapping: { event: '"Order Completed"', userId: 'data.customer.id', value: 'data.amount', valueInCents: true, currency: 'data.currency' } },
    answers: { 201: { description: 'The source, with its signing secret when Signalbox made it', schema: webhookSourceWithSecretView }, ...errors(400) },
  }),
  adminRoute({ method: 'GET', path: inWorkspacePath('/sources'), summary: 'List the webhook sources', params: inWorkspace(), answers: { 200: { description: 'The sources', schema: webhookSourcesView } } }),
  adminRoute({ method: 'GET', path: inWorkspacePath('/sources/:sourceId'), summary: 'A webhook source', params: inWorkspace(sourceParams), answers: { 200: { description: 'The source', schema: webhookSourceView } } }),
  adminRoute({
    method: 'PATCH',
    path: inWorkspacePath('/sources/:sourceId'),
    summary: 'Change a webhook source\'s name, signature header or mapping',
    params: inWorkspace(sourceParams),
    body: updateSourceBody,
    answers: { 200: { description: 'The source as changed', schema: webhookSourceView }, ...errors(400) },
  }),
  adminRoute({
    method: 'POST',
    path: inWorkspacePath('/sources/:sourceId/secret'),
    summary: 'Set or rotate a webhook source\'s signing secret',
    params: inWorkspace(sourceParams),
    body: secretBody,
    answers: { 200: { description: 'The source, with the new secret when Signalbox made it', schema: webhookSourceWithSecretView }, ...errors(400) },
  }),
  adminRoute({
    method: 'POST',
    path: inWorkspacePath('/sources/preview'),
    summary: 'What a pasted sample body becomes under a mapping',
    params: inWorkspace(),
    body: previewBody,
    answers: { 200: { description: 'The message, or every problem', schema: mappingPreviewView }, ...errors(400) },
  }),
  adminRoute({
    method: 'DELETE',
    path: inWorkspacePath('/sources/:sourceId'),
    summary: 'Delete a webhook source',
    params: inWorkspace(sourceParams),
    answers: { 200: { description: 'Deleted', schema: deletedSourceView } },
  }),
];
