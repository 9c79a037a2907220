import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { Notice } from '../../ui/Notice.tsx';

export function PasswordSection() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const change = useMutation({
    mutationFn: () => data(api.PATCH('/me/password', { body: { current_password: current, new_password: next } })),
    onSuccess: () => {
      setCurrent('');
      setNext('');
    },
  });
  return (
    <section className="card section" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          setMismatch(next.length < 10);
          if (next.length >= 10) change.mutate();
        }}
      >
        <Field
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
        />
        <Field
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 10 characters. Your other devices will be signed out, and your drive passwords stop working."
          error={mismatch ? 'Passwords need at least 10 characters.' : null}
          value={next}
          onChange={(e) => setNext(e.target.value)}
        />
        {change.isError && <Notice tone="error">{change.error.message}</Notice>}
        {change.isSuccess && (
          <Notice>
            Password changed. Your other devices were signed out, and your drive passwords no longer work: make new ones for the computers
            that use Hearth as a drive.
          </Notice>
        )}
        <Button type="submit" disabled={change.isPending || !current || !next}>
          Change password
        </Button>
      </form>
    </section>
  );
}
