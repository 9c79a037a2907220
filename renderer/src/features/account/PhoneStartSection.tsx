import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { api, data } from '../../api/client.ts';
import { meQuery } from '../../api/queries.ts';
import { session } from '../../api/session.ts';
import type { User } from '../../api/types.ts';
import { Notice } from '../../ui/Notice.tsx';

type PhoneStart = User['phone_start'];

const CHOICES: { value: PhoneStart; label: string }[] = [
  { value: 'photos', label: 'Photos' },
  { value: 'files', label: 'My files' },
];

/** Where the app opens on a phone: kept with the account, so every phone of it opens there, a new one too. */
export function PhoneStartSection({ value }: { value: PhoneStart }) {
  const queryClient = useQueryClient();
  const name = useId();
  const save = useMutation({
    mutationFn: (phone_start: PhoneStart) => data(api.PATCH('/me/preferences', { body: { phone_start } })),
    onSuccess: (me) => {
      queryClient.setQueryData(meQuery.queryKey, me);
      session.updateUser({ phone_start: me.phone_start });
    },
  });
  const shown = save.isPending ? save.variables : value;
  return (
    <section className="card section" aria-labelledby="phone-start-title">
      <h2 id="phone-start-title">On a phone</h2>
      <fieldset className="account-choice">
        <legend>After signing in on a phone, open</legend>
        {CHOICES.map((choice) => (
          <label key={choice.value}>
            <input
              type="radio"
              name={name}
              checked={shown === choice.value}
              disabled={save.isPending}
              onChange={() => save.mutate(choice.value)}
            />{' '}
            {choice.label}
          </label>
        ))}
      </fieldset>
      {save.isError && <Notice tone="error">{save.error.message}</Notice>}
    </section>
  );
}
