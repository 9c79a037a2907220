import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { data, publicApi } from '../../api/client.ts';
import { statusQuery } from '../../api/queries.ts';
import { session } from '../../api/session.ts';
import { Button } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { cleanUsername, PASSWORD_HINT, USERNAME_HINT, useAccountChecks } from './accountChecks.ts';
import { AuthCard } from './AuthCard.tsx';
import { attemptLogin, type LoginOutcome } from './login.ts';
import { SignInFlow } from './SignInPage.tsx';

/** `/invite/<code>`: the link an owner sends opens this form with the code filled in. */
export function RegisterPage() {
  const { code = '' } = useParams();
  const status = useQuery(statusQuery);
  const check = useQuery({
    queryKey: ['invite', code],
    queryFn: () => data(publicApi.GET('/invites/{code}/check', { params: { path: { code } } })),
    retry: false,
  });
  const [displayName, setDisplayName] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [signedUp, setSignedUp] = useState<LoginOutcome | null>(null);
  const serverName = status.data?.name ?? 'Hearth';
  const checks = useAccountChecks({ username, password, display_name: displayName });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!checks.ready()) return;
    setBusy(true);
    setError(null);
    try {
      await data(
        publicApi.POST('/auth/register', {
          body: {
            username: cleanUsername(username),
            password,
            invite_code: code,
            ...(displayName.trim() ? { display_name: displayName.trim() } : {}),
          },
        }),
      );
      const outcome = await attemptLogin(username, password);
      if (outcome.kind === 'signed-in') session.adopt(outcome.tokens);
      else setSignedUp(outcome);
    } catch (caught) {
      setError(checks.place(caught));
    } finally {
      setBusy(false);
    }
  }

  if (signedUp) return <SignInFlow serverName={serverName} initial={{ username, password, outcome: signedUp }} />;
  if (check.isPending) {
    return (
      <div className="center-page">
        <Spinner label="Checking the invite" />
      </div>
    );
  }
  if (check.isError || !check.data?.valid) {
    return (
      <AuthCard title="This invite can't be used">
        <Notice tone="error">
          {check.isError ? check.error.message : 'This invite is unknown, used up or expired. Ask the person who sent it for a new one.'}
        </Notice>
        <Link className="btn btn-block" to="/">
          Go to sign-in
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={`Join ${serverName}`}>
      <p className="muted">You were invited. Choose how you will sign in.</p>
      <form onSubmit={submit} noValidate>
        <Field
          label="Your name"
          hint="How the family sees you, e.g. Grandma."
          autoComplete="name"
          value={displayName}
          error={checks.errors.display_name}
          onChange={(e) => setDisplayName(e.target.value)}
        />
        <Field
          label="Username"
          hint={USERNAME_HINT}
          error={checks.errors.username}
          autoComplete="username"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          value={username}
          onChange={(e) => setUsername(e.target.value)}
        />
        <Field
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={PASSWORD_HINT}
          error={checks.errors.password}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {error && <Notice tone="error">{error}</Notice>}
        <Button type="submit" variant="primary" block disabled={busy}>
          {busy ? 'Creating your account…' : 'Create my account'}
        </Button>
      </form>
    </AuthCard>
  );
}
