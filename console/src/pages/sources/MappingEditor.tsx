import { useEffect, useState } from 'react';
import { Checkbox, FieldError, Input, Label, Text, TextArea, TextField } from 'react-aria-components';
import { api, ApiError } from '../../api';
import type { MappingPreviewView, WebhookMappingView } from '../../../../contract/views';

/** A mapping being edited: any field may still be empty. */
export type Mapping = Partial<WebhookMappingView>;

/** Each field of a mapping: a path into the body, or (event name, currency) a fixed text in double quotes. */
const FIELDS = [
  { name: 'event', label: 'Event name', placeholder: '"Order Completed" or type', description: 'A path, or a fixed name in double quotes. Use Segment’s names (Order Completed, Checkout Started…) and your rules apply as they are.' },
  { name: 'messageId', label: 'Message ID', placeholder: 'id', description: 'Unique per delivery, so a retried one is stored once.' },
  { name: 'userId', label: 'User ID', placeholder: 'data.object.client_reference_id' },
  { name: 'anonymousId', label: 'Visitor (anonymous ID)', placeholder: 'data.object.metadata.sbx_aid', description: 'The sbx_aid your site passed along: the visitor’s TikTok click comes with it.' },
  { name: 'email', label: 'Email', placeholder: 'data.object.customer_details.email' },
  { name: 'phone', label: 'Phone', placeholder: 'data.object.customer_details.phone' },
  { name: 'value', label: 'Value', placeholder: 'data.object.amount_total' },
  { name: 'currency', label: 'Currency', placeholder: 'data.object.currency or "EUR"' },
  { name: 'orderId', label: 'Order ID', placeholder: 'data.object.metadata.order_id' },
  { name: 'products', label: 'Products', placeholder: 'data.object.line_items', description: 'A list of items with product_id (or sku), name, price and quantity.' },
  { name: 'timestamp', label: 'Time', placeholder: 'created', description: 'ISO-8601 text or Unix seconds; else when it arrives.' },
] as const;

/** The mapping as the API takes it: empty fields left out. */
export function mappingBody(mapping: Mapping): Mapping {
  return Object.fromEntries(Object.entries(mapping).filter(([, value]) => value !== '' && value !== undefined && value !== false)) as Mapping;
}

/**
 * The fields of a generic webhook's mapping, and beside them what a pasted sample body becomes, asked of the server
 * (the code that maps real deliveries) a moment after each change.
 */
export function MappingEditor({ base, sourceId, mapping, onChange, errors, readOnly }: { base: string; sourceId?: string; mapping: Mapping; onChange: (next: Mapping) => void; errors: Record<string, string>; readOnly: boolean }) {
  const [sample, setSample] = useState('');
  const [preview, setPreview] = useState<MappingPreviewView | { ok: false; error: string } | null>(null);
  useEffect(() => {
    if (sample.trim() === '') {
      setPreview(null);
      return undefined;
    }
    let current = true;
    const timer = setTimeout(() => {
      api<MappingPreviewView>('POST', `${base}/sources/preview`, { mapping: mappingBody(mapping), sample, ...(sourceId ? { sourceId } : {}) }).then(
        (answer) => current && setPreview(answer),
        (error: unknown) => current && setPreview({ ok: false, error: error instanceof ApiError ? (error.issues.join('; ') || error.message) : 'the preview could not be made' }),
      );
    }, 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [base, sourceId, mapping, sample]);

  return (
    <div className="mapping">
      <fieldset className="plain mapping-fields">
        <legend>Mapping: where each field is in the body</legend>
        {FIELDS.map((field) => (
          <TextField
            key={field.name}
            name={`mapping.${field.name}`}
            className="field"
            value={mapping[field.name] ?? ''}
            onChange={(value) => onChange({ ...mapping, [field.name]: value })}
            isReadOnly={readOnly}
            isInvalid={errors[`mapping.${field.name}`] !== undefined}
          >
            <Label>{field.label}</Label>
            <Input placeholder={field.placeholder} />
            {'description' in field && <Text slot="description">{field.description}</Text>}
            <FieldError className="field-error">{errors[`mapping.${field.name}`]}</FieldError>
          </TextField>
        ))}
        <Checkbox className="check" isSelected={mapping.valueInCents === true} onChange={(valueInCents) => onChange({ ...mapping, valueInCents })} isReadOnly={readOnly}>
          <span className="box" aria-hidden="true" />
          The value is in cents (as Stripe sends amounts)
        </Checkbox>
      </fieldset>
      <div className="mapping-preview">
        <TextField className="field" value={sample} onChange={setSample}>
          <Label>Sample delivery (paste one body)</Label>
          <TextArea rows={10} placeholder='{"id": "evt_1", "type": "checkout.session.completed", …}' />
          <Text slot="description">Nothing is stored: the preview shows the event this body would become.</Text>
        </TextField>
        <div role="region" aria-live="polite" aria-label="Preview">
          {preview === null && <p className="muted">Paste a delivery to see what it becomes.</p>}
          {preview?.ok === true && (
            <>
              <p>
                <strong>Becomes this event:</strong>
              </p>
              <pre className="code">{JSON.stringify(preview.message, null, 2)}</pre>
              {preview.unmatched.length > 0 && (
                <div role="alert" className="warn">
                  <p>Left out, because the sample has nothing there:</p>
                  <ul>
                    {preview.unmatched.map(({ field, path }) => (
                      <li key={field}>
                        {FIELDS.find((known) => known.name === field)?.label ?? field}: nothing at <code>{path}</code>. Check its spelling against the sample.
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </>
          )}
          {preview?.ok === false && (
            <div role="alert" className="form-error">
              <p>Not stored as it is:</p>
              <ul>{'error' in preview ? <li>{preview.error}</li> : preview.problems.map((problem) => <li key={problem}>{problem}</li>)}</ul>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
