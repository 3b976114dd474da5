import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError } from '../../api';
import { Field, Form, RoleNote, Submit, useReadOnlyReason } from '../../components/Form';
import { FormError } from '../../components/FormError';
import { useWorkspace, whyNot } from '../../session';

/** The workspace's name, which owners change (the change log records it). */
export function WorkspaceName() {
  const { base, data } = useWorkspace();
  const queries = useQueryClient();
  const readOnly = useReadOnlyReason(whyNot(data?.role, 'owner', 'rename the workspace'));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const rename = useMutation({
    mutationFn: (name: string) => api('PATCH', base, { name }),
    meta: { done: 'Workspace renamed' },
    onSuccess: () => {
      setErrors({});
      void queries.invalidateQueries({ queryKey: ['workspace'] });
      void queries.invalidateQueries({ queryKey: ['me'] });
      void queries.invalidateQueries({ queryKey: ['change-log'] });
    },
    onError: (error) => setErrors(error instanceof ApiError ? error.fieldErrors() : {}),
  });
  if (data === undefined) return null;
  return (
    <section aria-labelledby="workspace-name">
      <h2 id="workspace-name">Workspace name</h2>
      <RoleNote readOnly={readOnly} />
      <Form label="Workspace name" errors={errors} readOnly={readOnly} onSubmit={(form) => rename.mutate(String(form.get('name') ?? ''))}>
        <div className="row">
          <Field name="name" label="Name" defaultValue={data.workspace.name} description="Shown in the workspace list and in invitations." />
        </div>
        <FormError error={rename.error instanceof ApiError && Object.keys(rename.error.fieldErrors()).length === 0 ? rename.error : null} />
        {readOnly === null && <Submit pending={rename.isPending}>Rename</Submit>}
      </Form>
    </section>
  );
}
