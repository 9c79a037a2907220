import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { data, publicApi } from '../../api/client.ts';
import { session } from '../../api/session.ts';
import { Button } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { Notice } from '../../ui/Notice.tsx';
import { AuthCard } from './AuthCard.tsx';
import { messageOf, pendingStore } from './login.ts';
import { deviceDescription } from './deviceDescription.ts';
import './auth.css';

/**
 * `/recover`, "Owner locked out?": the owner makes a one-time code at the PC Hearth runs on
 * (the app's tray menu, or `npm run owner -- reset`) and trades it here, with a new password,
 * for a session that waits for nobody's approval.
 */
export function RecoverPage() {
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const tokens = await data(
        publicApi.POST('/auth/recover', { body: { code: code.trim(), new_password: password, ...deviceDescription() } }),
      );
      // A sign-in this tab was waiting on ended with the owner's other sessions.
      pendingStore.clear();
      // Signed in: the app's routes take over (and open the files).
      await session.adopt(tokens).catch(() => undefined);
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Owner locked out?">
      <p>
        If you own this Hearth and cannot sign in (a forgotten password, a lost phone, or no device left to approve this one), get back in
        from the computer Hearth runs on.
      </p>
      <ol className="recover-steps">
        <li>
          At that computer, make a recovery code:
          <ul>
            <li>
              In the Hearth app, click the Hearth icon next to the clock and choose <strong>Owner locked out? Make a recovery code</strong>.
            </li>
            <li>
              If Hearth was started with <code>npm start</code>, run <code>npm run owner -- reset</code> in a terminal, in Hearth's folder.
            </li>
          </ul>
        </li>
        <li>Enter the code here with a new password. The code works once, for 15 minutes.</li>
      </ol>
      <form onSubmit={submit} noValidate>
        <Field
          label="Recovery code"
          autoComplete="off"
          autoCapitalize="characters"
          autoCorrect="off"
          spellCheck={false}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
        <Field
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 10 characters."
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {error && <Notice tone="error">{error}</Notice>}
        <Button type="submit" variant="primary" block disabled={busy || code.trim() === '' || password === ''}>
          {busy ? 'Checking the code…' : 'Set the password and sign in'}
        </Button>
      </form>
      <p className="muted">
        This signs the owner out on every other device. Family members who forgot their password: ask the owner for a new one.
      </p>
      <p className="auth-aside">
        <Link to="/">Back to sign-in</Link>
      </p>
    </AuthCard>
  );
}
