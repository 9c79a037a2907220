import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { data, publicApi } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import { session } from '../../api/session.ts';
import { Button } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { Notice } from '../../ui/Notice.tsx';
import { AuthCard } from './AuthCard.tsx';
import { authKeys, deviceDescription } from './queries.ts';

/** A fresh server: the first person to open it creates the owner's account. */
export function SetupForm({ serverName }: { serverName: string }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(serverName);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const tokens = await data(publicApi.POST('/setup', { body: { username: username.trim(), password, server_name: name, ...deviceDescription() } }));
      session.adopt(tokens);
      void queryClient.invalidateQueries({ queryKey: authKeys.status });
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'Something went wrong. Try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Set up Hearth">
      <p className="muted">You are the first here. Create the owner's account: it can invite the rest of the family.</p>
      <form onSubmit={submit} noValidate>
        <Field label="Name of this Hearth" value={name} onChange={(e) => setName(e.target.value)} />
        <Field label="Your username" autoComplete="username" autoCapitalize="none" value={username} onChange={(e) => setUsername(e.target.value)} />
        <Field
          label="Password"
          type="password"
          autoComplete="new-password"
          hint="At least 10 characters."
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
