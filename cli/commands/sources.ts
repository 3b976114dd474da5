import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { DeletedSourceView, MappingPreviewView, WebhookSourcesView, WebhookSourceView, WebhookSourceWithSecretView } from '../../contract/views';
import { CliError } from '../errors';
import { formatRecord, formatTable } from '../output';
import { act, type CliIo } from '../session';

const sourcesPath = (workspaceId: string, rest = '') => `/admin/workspaces/${encodeURIComponent(workspaceId)}/sources${rest}`;

/** Mapping field → flag, for the options and for the server's errors (`mapping.event` → `--event`). */
const MAPPING_FLAGS = {
  event: '--event',
  messageId: '--message-id',
  userId: '--user-id',
  anonymousId: '--anonymous-id',
  email: '--email',
  phone: '--phone',
  value: '--value',
  currency: '--currency',
  orderId: '--order-id',
  products: '--products',
  timestamp: '--timestamp',
} as const;
type MappingOptions = Partial<Record<keyof typeof MAPPING_FLAGS | 'valueInCents', string | boolean>>;
const FLAG_NAMES = { ...Object.fromEntries(Object.entries(MAPPING_FLAGS).map(([field, flag]) => [`mapping.${field}`, flag])), signingSecret: '--secret', signatureHeader: '--signature-header', name: '--name', sample: '--sample' };

function withMappingOptions(command: Command): Command {
  return command
    .option('--event <path>', 'where the event name is, or a fixed name in double quotes, e.g. \'"Order Completed"\' or data.type')
    .option('--message-id <path>', "the delivery's unique ID, so a retried delivery is stored once (else derived from the body)")
    .option('--user-id <path>', 'your user ID of the buyer')
    .option('--anonymous-id <path>', 'the visitor (the sbx_aid cookie your site passed along)')
    .option('--email <path>', "the buyer's email (hashed before it reaches TikTok)")
    .option('--phone <path>', "the buyer's phone (hashed before it reaches TikTok)")
    .option('--value <path>', 'the amount')
    .option('--value-in-cents', 'the amount is in cents (as Stripe sends it): divided by 100')
    .option('--currency <path>', 'where the currency is, or a fixed code in double quotes, e.g. \'"EUR"\'')
    .option('--order-id <path>', 'the order ID (the conversion\'s event_id for a purchase)')
    .option('--products <path>', 'a list of items with product_id or sku, name, price and quantity')
    .option('--timestamp <path>', 'when it happened: ISO-8601 text or Unix seconds (else when it arrived)');
}

/** The mapping the options describe, or undefined when none was given. */
function mappingOf(options: MappingOptions): Record<string, string | boolean> | undefined {
  const mapping: Record<string, string | boolean> = Object.fromEntries(
    Object.keys(MAPPING_FLAGS).flatMap((field) => (typeof options[field as keyof MappingOptions] === 'string' ? [[field, options[field as keyof MappingOptions] as string]] : [])),
  );
  if (options.valueInCents === true) mapping.valueInCents = true;
  return Object.keys(mapping).length === 0 ? undefined : mapping;
}

function renderSecret(source: WebhookSourceWithSecretView): string {
  const secret: [string, string][] = source.signingSecret === undefined ? [] : [['Signing secret', source.signingSecret]];
  return [formatRecord([['ID', source.id], ['Type', source.type], ['Name', source.name], ['Webhook URL', source.webhookUrl], ['Signature header', source.signatureHeader], ...secret]), '', source.notice].join('\n');
}

const lastRefusal = (source: WebhookSourceView) => (source.lastRefusal === null ? null : `${source.lastRefusal.at} ${source.lastRefusal.status}: ${source.lastRefusal.message}`);

export function registerSourceCommands(program: Command, io: CliIo): void {
  const sources = program.command('sources').description('manage the sources that post signed webhooks: Shopify shops, and any platform through a mapping');

  withMappingOptions(
    sources
      .command('create <workspaceId>')
      .description('create a source; its webhook URL and signing secret are printed (the secret only this once)')
      .requiredOption('--name <name>', 'what it is, e.g. Fern shop')
      .option('--shopify', "a Shopify shop: orders, checkouts, carts, refunds and customers, signed with Shopify's key")
      .option('--webhook', 'any platform that posts signed JSON, mapped by the --event … options')
      .option('--secret <secret>', "the signing secret to check deliveries with (a Shopify shop's key); else one is made")
      .option('--signature-header <header>', 'webhook sources: the header the signature travels in (default X-Signature)'),
  ).action(
    act(io, async ({ request, print }, workspaceId: string, options: MappingOptions & { name: string; shopify?: boolean; webhook?: boolean; secret?: string; signatureHeader?: string }) => {
      if (options.shopify === options.webhook) throw new CliError('choose one of --shopify and --webhook');
      const body = { type: options.shopify ? 'shopify' : 'webhook', name: options.name, signingSecret: options.secret, signatureHeader: options.signatureHeader, mapping: mappingOf(options) };
      print(await request<WebhookSourceWithSecretView>('POST', sourcesPath(workspaceId), { body }), renderSecret);
    }, FLAG_NAMES),
  );

  sources
    .command('list <workspaceId>')
    .description("list a workspace's sources with their webhook URL, last accepted delivery and last refusal (never their secret)")
    .action(
      act(io, async ({ request, print }, workspaceId: string) => {
        const { sources: listed } = await request<WebhookSourcesView>('GET', sourcesPath(workspaceId));
        print(listed, (rows) => formatTable(['id', 'type', 'name', 'webhook url', 'last delivery', 'last refusal'], rows.map((s) => [s.id, s.type, s.name, s.webhookUrl, s.lastDeliveryAt, lastRefusal(s)])));
      }),
    );

  sources
    .command('secret <workspaceId> <sourceId>')
    .description('give a source a new signing secret (made here, or --secret); deliveries signed with the old one are refused from now on')
    .option('--secret <secret>', "the secret to use, e.g. the key Shopify shows under Settings → Notifications → Webhooks")
    .action(
      act(io, async ({ request, print }, workspaceId: string, sourceId: string, { secret }: { secret?: string }) => {
        print(await request<WebhookSourceWithSecretView>('POST', sourcesPath(workspaceId, `/${encodeURIComponent(sourceId)}/secret`), { body: { signingSecret: secret } }), renderSecret);
      }, FLAG_NAMES),
    );

  withMappingOptions(
    sources
      .command('set <workspaceId> <sourceId>')
      .description("change a source's name, signature header or mapping (the mapping given replaces the whole mapping)")
      .option('--name <name>', 'a new name')
      .option('--signature-header <header>', 'webhook sources: the header the signature travels in'),
  ).action(
    act(io, async ({ request, print }, workspaceId: string, sourceId: string, options: MappingOptions & { name?: string; signatureHeader?: string }) => {
      const body = { name: options.name, signatureHeader: options.signatureHeader, mapping: mappingOf(options) };
      const updated = await request<WebhookSourceView>('PATCH', sourcesPath(workspaceId, `/${encodeURIComponent(sourceId)}`), { body });
      print(updated, (source) => formatRecord([['ID', source.id], ['Name', source.name], ['Signature header', source.signatureHeader], ['Mapping', source.mapping]]));
    }, FLAG_NAMES),
  );

  withMappingOptions(
    sources
      .command('preview <workspaceId>')
      .description('what a sample body (a JSON file) becomes under a mapping, before any delivery')
      .requiredOption('--sample <file>', 'a JSON file holding one delivery, as the platform posts it'),
  ).action(
    act(io, async ({ request, print }, workspaceId: string, options: MappingOptions & { sample: string }) => {
      const mapping = mappingOf(options);
      if (mapping === undefined) throw new CliError('give the mapping to preview: at least --event');
      const sample = readFileSync(path.resolve(io.cwd, options.sample), 'utf8');
      const preview = await request<MappingPreviewView>('POST', sourcesPath(workspaceId, '/preview'), { body: { mapping, sample } });
      print(preview, (result) => (result.ok ? JSON.stringify(result.message, null, 2) : `Not stored as it is:\n${result.problems.map((problem) => `  ${problem}`).join('\n')}`));
    }, FLAG_NAMES),
  );

  sources
    .command('delete <workspaceId> <sourceId>')
    .description('delete a source: its webhook URL answers 404 from now on (Shopify turns such webhooks off)')
    .action(
      act(io, async ({ request, print }, workspaceId: string, sourceId: string) => {
        const deleted = await request<DeletedSourceView>('DELETE', sourcesPath(workspaceId, `/${encodeURIComponent(sourceId)}`));
        print(deleted, ({ id }) => `Deleted source ${id}`);
      }),
    );
}
