import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Notice } from '../../ui/Notice.tsx';
import { privateKeys } from './queries.ts';

/** Private, locked: the password (or the PIN, when one was set) opens it for a few minutes. */
export function UnlockScreen({ hasPin, minutes }: { hasPin: boolean; minutes: number }) {
  const queryClient = useQueryClient();
  const [usePin, setUsePin] = useState(hasPin);
  const [secret, setSecret] = useState('');
  const unlock = useMutation({
    mutationFn: () => data(api.POST('/private/unlock', { body: usePin ? { pin: secret } : { password: secret } })),
    onSuccess: (status) => {
      setSecret('');
      queryClient.setQueryData(privateKeys.status, status);
    },
  });
  return (
    <section className="card private-unlock" aria-labelledby="private-unlock-title">
      <div className="private-lock-mark" aria-hidden="true">
        <Icon name="lock" />
      </div>
      <h2 id="private-unlock-title">Private is locked</h2>
      <p>
        Only you can open this. It locks again after {minutes} {minutes === 1 ? 'minute' : 'minutes'}.
      </p>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          if (secret) unlock.mutate();
        }}
      >
        {usePin ? (
          <Field
            key="pin"
            label="Your PIN"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={8}
            value={secret}
            onChange={(e) => setSecret(e.target.value.replace(/\D/g, ''))}
            autoFocus
          />
        ) : (
          <Field
            key="password"
            label="Your password"
            type="password"
            autoComplete="current-password"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
            autoFocus
          />
        )}
        {unlock.isError && <Notice tone="error">{unlock.error.message}</Notice>}
        <Button type="submit" variant="primary" icon="lock" block disabled={unlock.isPending || !secret}>
          {unlock.isPending ? 'Opening…' : 'Open Private'}
        </Button>
      </form>
      {hasPin && (
        <Button
          variant="quiet"
          onClick={() => {
            setUsePin(!usePin);
            setSecret('');
            unlock.reset();
          }}
        >
          {usePin ? 'Use my password instead' : 'Use my PIN instead'}
        </Button>
      )}
      {!hasPin && <p className="hint">You can set a PIN for this in Account.</p>}
    </section>
  );
}
