import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { Button } from 'react-aria-components';
import { useSearchParams } from 'react-router';
import { api, ApiError, get } from '../api';
import { CopyButton, ErrorNote, Loading, WhyNot } from '../components/bits';
import { ConfirmButton } from '../components/ConfirmButton';
import { Field, Form, RoleNote, Submit, useReadOnlyReason } from '../components/Form';
import { FormError } from '../components/FormError';
import { dateTime } from '../format';
import { useWorkspace, whyNot } from '../session';
import { BrowserPixelSettings } from './sources/BrowserPixel';
import { TikTokEventSets } from './sources/EventSets';
import { ShopifySection } from './sources/ShopifySection';
import { WebhookSourcesSection } from './sources/WebhookSources';
import type { AdvertiserChoicesView, AuthorizationUrlView, ConsoleTikTokView, PixelChoicesView } from '../../../contract/tiktok-views';
import type { InstallView } from '../../../contract/setup-views';
import type { ApiKeysView, ApiKeyView as ApiKey, ConsoleCreatedKeyView as CreatedKey } from '../../../contract/views';
import type { CreateKeyBody } from '../../../contract/api-keys';
import type { ShopifyStatusViewBody } from '../../../contract/shopify-views';

const CHOSEN = { advertiser: 'Advertiser chosen', pixel: 'Pixel chosen', app: 'App ID saved' };
const NEXT_STEP: Record<string, string> = {
  select_advertiser: 'Choose the advertiser below.',
  select_pixel: 'Choose the pixel that receives conversions below.',
  reauthorize: 'TikTok no longer accepts this connection: connect again.',
};

export function SourcesPage() {
  const { base, data: workspace } = useWorkspace();
  const role = workspace?.role;
  const [params] = useSearchParams();
  // Keys are shown once: a browser key created on this visit goes into the tag whole.
  const [newBrowserKey, setNewBrowserKey] = useState<CreatedKey | null>(null);
  const origins = workspace?.workspace.allowedOrigins ?? [];
  return (
    <>
      <h1>Sources</h1>
      {params.get('tiktok') === 'connected' && (
        <p className="notice" role="status">
          TikTok is connected. Finish with the steps below.
        </p>
      )}
      {params.get('shopify') === 'connected' && (
        <p className="notice" role="status">
          Your Shopify shop is connected: orders now reach Signalbox and the tracking script runs on your storefront.
        </p>
      )}
      <TikTokSection base={base} role={role} />
      <KeysSection base={base} role={role} origins={origins} onCreated={(key) => key.kind === 'browser' && setNewBrowserKey(key)} />
      <InstallSection base={base} role={role} origins={origins} newBrowserKey={newBrowserKey} />
      <ShopifySection base={base} role={role} />
      <WebhookSourcesSection base={base} role={role} />
    </>
  );
}

function TikTokSection({ base, role }: { base: string; role: string | undefined }) {
  const readOnly = useReadOnlyReason(whyNot(role, 'editor', 'change the TikTok connection'));
  const whyId = useId();
  const queries = useQueryClient();
  const tiktok = useQuery({ queryKey: ['tiktok', base], queryFn: () => get<ConsoleTikTokView>(`${base}/tiktok`) });
  const connection = tiktok.data?.connection ?? null;
  const advertisers = useQuery({
    queryKey: ['advertisers', base],
    queryFn: () => get<AdvertiserChoicesView>(`${base}/tiktok/advertisers`),
    enabled: connection !== null,
  });
  const pixels = useQuery({
    queryKey: ['pixels', base, connection?.advertiserId],
    queryFn: () => get<PixelChoicesView>(`${base}/tiktok/pixels`),
    enabled: connection?.advertiserId != null,
  });
  const refresh = () => queries.invalidateQueries({ predicate: (q) => ['tiktok', 'advertisers', 'pixels', 'event-sets', 'workspace'].includes(String(q.queryKey[0])) });
  const connect = useMutation({ mutationFn: () => api<AuthorizationUrlView>('POST', `${base}/tiktok/authorize`), onSuccess: ({ url }) => window.location.assign(url) });
  const choose = useMutation({
    mutationFn: ({ what, body }: { what: 'advertiser' | 'pixel' | 'app'; body: object }) => api('PUT', `${base}/tiktok/${what}`, body),
    meta: { done: ({ what }: { what: 'advertiser' | 'pixel' | 'app' }) => CHOSEN[what] },
    onSuccess: refresh,
  });
  const disconnect = useMutation({ mutationFn: () => api('DELETE', `${base}/tiktok`), meta: { done: 'TikTok disconnected' }, onSuccess: refresh });
  const [appErrors, setAppErrors] = useState<Record<string, string>>({});

  return (
    <section aria-labelledby="tiktok">
      <h2 id="tiktok">TikTok</h2>
      {tiktok.isPending && <Loading what="the connection" />}
      {tiktok.isError && <ErrorNote error={tiktok.error} />}
      {tiktok.data && connection === null && (
        <div className="card">
          <p>Not connected. Connecting opens TikTok, where you log in to Ads Manager, choose the advertiser and grant three permissions:</p>
          <ul>
            {tiktok.data.permissions.map((p) => (
              <li key={p.key}>{p.description}</li>
            ))}
          </ul>
          {readOnly === null ? (
            <Button className="button primary" onPress={() => connect.mutate()} isPending={connect.isPending}>
              Connect TikTok
            </Button>
          ) : (
            <p className="muted">{readOnly.reason}</p>
          )}
          <FormError error={connect.error} />
        </div>
      )}
      {connection && (
        <div className="card">
          <p>
            <span className={`badge ${connection.status === 'active' ? 'delivered' : 'failed'}`}>{connection.status === 'active' ? 'Connected' : 'Needs re-authorization'}</span>{' '}
            <span className="muted">
              ({connection.source === 'oauth' ? 'through TikTok login' : 'with a token from Events Manager'}) · statistics last pulled {dateTime(connection.statsPulledAt)}
            </span>
          </p>
          {connection.nextStep && <p className="notice">{NEXT_STEP[connection.nextStep]}</p>}
          {connection.statsPullError && <p className="form-error">Last statistics pull failed: {connection.statsPullError}</p>}
          <h3>Permissions</h3>
          <ul className="checks">
            {tiktok.data?.permissions.map((p) => (
              <li key={p.key} className={p.granted === false ? 'missing' : 'granted'}>
                {p.granted === false ? '✗ missing: ' : p.granted === null ? '? unknown (manual token): ' : '✓ '}
                {p.description}
              </li>
            ))}
          </ul>
          <RoleNote readOnly={readOnly} />
          <div className="columns">
            <label className="field">
              <span>Advertiser</span>
              <select
                aria-label="Advertiser"
                aria-describedby={readOnly?.id}
                disabled={readOnly !== null || choose.isPending}
                value={advertisers.data?.selectedAdvertiserId ?? ''}
                onChange={(e) => e.target.value && choose.mutate({ what: 'advertiser', body: { advertiserId: e.target.value } })}
              >
                <option value="">Choose the advertiser…</option>
                {advertisers.data?.advertisers.map((a) => (
                  <option key={a.advertiserId} value={a.advertiserId}>
                    {a.advertiserName ? `${a.advertiserName} (${a.advertiserId})` : `Advertiser ${a.advertiserId}`}
                  </option>
                ))}
              </select>
            </label>
            <label className="field">
              <span>Pixel (receives web conversions)</span>
              <select
                aria-label="Pixel"
                aria-describedby={readOnly?.id ?? (connection.advertiserId === null ? whyId : undefined)}
                disabled={readOnly !== null || connection.advertiserId === null || choose.isPending}
                value={pixels.data?.selectedPixelCode ?? ''}
                onChange={(e) => e.target.value && choose.mutate({ what: 'pixel', body: { pixelCode: e.target.value } })}
              >
                <option value="">{connection.advertiserId === null ? 'Choose the advertiser first' : 'Choose the pixel…'}</option>
                {pixels.data?.pixels.map((p) => (
                  <option key={p.pixelCode} value={p.pixelCode}>
                    {p.pixelName} ({p.pixelCode})
                  </option>
                ))}
              </select>
            </label>
          </div>
          {readOnly === null && connection.advertiserId === null && <WhyNot id={whyId}>Pixels are listed once the advertiser is chosen.</WhyNot>}
          {pixels.isError && <ErrorNote error={pixels.error} />}
          <FormError error={choose.error instanceof ApiError && choose.variables?.what !== 'app' ? choose.error : null} />
          <Form
            label="TikTok App ID"
            errors={appErrors}
            readOnly={readOnly}
            onSubmit={(data) => {
              const appId = String(data.get('appId') ?? '').trim();
              choose.mutate({ what: 'app', body: { appId: appId === '' ? null : appId } }, { onError: (error) => setAppErrors(error instanceof ApiError ? error.fieldErrors() : {}), onSuccess: () => setAppErrors({}) });
            }}
          >
            <Field name="appId" label="TikTok App ID (mobile-app events)" defaultValue={connection.appId ?? ''} description="From Events Manager → your app's data source. Leave empty if you have no app." />
            {readOnly === null && <Submit>Save App ID</Submit>}
          </Form>
          <TikTokEventSets base={base} connection={connection} readOnly={readOnly} onChanged={refresh} />
          {readOnly === null && (
            <div className="actions">
              <Button className="button" onPress={() => connect.mutate()}>
                Connect again
              </Button>
              <ConfirmButton label="Disconnect" title="Disconnect TikTok?" confirm="Disconnect" onConfirm={() => disconnect.mutate()}>
                The token is deleted and statistics stop. Conversions are skipped until TikTok is connected again.
              </ConfirmButton>
            </div>
          )}
        </div>
      )}
    </section>
  );
}

/** What the tag's note says of its key: which saved key to paste, and how to get one (an owner creates keys). */
function tagKeyNote(saved: ApiKey | undefined, createsKeys: boolean): ReactNode {
  if (saved !== undefined) {
    const lost = createsKeys ? ' Lost it? Create a new browser key above (the tag then holds it) and revoke the old one.' : ' Lost it? An owner can create a new one.';
    return (
      <>
        Paste the browser key “{saved.name}” you saved (it starts <code>{saved.displayPrefix}</code>) in place of <code>{KEY_PLACEHOLDER}</code>: keys are shown only once.{lost}
      </>
    );
  }
  return createsKeys ? 'Create a browser key above (kind: browser): the tag then holds it.' : 'The tag needs a browser key, which an owner creates above.';
}

const useKeys = (base: string) => useQuery({ queryKey: ['keys', base], queryFn: () => get<ApiKeysView>(`${base}/api-keys`) });

function KeysSection({ base, role, origins, onCreated }: { base: string; role: string | undefined; origins: string[]; onCreated: (key: CreatedKey) => void }) {
  const cannot = whyNot(role, 'owner', 'create or revoke API keys');
  const queries = useQueryClient();
  const keys = useKeys(base);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useMutation({
    mutationFn: (body: CreateKeyBody) => api<CreatedKey>('POST', `${base}/api-keys`, body),
    meta: { done: 'API key created' },
    onSuccess: (key) => {
      setCreated(key);
      onCreated(key);
      setErrors({});
      void queries.invalidateQueries({ queryKey: ['keys', base] });
    },
    onError: (error) => setErrors(error instanceof ApiError ? error.fieldErrors() : {}),
  });
  const revoke = useMutation({ mutationFn: (id: string) => api('DELETE', `${base}/api-keys/${id}`), meta: { done: 'API key revoked' }, onSuccess: () => queries.invalidateQueries({ queryKey: ['keys', base] }) });
  const live = keys.data?.apiKeys.filter((k) => k.revokedAt === null) ?? [];
  return (
    <section aria-labelledby="keys">
      <h2 id="keys">API keys</h2>
      <p className="muted">
        Secret keys (starting <code>dk_</code>) are for your servers; browser keys (<code>pk_</code>) go into your pages' tag; app keys (<code>ak_</code>) into mobile apps. Browser and app keys can only send events.
      </p>
      {keys.isPending && <Loading what="keys" />}
      {keys.data && live.length === 0 && <p className="empty">No API key yet: create one to send events.</p>}
      <ul className="cards">
        {live.map((k) => (
          <li key={k.id} className="card">
            <div>
              <strong>{k.name}</strong> <span className="badge">{k.kind}</span> <code>{k.displayPrefix}…</code>
              <div className="muted">created {dateTime(k.createdAt)}</div>
            </div>
            {cannot === null && (
              <ConfirmButton label="Revoke" title={`Revoke the key ${k.name}?`} confirm="Revoke" onConfirm={() => revoke.mutate(k.id)}>
                Requests with this key are refused from now on. This cannot be undone.
              </ConfirmButton>
            )}
          </li>
        ))}
      </ul>
      {created && (
        <div className="notice" role="status">
          <p>
            <strong>{created.name}</strong>: <code className="secret">{created.key}</code> <CopyButton text={created.key} />
          </p>
          <p>
            Store this key now: it is shown only once and cannot be recovered.
            {created.kind === 'browser' && (
              <>
                {' '}
                Browser keys are public: the tracking tag below now holds it. It can only send events, and only from the sites under <a href="#allowed-origins">Allowed origins</a>
                {origins.length === 0 ? ', where there is none yet: add yours, or every page is refused.' : '.'}
              </>
            )}
            {created.kind === 'app' && ' App keys are public: they go inside your mobile app and can only send events.'}
          </p>
        </div>
      )}
      {cannot === null ? (
        // A new, empty form after each key: the name typed for the last one is not left in the field.
        <Form key={created?.id ?? 'none'} label="Create an API key" errors={errors} onSubmit={(data) => create.mutate({ name: String(data.get('name') ?? ''), kind: String(data.get('kind') ?? 'secret') as CreateKeyBody['kind'] })}>
          <div className="row">
            <Field name="name" label="Key name" placeholder="backend" />
            <label className="field">
              <span>Kind</span>
              <select name="kind" aria-label="Kind" defaultValue="secret">
                <option value="secret">secret (servers)</option>
                <option value="browser">browser (web pages)</option>
                <option value="app">app (mobile apps)</option>
              </select>
            </label>
            <Submit pending={create.isPending}>Create key</Submit>
          </div>
        </Form>
      ) : (
        <p className="muted">{cannot}</p>
      )}
    </section>
  );
}

const KEY_PLACEHOLDER = 'YOUR_BROWSER_KEY';

/**
 * The tag to copy: with the key just created in it, else with a placeholder and a comment saying which key to paste
 * there. After a reload only the key's first characters are known, and a shortened key in the tag could never work.
 */
function trackingTag(scriptUrl: string, newKey: CreatedKey | null, savedKey: ApiKey | undefined): string {
  const script = (key: string) => `<script async src="${scriptUrl}" data-key="${key}"></script>`;
  if (newKey) return script(newKey.key);
  const which = savedKey ? `your browser key that starts ${savedKey.displayPrefix} (Signalbox shows a key only once)` : "a browser key: create one on Signalbox's Sources page, under API keys";
  return `<!-- Signalbox: replace ${KEY_PLACEHOLDER} with ${which} -->\n${script(KEY_PLACEHOLDER)}`;
}

function InstallSection({ base, role, origins, newBrowserKey }: { base: string; role: string | undefined; origins: string[]; newBrowserKey: CreatedKey | null }) {
  const cannot = whyNot(role, 'editor', 'change the allowed origins');
  const createsKeys = role === 'owner';
  const queries = useQueryClient();
  const install = useQuery({ queryKey: ['install', base], queryFn: () => get<InstallView>(`${base}/install`) });
  // Not the key Connect Shopify made for the storefront's script: nobody saw it to save it.
  const shopifyKeyId = useQuery({ queryKey: ['shopify', base], queryFn: () => get<ShopifyStatusViewBody>(`${base}/shopify`) }).data?.connection?.browserKeyId;
  const savedBrowserKey = useKeys(base)
    .data?.apiKeys.filter((k) => k.kind === 'browser' && k.revokedAt === null && k.id !== shopifyKeyId)
    .at(-1);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (allowedOrigins: string[]) => api('PATCH', `${base}/settings`, { allowedOrigins }),
    meta: { done: 'Allowed origins saved' },
    onSuccess: () => {
      setErrors({});
      void queries.invalidateQueries({ queryKey: ['workspace'] });
    },
    onError: (error) => {
      if (!(error instanceof ApiError)) return;
      const first = error.issues.find((issue) => issue.startsWith('allowedOrigins'));
      setErrors(first ? { allowedOrigins: first.replace(/^allowedOrigins(\[\d+\])?\s/, '') } : {});
    },
  });
  if (install.data === undefined) return null;
  const tag = trackingTag(install.data.scriptUrl, newBrowserKey, savedBrowserKey);
  return (
    <section aria-labelledby="install">
      <h2 id="install">Website tag and ads</h2>
      <h3>Tracking tag</h3>
      <p>
        Put this in every page's <code>&lt;head&gt;</code>. It records page views, the TikTok click ID (<code>ttclid</code>) of ad clicks and the <code>_ttp</code> cookie.
      </p>
      <p className="notice">
        {newBrowserKey ? `It holds the browser key “${newBrowserKey.name}” you just created.` : tagKeyNote(savedBrowserKey, createsKeys)}
      </p>
      <pre className="code">{tag}</pre>
      <CopyButton text={tag} label="Copy the tag" />
      <BrowserPixelSettings base={base} role={role} />
      <h3 id="allowed-origins">Allowed origins</h3>
      <Form label="Allowed origins" errors={errors} readOnly={cannot} onSubmit={(data) => save.mutate(String(data.get('allowedOrigins') ?? '').split(/[\s,]+/).filter((o) => o !== ''))}>
        <Field name="allowedOrigins" label="Sites that may use browser keys" defaultValue={origins.join(' ')} description="Exact origins, separated by spaces, e.g. https://shop.example https://www.shop.example" />
        {cannot === null && <Submit pending={save.isPending}>Save origins</Submit>}
      </Form>
      <h3>URL parameters for your ads</h3>
      <p>Add these to every ad's landing URL in TikTok Ads Manager, so each click is tied to its campaign, ad group and ad (TikTok fills in the values):</p>
      <pre className="code">{install.data.adUrlParameters}</pre>
      <CopyButton text={install.data.adUrlParameters} label="Copy the parameters" />
      <h3>Server events</h3>
      <p>
        Backends send events to <code>{install.data.ingestUrl}/v1/batch</code> with a secret key, or with the @signalbox/api library.
      </p>
    </section>
  );
}
