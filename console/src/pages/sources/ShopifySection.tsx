import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError, get } from '../../api';
import { ErrorNote, Loading } from '../../components/bits';
import { ConfirmButton } from '../../components/ConfirmButton';
import { Field, Form, Submit, useReadOnlyReason } from '../../components/Form';
import { FormError } from '../../components/FormError';
import { dateTime } from '../../format';
import { whyNot } from '../../session';
import type { ShopifyAuthorizationViewBody, ShopifyStatusViewBody } from '../../../../contract/shopify-views';

/** What each topic brings, in the owner's words. */
const TOPIC_WORDS: Record<string, string> = {
  'orders/create': 'new orders',
  'orders/paid': 'paid orders',
  'checkouts/create': 'started checkouts',
  'carts/update': 'cart changes',
  'refunds/create': 'refunds',
  'customers/create': 'new customers',
  'customers/update': 'customer changes',
  'app/uninstalled': 'removing the app',
};

/** Sources > Shopify: connect a shop in one approval; what Signalbox made there; disconnect. */
export function ShopifySection({ base, role }: { base: string; role: string | undefined }) {
  const readOnly = useReadOnlyReason(whyNot(role, 'editor', 'connect or disconnect a Shopify shop'));
  const queries = useQueryClient();
  const status = useQuery({ queryKey: ['shopify', base], queryFn: () => get<ShopifyStatusViewBody>(`${base}/shopify`) });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const connect = useMutation({
    mutationFn: (shop: string) => api<ShopifyAuthorizationViewBody>('POST', `${base}/shopify/authorize`, { shop }),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) => setErrors(error instanceof ApiError ? error.fieldErrors() : {}),
  });
  const disconnect = useMutation({
    mutationFn: () => api('DELETE', `${base}/shopify`),
    meta: { done: 'Shopify shop disconnected' },
    onSuccess: () => queries.invalidateQueries({ predicate: (q) => ['shopify', 'sources', 'keys'].includes(String(q.queryKey[0])) }),
  });
  const connection = status.data?.connection ?? null;

  return (
    <section aria-labelledby="shopify">
      <h2 id="shopify">Shopify</h2>
      {status.isPending && <Loading what="the Shopify connection" />}
      {status.isError && <ErrorNote error={status.error} />}
      {status.data && !status.data.configured && connection === null && (
        <div className="card">
          <p>Connecting a shop in one step is not set up on this Signalbox server yet: whoever runs it needs to add the Signalbox app&apos;s Shopify keys first.</p>
          <p>Until then, connect your shop with webhooks instead: add a Shopify source under Webhook sources below and follow its steps.</p>
        </div>
      )}
      {status.data?.configured && connection === null && (
        <div className="card">
          <p>Connect your shop in one step. Shopify asks you to approve the Signalbox app; Signalbox then receives your orders, checkouts, carts and customers, and adds its tracking script to your storefront.</p>
          <Form
            label="Connect Shopify"
            errors={errors}
            readOnly={readOnly}
            onSubmit={(data) => connect.mutate(String(data.get('shop') ?? ''))}
          >
            <Field name="shop" label="Your shop's Shopify address" placeholder="your-shop.myshopify.com" description="In Shopify: Settings → Domains, the address ending in .myshopify.com." />
            {readOnly === null && <Submit>Connect Shopify</Submit>}
          </Form>
          <FormError error={connect.error instanceof ApiError && Object.keys(errors).length === 0 ? connect.error : null} />
        </div>
      )}
      {connection && (
        <div className="card">
          <p>
            <span className="badge delivered">Connected</span> <strong>{connection.shopDomain}</strong> <span className="muted">since {dateTime(connection.connectedAt)}</span>
          </p>
          <h3>What Signalbox set up in your shop</h3>
          <ul className="checks">
            {connection.subscriptions.map((s) => (
              <li key={s.id} className="granted">
                ✓ Shopify tells Signalbox about {TOPIC_WORDS[s.topic] ?? s.topic}
              </li>
            ))}
            {connection.missingTopics.map((topic) => (
              <li key={topic} className="missing">
                ✗ Not set up: {TOPIC_WORDS[topic] ?? topic}. Connect again to finish.
              </li>
            ))}
            <li className={connection.scriptTag ? 'granted' : 'missing'}>
              {connection.scriptTag ? '✓ The tracking script runs on your storefront' : '✗ The tracking script is not on your storefront: connect again'}
            </li>
          </ul>
          <p className="muted">
            The script works on classic Shopify themes. If your theme is an Online Store 2.0 theme and no visits appear, add the tag to the theme as shown under &quot;Install the tag&quot;. Your shop&apos;s addresses must be in the allowed origins (Settings).
          </p>
          {readOnly === null ? (
            <div className="actions">
              <ConfirmButton label="Disconnect" title="Disconnect Shopify?" confirm="Disconnect" onConfirm={() => disconnect.mutate()}>
                Signalbox removes its webhooks and tracking script from {connection.shopDomain}. Orders already received stay.
              </ConfirmButton>
            </div>
          ) : (
            <p className="muted">{readOnly.reason}</p>
          )}
          <FormError error={disconnect.error} />
        </div>
      )}
    </section>
  );
}
