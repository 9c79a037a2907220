import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client.ts';
import { privateStatusQuery } from '../../api/queries.ts';
import { Button } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { Notice } from '../../ui/Notice.tsx';

/** A PIN of 4 to 8 digits that opens Private, quicker to type on a phone than the password. */
export function PrivatePinSection() {
  const status = useQuery(privateStatusQuery);
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const [pin, setPin] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (next: string | null) => data(api.PUT('/private/pin', { body: { password, pin: next } })),
    onSuccess: (next, asked) => {
      queryClient.setQueryData(privateStatusQuery.queryKey, next);
      setPassword('');
      setPin('');
      setDone(
        asked === null ? 'The PIN is gone: Private opens with your password.' : 'PIN saved. It opens Private on any of your devices.',
      );
    },
  });
  const hasPin = status.data?.has_pin ?? false;
  const pinOk = /^\d{4,8}$/.test(pin);
  return (
    <section className="card section" aria-labelledby="private-pin-title">
      <h2 id="private-pin-title">PIN for Private</h2>
      <p className="hint">
        Private keeps photos and files only you can open.{' '}
        {hasPin ? 'You have a PIN.' : 'It opens with your password, or a PIN you choose here.'}
      </p>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          setDone(null);
          if (pinOk) save.mutate(pin);
        }}
      >
        <Field
          label={hasPin ? 'New PIN' : 'PIN'}
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={8}
          hint="4 to 8 digits."
          value={pin}
          onChange={(e) => setPin(e.target.value.replace(/\D/g, ''))}
        />
        <Field
          label="Your password"
          type="password"
          autoComplete="current-password"
          hint="To be sure it is you."
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {save.isError && <Notice tone="error">{save.error.message}</Notice>}
        {done && <Notice>{done}</Notice>}
        <div className="row">
          <Button type="submit" disabled={save.isPending || !pinOk || !password}>
            {hasPin ? 'Change PIN' : 'Set PIN'}
          </Button>
          {hasPin && (
            <Button variant="quiet" disabled={save.isPending || !password} onClick={() => save.mutate(null)}>
              Remove PIN
            </Button>
          )}
        </div>
      </form>
    </section>
  );
}
