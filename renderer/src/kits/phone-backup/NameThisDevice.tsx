import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client.ts';
import { session } from '../../api/session.ts';
import { Button } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { Notice } from '../../ui/Notice.tsx';
import { chooseDeviceName, folderSafe } from './device-name.ts';

/** The longest device name the server keeps (PATCH /sessions/{id}). */
const MAX_DEVICE_NAME = 64;

/**
 * Before the first backup: the name of this device's folder, suggested as "Mum’s phone" and
 * the person's to change ("Kitchen iPad"). Once the folder is made it is renamed in My files
 * like any other, and the backup follows it (it is remembered by id). The name is also this
 * device's name on the server, so Your devices (and "… has not backed up") says "Kitchen iPad",
 * not the browser's "Chrome on Linux".
 */
export function NameThisDevice({ userId, current, queryKey }: { userId: string; current: string; queryKey: readonly unknown[] }) {
  const queryClient = useQueryClient();
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState(current);
  const save = useMutation({
    mutationFn: async (given: string) => {
      chooseDeviceName(userId, given);
      const state = session.current();
      if (state.kind !== 'signed-in') return;
      const deviceName = folderSafe(given).slice(0, MAX_DEVICE_NAME).trim();
      await data(api.PATCH('/sessions/{id}', { params: { path: { id: state.sessionId } }, body: { device_name: deviceName } }));
    },
    onSuccess: () => setNaming(false),
    // The folder's name and Your devices, both under the sessions' key.
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey }), queryClient.invalidateQueries({ queryKey: ['sessions'] })]),
  });
  if (!naming) {
    return (
      <Button
        icon="edit"
        onClick={() => {
          setName(current);
          setNaming(true);
        }}
      >
        Name this device
      </Button>
    );
  }
  return (
    <form
      className="backup-device-name"
      aria-label="Name this device"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        save.mutate(name);
      }}
    >
      <Field
        label="This device’s name"
        hint="Its photos go into a folder of this name, e.g. Mum’s phone."
        value={name}
        onChange={(e) => setName(e.target.value)}
        autoFocus
      />
      {save.isError && <Notice tone="error">{save.error.message}</Notice>}
      <div className="row">
        <Button variant="quiet" onClick={() => setNaming(false)}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={name.trim() === '' || save.isPending}>
          Save
        </Button>
      </div>
    </form>
  );
}
