import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client.ts';
import { session } from '../../api/session.ts';
import { Button } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { Notice } from '../../ui/Notice.tsx';
import { AuthCard } from './AuthCard.tsx';
import { messageOf } from './login.ts';

/** A temporary password from the owner must be replaced before anything else. */
export function ForcedPasswordPage() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (next !== again) return setError('The two new passwords are not the same.');
    if (next.length < 10) return setError('Passwords need at least 10 characters.');
    setBusy(true);
    setError(null);
    try {
      await data(api.PATCH('/me/password', { body: { current_password: current, new_password: next } }));
      session.updateUser({ must_change_password: false });
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Choose a new password">
      <p className="muted">You signed in with a temporary password. Choose your own to continue.</p>
      <form onSubmit={submit} noValidate>
        <Field
          label="Temporary password"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
        />
        <Field
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 10 characters."
          value={next}
          onChange={(e) => setNext(e.target.value)}
        />
        <Field
          label="New password again"
          type="password"
          autoComplete="new-password"
          value={again}
          onChange={(e) => setAgain(e.target.value)}
        />
        {error && <Notice tone="error">{error}</Notice>}
        <Button type="submit" variant="primary" block disabled={busy || !current || !next || !again}>
          {busy ? 'Saving…' : 'Save and continue'}
        </Button>
      </form>
      <Button variant="quiet" block onClick={() => void session.signOut()}>
        Sign out
      </Button>
    </AuthCard>
  );
}
