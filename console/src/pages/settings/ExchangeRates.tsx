import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, ApiError } from '../../api';
import { Field, Form, Submit, type ReadOnlyReason } from '../../components/Form';
import { FormError } from '../../components/FormError';
import { useWorkspace } from '../../session';

/**
 * What one unit of each currency is worth in the TikTok advertiser's currency: reports add up delivered values in
 * that currency with these; without a rate they show each currency apart.
 */
export function ExchangeRates({ readOnly }: { readOnly: ReadOnlyReason | null }) {
  const { base, data } = useWorkspace();
  const queries = useQueryClient();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [removed, setRemoved] = useState<string[]>([]);
  const save = useMutation({
    mutationFn: (exchangeRates: Record<string, string>) => api('PATCH', `${base}/settings`, { exchangeRates }),
    meta: { done: 'Exchange rates saved' },
    onSuccess: () => {
      setErrors({});
      setRemoved([]);
      void queries.invalidateQueries({ queryKey: ['workspace'] });
    },
    onError: (error) => setErrors(error instanceof ApiError ? error.fieldErrors() : {}),
  });
  const ws = data?.workspace;
  if (ws === undefined) return null;
  const editor = readOnly === null;
  const target = data?.tiktok?.currency ?? "the advertiser's currency";
  const codes = Object.keys(ws.exchangeRates).filter((code) => !removed.includes(code)).sort();
  const unplaced = Object.entries(errors).filter(([field]) => !codes.some((code) => field === `exchangeRates.${code}`));
  return (
    <section aria-labelledby="exchange-rates">
      <h2 id="exchange-rates">Exchange rates</h2>
      <p className="muted">
        Ad performance adds up the values Signalbox delivered in {target} with these rates (one unit of the currency in {target}); a currency without a rate is shown apart. TikTok receives every value in its own
        currency either way.
      </p>
      <Form
        key={JSON.stringify(ws.exchangeRates)}
        label="Exchange rates"
        errors={errors}
        readOnly={readOnly}
        onSubmit={(form) => {
          const rates = Object.fromEntries(codes.map((code) => [code, String(form.get(`exchangeRates.${code}`) ?? '').trim()]));
          const added = String(form.get('currency') ?? '').trim().toUpperCase();
          if (added !== '') rates[added] = String(form.get('rate') ?? '').trim();
          save.mutate(rates);
        }}
      >
        {codes.length === 0 && <p className="empty">No rate yet.</p>}
        {codes.map((code) => (
          <div className="row" key={code}>
            <Field name={`exchangeRates.${code}`} label={`1 ${code} in ${target}`} defaultValue={ws.exchangeRates[code]} />
            {editor && (
              <Button className="button small" onPress={() => setRemoved([...removed, code])}>
                Remove {code}
              </Button>
            )}
          </div>
        ))}
        <div className="row">
          <Field name="currency" label="Add a currency (ISO code)" placeholder="EUR" />
          <Field name="rate" label={`Its rate in ${target}`} placeholder="1.08" />
        </div>
        {unplaced.map(([field, message]) => (
          <p key={field} role="alert" className="form-error">
            {field} {message}
          </p>
        ))}
        <FormError error={save.error instanceof ApiError && Object.keys(errors).length === 0 ? save.error : null} />
        <div className="actions">
          <Submit pending={save.isPending}>
            Save exchange rates
          </Submit>
          {removed.length > 0 && <span className="muted">Removed on save: {removed.join(', ')}.</span>}
        </div>
      </Form>
    </section>
  );
}
