import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { Switch } from 'react-aria-components';
import { api } from '../../api';
import { Form, RoleNote, Submit, useReadOnlyReason } from '../../components/Form';
import { FormError } from '../../components/FormError';
import { useWorkspace, whyNot } from '../../session';
import type { BrowserPixelModeView as Mode } from '../../../../contract/views';

/** Each choice, and the one sentence that tells a shop owner when it is theirs. */
const CHOICES: readonly { mode: Mode; label: string; advice: string }[] = [
  {
    mode: 'off',
    label: 'Off',
    advice: 'Choose this if your pages have no TikTok pixel and you want none: TikTok then gets your conversions from Signalbox’s server alone.',
  },
  {
    mode: 'load',
    label: 'Load TikTok’s pixel for me',
    advice: 'Choose this if your pages have no TikTok pixel yet: the tag adds it and tells it each conversion the server sends, so TikTok counts each one once.',
  },
  {
    mode: 'page',
    label: 'Use the pixel already on my pages',
    advice: 'Choose this if TikTok’s Shopify app or your theme already installs the pixel, so that each purchase is counted once instead of twice.',
  },
];

const isMode = (value: unknown): value is Mode => CHOICES.some((choice) => choice.mode === value);

/**
 * Sources > Website tag: whether the tag also tells TikTok's pixel about each conversion (with the server's event ID,
 * so TikTok counts it once), and TikTok's Limited Data Use. Read-only, with the reason, for a role that may not edit.
 */
export function BrowserPixelSettings({ base, role }: { base: string; role: string | undefined }) {
  const readOnly = useReadOnlyReason(whyNot(role, 'editor', 'change how the tag works with TikTok’s pixel'));
  const adviceId = useId();
  const { data } = useWorkspace();
  const queries = useQueryClient();
  const saved = () => void queries.invalidateQueries({ queryKey: ['workspace'] });
  const pixel = useMutation({
    mutationFn: (browserPixel: Mode) => api('PATCH', `${base}/settings`, { browserPixel }),
    meta: { done: 'Pixel choice saved: your pages pick it up within 5 minutes' },
    onSuccess: saved,
  });
  const limited = useMutation({
    mutationFn: (limitedDataUse: boolean) => api('PATCH', `${base}/settings`, { limitedDataUse }),
    meta: { done: (on: never) => (on ? 'Limited Data Use is on' : 'Limited Data Use is off') },
    onSuccess: saved,
  });
  const ws = data?.workspace;
  if (ws === undefined) return null;
  return (
    <>
      <h3 id="browser-pixel">TikTok pixel in the browser</h3>
      <p>The tag can also tell TikTok’s pixel about each conversion, with the same event ID as Signalbox’s server: TikTok then counts the conversion once, not twice.</p>
      <RoleNote readOnly={readOnly} />
      <Form
        label="TikTok pixel in the browser"
        errors={{}}
        readOnly={readOnly}
        onSubmit={(form) => {
          const mode = form.get('browserPixel');
          if (isMode(mode)) pixel.mutate(mode);
        }}
      >
        <fieldset className="radios" disabled={readOnly !== null} aria-describedby={readOnly?.id}>
          <legend>What the tag does with TikTok’s pixel</legend>
          {CHOICES.map((choice) => (
            <div key={choice.mode}>
              <label>
                <input type="radio" name="browserPixel" value={choice.mode} defaultChecked={ws.browserPixel === choice.mode} aria-describedby={`${adviceId}-${choice.mode}`} /> {choice.label}
              </label>
              <p id={`${adviceId}-${choice.mode}`} className="muted advice">
                {choice.advice}
              </p>
            </div>
          ))}
        </fieldset>
        <FormError error={pixel.error} />
        <div className="actions">
          <Submit pending={pixel.isPending}>Save the pixel choice</Submit>
        </div>
      </Form>
      <h3 id="limited-data-use">Limited Data Use</h3>
      <p className="muted" id={`${adviceId}-limited`}>
        Turn this on if your privacy policy, or a privacy law where your customers live, asks you to limit how TikTok uses their data: every event Signalbox and the pixel send then asks TikTok to
        process it in a limited way.
      </p>
      <div className="actions">
        <Switch
          className="switch"
          isSelected={ws.limitedDataUse}
          isDisabled={readOnly !== null || limited.isPending}
          aria-describedby={[readOnly?.id, `${adviceId}-limited`].filter((id) => id !== undefined).join(' ')}
          onChange={(value) => limited.mutate(value)}
        >
          <div className="indicator" aria-hidden="true" /> Limited Data Use: {ws.limitedDataUse ? 'on' : 'off'}
        </Switch>
      </div>
      <FormError error={limited.error} />
    </>
  );
}
