import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { get } from '../../api';
import { FactDetails } from '../../components/bits';
import { dateTime } from '../../format';
import { useWorkspace } from '../../session';
import type { ConsoleShopifyPrivacyRequestsView } from '../../../../contract/erasure-views';

type PrivacyRequest = ConsoleShopifyPrivacyRequestsView['requests'][number];

const TITLES: Record<PrivacyRequest['topic'], string> = {
  'customers/data_request': 'A customer asked for their data',
  'customers/redact': 'A customer asked to be erased: done',
  'shop/redact': "The shop's data was removed",
};

/** Where a request came from: the source, and the shop Shopify named. */
const from = (request: PrivacyRequest) => `from the Shopify source “${request.sourceName}”${request.shop === null ? '' : ` (${request.shop})`}`;

/**
 * The privacy requests Shopify sent to the workspace's Shopify sources (issue 46). Erasures are done when they arrive
 * and say what went; a data request is the owner's to answer, so it says whom and how.
 */
export function ShopifyPrivacyRequests() {
  const { base } = useWorkspace();
  const list = useQuery({ queryKey: ['shopify-privacy-requests', base], queryFn: () => get<ConsoleShopifyPrivacyRequestsView>(`${base}/shopify-privacy-requests`) });
  if (!list.data || list.data.requests.length === 0) return null;
  return (
    <section aria-labelledby="shopify-privacy">
      <h2 id="shopify-privacy">Privacy requests from Shopify</h2>
      <p className="muted">
        Shopify passes on its customers’ privacy requests. Signalbox erases at once what a customer or a shop asks to remove; when a customer asks for their data, you send it to them.
      </p>
      <ul className="erasure-log">
        {list.data.requests.map((request) => (
          <li key={request.id}>
            <strong>{TITLES[request.topic]}</strong>
            <div className="muted">
              {dateTime(request.receivedAt)}, {from(request)}
            </div>
            {request.topic === 'customers/data_request' ? <DataRequest request={request} /> : <FactDetails summary="What was removed" facts={request.counts.map((c) => ({ label: c.field, value: c.after }))} />}
            {request.topic === 'shop/redact' && <p className="muted">The source itself stays, with its key: delete it on Sources if this shop will not send orders again.</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Whom to answer and how: their page on People lists what Signalbox holds about them. */
function DataRequest({ request }: { request: PrivacyRequest }) {
  const { ws } = useWorkspace();
  const customer = request.customer;
  if (customer === null) return <p>This customer has since been erased: Signalbox holds nothing more about them to send.</p>;
  const [kind, value] = customer.email !== undefined ? ['email', customer.email] : customer.phone !== undefined ? ['phone', customer.phone] : ['user_id', customer.userId ?? ''];
  const named = [customer.email, customer.phone, customer.userId === undefined ? undefined : `Shopify customer ${customer.userId}`].filter((part) => part !== undefined).join(', ');
  return (
    <div className="notice">
      <p>
        Send this customer ({named}) what Signalbox holds about them, within a month of their request (GDPR’s limit). Open{' '}
        <Link to={`/w/${ws}/people?${new URLSearchParams({ [kind]: value }).toString()}`}>their page on People</Link>: it lists their identifiers, visits, events and conversions. Copy what it shows
        into your reply to them.{request.orders.length > 0 ? ` Shopify’s request names their orders by ID: ${request.orders.join(', ')}.` : ''}
      </p>
    </div>
  );
}
