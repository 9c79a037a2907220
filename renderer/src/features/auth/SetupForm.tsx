import { useEffect, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { data, publicApi } from '../../api/client.ts';
import type { TokenResponse } from '../../api/types.ts';
import { session } from '../../api/session.ts';
import { Button } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { Notice } from '../../ui/Notice.tsx';
import { PASSWORD_HINT, USERNAME_HINT, useAccountChecks } from './accountChecks.ts';
import { AuthCard } from './AuthCard.tsx';
import { authKeys, deviceDescription } from './queries.ts';

const WELCOME = '/console/welcome';

/** A fresh server: the first person to open it creates the owner's account. */
export function SetupForm({ serverName }: { serverName: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [done, setDone] = useState<TokenResponse | null>(null);
  const [name, setName] = useState(serverName);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const checks = useAccountChecks({ username, password, server_name: name });

  useEffect(() => {
    if (!done || location.pathname !== WELCOME) return;
    session.adopt(done);
    void queryClient.invalidateQueries({ queryKey: authKeys.status });
  }, [done, location.pathname, queryClient]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!checks.ready()) return;
    setBusy(true);
    try {
      const tokens = await data(publicApi.POST('/setup', { body: { username: username.trim(), password, server_name: name, ...deviceDescription() } }));
      // First run goes on to connecting the family's phones (the owner's console): the
      // session starts once the router is there, so the signed-in routes open on that page.
      setDone(tokens);
      navigate(WELCOME, { replace: true });
    } catch (caught) {
      setError(checks.place(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Set up Hearth">
      <p className="muted">You are the first here. Create the owner's account: it can invite the rest of the family.</p>
      <form onSubmit={submit} noValidate>
        <Field label="Name of this Hearth" value={name} error={checks.errors.server_name} onChange={(e) => setName(e.target.value)} />
        <Field
          label="Your username"
          hint={USERNAME_HINT}
          error={checks.errors.username}
          autoComplete="username"
          autoCapitalize="none"
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
          {busy ? 'Setting up…' : 'Create the owner account'}
        </Button>
      </form>
    </AuthCard>
  );
}
