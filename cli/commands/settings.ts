import type { Command } from 'commander';
import type { WorkspaceView } from '../../contract/views';
import { CliError } from '../errors';
import { act, type CliIo } from '../session';
import { workspaceRecord } from './workspaces';

interface SettingsFlags {
  window?: string;
  testMode?: boolean;
  testEventCode?: string;
  clearTestEventCode?: boolean;
  phoneRegion?: string;
  allowedOrigins?: string;
  clearAllowedOrigins?: boolean;
  retentionDays?: string;
  conversionRetentionDays?: string;
  consentRequired?: boolean;
  exchangeRates?: string;
  clearExchangeRates?: boolean;
  matchWithoutClick?: boolean;
  pipelinePartitions?: string;
  browserPixel?: string;
  limitedDataUse?: boolean;
}

/** `EUR=1.08,JPY=0.0065` as `{ EUR: '1.08', JPY: '0.0065' }`; the server checks codes and rates and names what is wrong. */
export function exchangeRatesOf(text: string): Record<string, string> {
  const rates: Record<string, string> = {};
  for (const pair of text.split(',').map((part) => part.trim()).filter((part) => part !== '')) {
    const [code, rate, ...rest] = pair.split('=');
    if (code === undefined || rate === undefined || rest.length > 0 || code.trim() === '') {
      throw new CliError(`--exchange-rates: "${pair}" is not CURRENCY=RATE, e.g. EUR=1.08`);
    }
    rates[code.trim()] = rate.trim();
  }
  return rates;
}

/** A number when the text is one; otherwise the text, so that the server names what is wrong with it. */
export function numberOrText(text: string): number | string {
  const value = Number(text);
  return text.trim() !== '' && Number.isFinite(value) ? value : text;
}

export function settingsBody(flags: SettingsFlags): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (flags.window !== undefined) body.attributionWindowDays = numberOrText(flags.window);
  if (flags.testMode !== undefined) body.testMode = flags.testMode;
  if (flags.testEventCode !== undefined) body.testEventCode = flags.testEventCode;
  if (flags.clearTestEventCode) body.testEventCode = null;
  if (flags.phoneRegion !== undefined) body.defaultPhoneRegion = flags.phoneRegion;
  if (flags.allowedOrigins !== undefined) body.allowedOrigins = flags.allowedOrigins.split(',').map((origin) => origin.trim()).filter((origin) => origin !== '');
  if (flags.clearAllowedOrigins) body.allowedOrigins = [];
  if (flags.retentionDays !== undefined) body.eventRetentionDays = numberOrText(flags.retentionDays);
  if (flags.conversionRetentionDays !== undefined) body.conversionRetentionDays = numberOrText(flags.conversionRetentionDays);
  if (flags.consentRequired !== undefined) body.consentRequired = flags.consentRequired;
  if (flags.exchangeRates !== undefined) body.exchangeRates = exchangeRatesOf(flags.exchangeRates);
  if (flags.clearExchangeRates) body.exchangeRates = {};
  if (flags.matchWithoutClick !== undefined) body.matchWithoutClick = flags.matchWithoutClick;
  if (flags.pipelinePartitions !== undefined) body.pipelinePartitions = numberOrText(flags.pipelinePartitions);
  if (flags.browserPixel !== undefined) body.browserPixel = flags.browserPixel;
  if (flags.limitedDataUse !== undefined) body.limitedDataUse = flags.limitedDataUse;
  if (Object.keys(body).length === 0) {
    throw new CliError(
      'nothing to change: give --window, --test-mode/--no-test-mode, --test-event-code, --phone-region, --allowed-origins, --consent-required/--no-consent-required, --exchange-rates, --retention-days, --conversion-retention-days, --match-without-click/--no-match-without-click, --pipeline-partitions, --browser-pixel or --limited-data-use/--no-limited-data-use',
    );
  }
  return body;
}

const SETTINGS_FLAGS = {
  attributionWindowDays: '--window',
  testMode: '--test-mode',
  testEventCode: '--test-event-code',
  defaultPhoneRegion: '--phone-region',
  allowedOrigins: '--allowed-origins',
  matchWithoutClick: '--match-without-click',
  pipelinePartitions: '--pipeline-partitions',
  browserPixel: '--browser-pixel',
  limitedDataUse: '--limited-data-use',
};

export function registerSettingsCommands(program: Command, io: CliIo): void {
  const settings = program.command('settings').description("change a workspace's settings");

  settings
    .command('set <workspaceId>')
    .description(
      "set the attribution window, test mode, default phone region, allowed browser origins, consent requirement, exchange rates, event and conversion retention, matching without a click, pipeline partitions, TikTok's pixel in the browser or Limited Data Use",
    )
    .option('--window <days>', 'attribution window in days (1-90)')
    .option('--test-mode', 'send conversions with the test event code (shown in TikTok Test events)')
    .option('--no-test-mode', 'send production conversions')
    .option('--test-event-code <code>', 'the test event code from TikTok Events Manager, e.g. TEST12345')
    .option('--clear-test-event-code', 'forget the stored test event code')
    .option('--phone-region <country>', 'default region for phone numbers without a country code, e.g. US')
    .option('--allowed-origins <origins>', 'comma-separated origins browser keys are accepted from (replaces the list), e.g. https://shop.example,https://www.shop.example')
    .option('--clear-allowed-origins', 'accept browser keys from no origin at all')
    .option('--consent-required', 'the tracking script stores and sends no identifier until the page calls signalbox.consent.grant()')
    .option('--no-consent-required', 'the tracking script starts at once (the page may still call signalbox.consent.hold())')
    .option('--exchange-rates <rates>', "what one unit of each currency is worth in the TikTok advertiser's currency, for reports (replaces the list), e.g. EUR=1.08,JPY=0.0065")
    .option('--clear-exchange-rates', 'reports show delivered values per currency again')
    .option('--retention-days <days>', 'days raw events keep their message, then deleted or stripped of personal data (1-3650, default 30)')
    .option('--conversion-retention-days <days>', 'days a settled conversion is kept, then deleted with its timeline (28-3650, default 90)')
    .option('--match-without-click', 'also send conversions without a TikTok click inside the window, for TikTok to match on email, phone, IP, user agent, _ttp…')
    .option('--no-match-without-click', 'send only conversions with a click inside the attribution window (the default)')
    .option('--pipeline-partitions <count>', "group workflows the workspace's conversions are split among, for a very large shop (1-16, default 1)")
    .option(
      '--browser-pixel <mode>',
      "what the tracking script does with TikTok's pixel: off (leaves it alone, the default), load (loads it and sends it each conversion with the server's event ID, so TikTok counts it once) or page (the same through the pixel already on the pages, e.g. installed by TikTok's Shopify app)",
    )
    .option('--limited-data-use', "flag every event, from the server and from the pixel, for TikTok's Limited Data Use")
    .option('--no-limited-data-use', 'send events without the Limited Data Use flag (the default)')
    .action(
      act(io, async ({ request, print }, workspaceId: string, flags: SettingsFlags) => {
        const body = settingsBody(flags);
        print(await request<WorkspaceView>('PATCH', `/admin/workspaces/${encodeURIComponent(workspaceId)}/settings`, { body }), workspaceRecord);
      }, SETTINGS_FLAGS),
    );
}
