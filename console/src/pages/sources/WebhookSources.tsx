import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { Link } from 'react-router';
import { api, ApiError, get } from '../../api';
import { CopyButton, ErrorNote, Loading } from '../../components/bits';
import { ConfirmButton } from '../../components/ConfirmButton';
import { Field, Form, RoleNote, Submit, useReadOnlyReason, type ReadOnlyReason } from '../../components/Form';
import { FormError } from '../../components/FormError';
import { dateTime } from '../../format';
import { whyNot } from '../../session';
import type { WebhookSourcesView, WebhookSourceView as Source, WebhookSourceWithSecretView as WithSecret } from '../../../../contract/views';
import type { ConsoleRulesView } from '../../../../contract/past-event-views';
import type { ShopifyStatusViewBody } from '../../../../contract/shopify-views';
import { MappingEditor, mappingBody, type Mapping } from './MappingEditor';
import './webhook-sources.css';

/** The topics to subscribe in Shopify's notification settings (api/http/webhook-sources.ts), in JSON. */
const SHOPIFY_TOPICS = 'orders/create, orders/paid, checkouts/create, carts/update, refunds/create, customers/create and customers/update';

/** Sources > Shopify and webhooks (issue 29): shops and platforms that post signed JSON instead of calling the API. */
export function WebhookSourcesSection({ base, role }: { base: string; role: string | undefined }) {
  const readOnly = useReadOnlyReason(whyNot(role, 'editor', 'add sources or change them'));
  const queries = useQueryClient();
  const sources = useQuery({ queryKey: ['sources', base], queryFn: () => get<WebhookSourcesView>(`${base}/sources`) });
  // The same query as the Rules page's: which rule each source needs is still missing.
  const rules = useQuery({ queryKey: ['rules', base], queryFn: () => get<ConsoleRulesView>(`${base}/rules`) });
  const missingRules = new Set(rules.data?.neededRules.map((needed) => needed.event));
  // The same query as the Shopify section's: the source Connect Shopify made needs nothing pasted.
  const shopify = useQuery({ queryKey: ['shopify', base], queryFn: () => get<ShopifyStatusViewBody>(`${base}/shopify`) });
  const connected = shopify.data?.connection ?? null;
  const [shown, setShown] = useState<WithSecret | null>(null);
  // A new form after each source added: its fields start empty again.
  const [added, setAdded] = useState(0);
  const refresh = () => queries.invalidateQueries({ queryKey: ['sources', base] });
  const remove = useMutation({ mutationFn: (id: string) => api('DELETE', `${base}/sources/${id}`), meta: { done: 'Source deleted' }, onSuccess: refresh });
  return (
    <section aria-labelledby="webhooks">
      <h2 id="webhooks">Shopify and webhooks</h2>
      <p className="muted">A Shopify shop, or any platform that posts signed JSON (a payment provider, a form tool), sends its events here without code. They arrive as any event does: your rules decide what goes to TikTok.</p>
      <RoleNote readOnly={readOnly} />
      {sources.isPending && <Loading what="sources" />}
      {sources.isError && <ErrorNote error={sources.error} />}
      {sources.data?.sources.length === 0 && <p className="empty">No source yet.</p>}
      <ul className="cards">
        {sources.data?.sources.map((source) => (
          <SourceCard
            key={source.id}
            base={base}
            source={source}
            ruleMissing={rules.data === undefined ? undefined : source.neededRule !== null && missingRules.has(source.neededRule.event)}
            connectedShop={connected !== null && connected.source?.id === source.id ? connected.shopDomain : undefined}
            readOnly={readOnly}
            onSecret={setShown}
            onDelete={() => remove.mutate(source.id)}
            onSaved={refresh}
          />
        ))}
      </ul>
      {shown && <SecretNotice source={shown} />}
      {readOnly === null && (
        <NewSource
          key={added}
          base={base}
          onCreated={(created) => {
            setShown(created);
            setAdded(added + 1);
            void refresh();
          }}
        />
      )}
    </section>
  );
}

function SecretNotice({ source }: { source: WithSecret }) {
  return (
    <div className="notice" role="status">
      {source.signingSecret !== undefined && (
        <p>
          <strong>{source.name}</strong>: signing secret <code className="secret">{source.signingSecret}</code> <CopyButton text={source.signingSecret} label="Copy the secret" />
        </p>
      )}
      <p>{source.notice}</p>
    </div>
  );
}

/** The console's address of the workspace whose API base is `base` (`workspaces/<id>`). */
const workspacePath = (base: string) => `/w/${base.replace(/^workspaces\//, '')}`;

/** The rule a source's events need, and whether the workspace has it (`missing` undefined while the rules load). */
function NeededRule({ base, rule, missing }: { base: string; rule: NonNullable<Source['neededRule']>; missing: boolean | undefined }) {
  const rules = `${workspacePath(base)}/rules`;
  return (
    <>
      <dt>Rule it needs</dt>
      <dd className={missing ? 'warn' : undefined}>
        <code>{rule.event}</code> → {rule.tiktokEvent}
        {missing === true && (
          <>
            : none yet, so nothing of it reaches TikTok. <Link to={`${rules}?event=${encodeURIComponent(rule.event)}`}>Add the rule</Link>
          </>
        )}
        {missing === false && ': in place.'}
      </dd>
    </>
  );
}

function SourceCard({
  base,
  source,
  ruleMissing,
  connectedShop,
  readOnly,
  onSecret,
  onDelete,
  onSaved,
}: {
  base: string;
  source: Source;
  ruleMissing: boolean | undefined;
  /** The shop whose webhooks Connect Shopify made for this source (signed with the app's key: nothing to paste). */
  connectedShop?: string;
  readOnly: ReadOnlyReason | null;
  onSecret: (s: WithSecret) => void;
  onDelete: () => void;
  onSaved: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const [secretErrors, setSecretErrors] = useState<Record<string, string>>({});
  const rotate = useMutation({
    mutationFn: (signingSecret: string | undefined) => api<WithSecret>('POST', `${base}/sources/${source.id}/secret`, signingSecret ? { signingSecret } : {}),
    meta: { done: 'Signing secret saved' },
    onSuccess: (changed) => {
      setSecretErrors({});
      onSecret(changed);
      onSaved();
    },
    onError: (error) => setSecretErrors(error instanceof ApiError ? error.fieldErrors() : {}),
  });
  return (
    <li className="card source-card">
      <div>
        <strong>{source.name}</strong> <span className="badge">{source.type === 'shopify' ? 'Shopify' : 'webhook'}</span>
      </div>
      <dl className="source-facts">
        <dt>Webhook URL</dt>
        <dd>
          <code>{source.webhookUrl}</code> <CopyButton text={source.webhookUrl} label="Copy the URL" />
        </dd>
        {source.type === 'shopify' ? (
          connectedShop === undefined && (
            <>
              <dt>Shopify&apos;s key</dt>
              <dd className={source.secretMade ? 'warn' : undefined}>
                {source.secretMade ? 'not given yet: Shopify’s deliveries are refused until you save it below' : `saved ${dateTime(source.secretSetAt)}`}
              </dd>
            </>
          )
        ) : (
          <>
            <dt>Signed in</dt>
            <dd>
              <code>{source.signatureHeader}</code> (HMAC-SHA256 of the body)
            </dd>
          </>
        )}
        <dt>Last delivery</dt>
        <dd>{source.lastDeliveryAt ? dateTime(source.lastDeliveryAt) : 'none yet'}</dd>
        <dt>Last refusal</dt>
        <dd className={source.lastRefusal ? 'form-error' : undefined}>
          {source.lastRefusal ? (
            <>
              {dateTime(source.lastRefusal.at)}:{' '}
              <code>
                {source.lastRefusal.status} {source.lastRefusal.message}
              </code>{' '}
              <Link to={`${workspacePath(base)}/debugger`}>What to do: the event debugger</Link>
            </>
          ) : (
            'none'
          )}
        </dd>
        {source.neededRule && <NeededRule base={base} rule={source.neededRule} missing={ruleMissing} />}
      </dl>
      {connectedShop !== undefined && <p className="muted">Connect Shopify set up this source&apos;s webhooks in {connectedShop}, signed with the Signalbox app&apos;s key: there is nothing to paste. See Shopify above.</p>}
      {source.type === 'shopify' && connectedShop === undefined && (
        <p className="muted">
          In Shopify: Settings → Notifications → Webhooks → Create webhook, format JSON, this URL, for the events of each topic: {SHOPIFY_TOPICS}. Then give this source the key Shopify shows there (“Your webhooks will be signed with …”), and put the tag of <a href="#install">Website tag</a> in your theme.
        </p>
      )}
      {readOnly === null && (
        <>
          {connectedShop === undefined && <Form label={`New signing secret for ${source.name}`} errors={secretErrors} onSubmit={(data) => rotate.mutate(String(data.get('signingSecret') ?? '').trim() || undefined)}>
            <div className="row">
              <Field name="signingSecret" label={source.type === 'shopify' ? 'Shopify’s key' : 'Signing secret'} description={source.type === 'shopify' ? 'The key Shopify shows beside its webhooks. Deliveries signed with any other are refused from now on.' : 'Leave empty to have a new one made. Deliveries signed with the old one are refused from now on.'} />
              <Submit pending={rotate.isPending}>{source.type === 'shopify' ? 'Save the key' : 'New secret'}</Submit>
            </div>
          </Form>}
          <div className="actions">
            {source.type === 'webhook' && (
              <Button className="button small" onPress={() => setEditing(!editing)}>
                {editing ? 'Close the mapping' : 'Edit the mapping'}
              </Button>
            )}
            <ConfirmButton label="Delete" title={`Delete the source ${source.name}?`} confirm="Delete" onConfirm={onDelete}>
              Its webhook URL answers 404 from now on, and the platform stops sending (Shopify turns such webhooks off). Events already stored stay.
            </ConfirmButton>
          </div>
        </>
      )}
      {source.type === 'webhook' && (editing || readOnly !== null) && <SavedMapping
          base={base}
          source={source}
          readOnly={readOnly}
          onSaved={() => {
            setEditing(false);
            onSaved();
          }}
        />}
    </li>
  );
}

function SavedMapping({ base, source, readOnly, onSaved }: { base: string; source: Source; readOnly: ReadOnlyReason | null; onSaved: () => void }) {
  const [mapping, setMapping] = useState<Mapping>(source.mapping ?? {});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: () => api('PATCH', `${base}/sources/${source.id}`, { mapping: mappingBody(mapping) }),
    meta: { done: 'Mapping saved' },
    onSuccess: () => {
      setErrors({});
      onSaved();
    },
    onError: (error) => setErrors(error instanceof ApiError ? error.fieldErrors() : {}),
  });
  return (
    <Form label={`Mapping of ${source.name}`} errors={errors} readOnly={readOnly} onSubmit={() => save.mutate()}>
      <MappingEditor base={base} sourceId={source.id} mapping={mapping} onChange={setMapping} errors={errors} readOnly={readOnly !== null} />
      {readOnly === null && <Submit pending={save.isPending}>Save the mapping</Submit>}
    </Form>
  );
}

function NewSource({ base, onCreated }: { base: string; onCreated: (created: WithSecret) => void }) {
  const [type, setType] = useState<'shopify' | 'webhook'>('shopify');
  const [mapping, setMapping] = useState<Mapping>({ event: '"Order Completed"' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<WithSecret>('POST', `${base}/sources`, body),
    meta: { done: 'Source added' },
    onSuccess: (created) => {
      setErrors({});
      onCreated(created);
    },
    onError: (error) => setErrors(error instanceof ApiError ? error.fieldErrors() : {}),
  });
  const text = (data: FormData, name: string) => String(data.get(name) ?? '').trim() || undefined;
  return (
    <Form
      label="Add a source"
      errors={errors}
      onSubmit={(data) =>
        create.mutate({
          type,
          name: String(data.get('name') ?? ''),
          signingSecret: text(data, 'signingSecret'),
          ...(type === 'webhook' ? { signatureHeader: text(data, 'signatureHeader'), mapping: mappingBody(mapping) } : {}),
        })
      }
    >
      <h3>Add a source</h3>
      <div className="row">
        <Field name="name" label="Name" placeholder={type === 'shopify' ? 'Fern shop' : 'Stripe payments'} />
        <label className="field">
          <span>Source kind</span>
          <select name="type" aria-label="Source kind" value={type} onChange={(event) => setType(event.target.value as 'shopify' | 'webhook')}>
            <option value="shopify">Shopify shop</option>
            <option value="webhook">Any platform (signed webhook)</option>
          </select>
        </label>
      </div>
      <div className="row">
        <Field
          name="signingSecret"
          label={type === 'shopify' ? 'Shopify’s key (optional)' : 'Signing secret (optional)'}
          description={type === 'shopify' ? 'Shown in Shopify under Settings → Notifications → Webhooks. You can give it later.' : 'Leave empty to have one made, shown once.'}
        />
        {type === 'webhook' && <Field name="signatureHeader" label="Signature header" placeholder="X-Signature" description="Where the sender puts the signature (Stripe: Stripe-Signature)." />}
      </div>
      {type === 'webhook' && <MappingEditor base={base} mapping={mapping} onChange={setMapping} errors={errors} readOnly={false} />}
      <FormError error={create.error instanceof ApiError && Object.keys(errors).length === 0 ? create.error : null} />
      <Submit pending={create.isPending}>Add the source</Submit>
    </Form>
  );
}
