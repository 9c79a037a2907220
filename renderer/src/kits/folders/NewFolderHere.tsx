import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client.ts';
import { idempotencyKey } from '../../api/ids.ts';
import { nodeKeys } from '../../api/queries.ts';
import type { Node } from '../../api/types.ts';
import { Button } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { Notice } from '../../ui/Notice.tsx';

/**
 * "New folder" inside the folder picker: moving photos into a folder that does not exist yet
 * should not mean closing the dialog, making it in My files and starting again. The new folder
 * is made where the picker is, and the picker opens it (`onMade`).
 */
export function NewFolderHere({ parent, onMade }: { parent: Node | null; onMade: (folder: Node) => void }) {
  const queryClient = useQueryClient();
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [key, setKey] = useState(idempotencyKey);
  const create = useMutation({
    mutationFn: () =>
      data(
        api.POST('/nodes/folder', { body: { name: name.trim(), parent_id: parent?.id ?? 'root' }, headers: { 'Idempotency-Key': key } }),
      ),
    onSuccess: (made) => {
      setNaming(false);
      setName('');
      setKey(idempotencyKey());
      onMade(made);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: nodeKeys.all }),
  });
  if (!naming) {
    return (
      <Button variant="quiet" icon="add" onClick={() => setNaming(true)}>
        New folder
      </Button>
    );
  }
  return (
    <form
      className="picker-new-folder"
      aria-label="New folder"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        create.mutate();
      }}
    >
      <Field label={`New folder in ${parent?.name ?? 'My files'}`} value={name} onChange={(e) => setName(e.target.value)} autoFocus />
      {create.isError && <Notice tone="error">{create.error.message}</Notice>}
      <div className="row">
        <Button variant="quiet" onClick={() => setNaming(false)}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending || name.trim() === ''}>
          Make folder
        </Button>
      </div>
    </form>
  );
}
