import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client.ts';
import { meQuery } from '../../api/queries.ts';
import { session } from '../../api/session.ts';
import { Button } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { Notice } from '../../ui/Notice.tsx';

export function ProfileSection({ displayName, username }: { displayName: string | null; username: string }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(displayName ?? '');
  const save = useMutation({
    mutationFn: () => data(api.PATCH('/me/profile', { body: { display_name: name.trim() || null } })),
    onSuccess: (me) => {
      queryClient.setQueryData(meQuery.queryKey, me);
      session.updateUser({ display_name: me.display_name });
    },
  });
  return (
    <section className="card section" aria-labelledby="profile-title">
      <h2 id="profile-title">Profile</h2>
      <p className="muted">You sign in as {username}.</p>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <Field label="Your name" hint="How the family sees you." value={name} onChange={(e) => setName(e.target.value)} />
        {save.isError && <Notice tone="error">{save.error.message}</Notice>}
        {save.isSuccess && <Notice>Saved.</Notice>}
        <Button type="submit" disabled={save.isPending}>
          Save name
        </Button>
      </form>
    </section>
  );
}
