import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { chooseDeviceName } from './device-name.ts';

/**
 * Before the first backup: the name of this device's folder, suggested as "Mum’s phone" and
 * the person's to change ("Kitchen iPad"). Once the folder is made it is renamed in My files
 * like any other, and the backup follows it (it is remembered by id).
 */
export function NameThisDevice({ userId, current, queryKey }: { userId: string; current: string; queryKey: readonly unknown[] }) {
  const queryClient = useQueryClient();
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState(current);
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
        chooseDeviceName(userId, name);
        setNaming(false);
        void queryClient.invalidateQueries({ queryKey });
      }}
    >
      <Field
        label="This device’s name"
        hint="Its photos go into a folder of this name, e.g. Mum’s phone."
        value={name}
        onChange={(e) => setName(e.target.value)}
        autoFocus
      />
      <div className="row">
        <Button variant="quiet" onClick={() => setNaming(false)}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={name.trim() === ''}>
          Save
        </Button>
      </div>
    </form>
  );
}
