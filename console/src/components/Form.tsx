import { createContext, useContext, type ReactNode } from 'react';
import { Button, Checkbox, CheckboxGroup, FieldError, Form as AriaForm, Input, Label, Text, TextField } from 'react-aria-components';

const FieldErrors = createContext<Record<string, string>>({});
/** Set for someone whose role may read a form but not change it: its fields are read-only and its button disabled. */
const ReadOnly = createContext(false);

/**
 * A form whose server-side field errors show beside their fields until the next answer replaces them. (react-aria's
 * own `validationErrors` vanish when the field loses focus: pressing the button blurred the field, the message went,
 * the button moved up under the pointer and the click landed on nothing.)
 */
export function Form({ onSubmit, errors, children, label, readOnly = false }: { onSubmit: (data: FormData) => void; errors: Record<string, string>; children: ReactNode; label?: string; readOnly?: boolean }) {
  return (
    <AriaForm
      aria-label={label}
      validationBehavior="aria"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(new FormData(event.currentTarget));
      }}
    >
      <ReadOnly.Provider value={readOnly}>
        <FieldErrors.Provider value={errors}>{children}</FieldErrors.Provider>
      </ReadOnly.Provider>
    </AriaForm>
  );
}

export function Field(props: { name: string; label: string; type?: string; defaultValue?: string; description?: string; autoComplete?: string; isRequired?: boolean; autoFocus?: boolean; placeholder?: string }) {
  const error = useContext(FieldErrors)[props.name];
  return (
    <TextField
      name={props.name}
      type={props.type ?? 'text'}
      defaultValue={props.defaultValue}
      isReadOnly={useContext(ReadOnly)}
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
  return (
    <CheckboxGroup
      name={props.name}
      defaultValue={props.defaultValue === undefined ? undefined : [...props.defaultValue]}
      isReadOnly={useContext(ReadOnly)}
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

export function Submit({ children, pending }: { children: ReactNode; pending?: boolean }) {
  return (
    <Button type="submit" className="button primary" isPending={pending} isDisabled={useContext(ReadOnly)}>
      {children}
    </Button>
  );
}

/** A message for errors that belong to no field. */
export function FormError({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  return (
    <p role="alert" className="form-error">
      {error instanceof Error ? error.message : String(error)}
    </p>
  );
}
