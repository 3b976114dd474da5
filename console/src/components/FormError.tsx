/**
 * A message for errors that belong to no field. Apart from Form.tsx, so that a page with a button but no form (Ad
 * performance's "Pull now") does not load the form fields' code.
 */
export function FormError({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  return (
    <p role="alert" className="form-error">
      {error instanceof Error ? error.message : String(error)}
    </p>
  );
}
