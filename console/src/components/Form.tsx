import { createContext, useContext, useId, type ReactNode } from 'react';
import { Button, Checkbox, CheckboxGroup, FieldError, Form as AriaForm, Input, Label, Text, TextField } from 'react-aria-components';

const FieldErrors = createContext<Record<string, string>>({});

/** Why a form is read-only, shown elsewhere on the page in the element `id` (one sentence for several forms). */
export interface ReadOnlyReason {
  reason: string;
  id: string;
}

/** A page's reason (from `whyNot`) with the id of the note that shows it, for its forms and controls; null when none. */
export function useReadOnlyReason(reason: string | null): ReadOnlyReason | null {
  const id = useId();
  return reason === null ? null : { reason, id };
}

/** The note that shows a page's ReadOnlyReason once, which its read-only forms and disabled controls point at. */
export function RoleNote({ readOnly }: { readOnly: ReadOnlyReason | null }) {
  if (readOnly === null) return null;
  return (
    <p id={readOnly.id} className="notice role-note">
      {readOnly.reason}
    </p>
  );
}

/**
 * Set for someone whose role may read a form but not change it: its fields are read-only and its button disabled,
 * each described by the sentence that says why (`id`).
 */
const ReadOnly = createContext<ReadOnlyReason | null>(null);

/**
 * A form whose server-side field errors show beside their fields until the next answer replaces them. (react-aria's
 * own `validationErrors` vanish when the field loses focus: pressing the button blurred the field, the message went,
 * the button moved up under the pointer and the click landed on nothing.) With `readOnly` (a reason from `whyNot`),
 * the reason shows at its top, or stays where the page shows it (a ReadOnlyReason), and every field and its button
 * point at it.
 */
export function Form({ onSubmit, errors, children, label, readOnly = null }: { onSubmit: (data: FormData) => void; errors: Record<string, string>; children: ReactNode; label?: string; readOnly?: string | ReadOnlyReason | null }) {
  const ownId = useId();
  const reason = typeof readOnly === 'string' ? { reason: readOnly, id: ownId } : readOnly;
  return (
    <AriaForm
      aria-label={label}
      validationBehavior="aria"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(new FormData(event.currentTarget));
      }}
    >
      {typeof readOnly === 'string' && (
        <p id={ownId} className="muted role-note">
          {readOnly}
        </p>
      )}
      <ReadOnly.Provider value={reason}>
        <FieldErrors.Provider value={errors}>{children}</FieldErrors.Provider>
      </ReadOnly.Provider>
    </AriaForm>
  );
}

export function Field(props: { name: string; label: string; type?: string; defaultValue?: string; description?: string; autoComplete?: string; isRequired?: boolean; autoFocus?: boolean; placeholder?: string }) {
  const error = useContext(FieldErrors)[props.name];
  const readOnly = useContext(ReadOnly);
  return (
    <TextField
      name={props.name}
      type={props.type ?? 'text'}
      defaultValue={props.defaultValue}
      isReadOnly={readOnly !== null}
      aria-describedby={readOnly?.id}
      isRequired={props.isRequired}
      isInvalid={error !== undefined}
      autoComplete={props.autoComplete}
      autoFocus={props.autoFocus}
      className="field"
    >
      <Label>{props.label}</Label>
      <Input placeholder={props.placeholder} />
      {props.description && <Text slot="description">{props.description}</Text>}
      <FieldError className="field-error">{error}</FieldError>
    </TextField>
  );
}

/** Checkboxes submitted under one name (`FormData.getAll`), with the server's error for that name beside them. */
export function Checkboxes(props: { name: string; label: string; options: readonly string[]; defaultValue?: readonly string[]; description?: string }) {
  const error = useContext(FieldErrors)[props.name];
  const readOnly = useContext(ReadOnly);
  return (
    <CheckboxGroup
      name={props.name}
      defaultValue={props.defaultValue === undefined ? undefined : [...props.defaultValue]}
      isReadOnly={readOnly !== null}
      aria-describedby={readOnly?.id}
      isInvalid={error !== undefined}
      className="field checks"
    >
      <Label>{props.label}</Label>
      <div className="check-grid">
        {props.options.map((option) => (
          <Checkbox key={option} value={option} className="check">
            <span className="box" aria-hidden="true" />
            {option}
          </Checkbox>
        ))}
      </div>
      {props.description && <Text slot="description">{props.description}</Text>}
      <FieldError className="field-error">{error}</FieldError>
    </CheckboxGroup>
  );
}

/** The read-only form's reason (`id` to point at with `aria-describedby`), for a button of its own inside it; null when it may be changed. */
export function useReadOnly(): ReadOnlyReason | null {
  return useContext(ReadOnly);
}

export function Submit({ children, pending }: { children: ReactNode; pending?: boolean }) {
  const readOnly = useContext(ReadOnly);
  return (
    <Button type="submit" className="button primary" isPending={pending} isDisabled={readOnly !== null} aria-describedby={readOnly?.id}>
      {children}
    </Button>
  );
}
