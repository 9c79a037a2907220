import { useEffect, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { data, publicApi } from '../../api/client.ts';
import { desktopBridge, setupThroughDesktop } from '../../api/desktop.ts';
import type { TokenResponse } from '../../api/types.ts';
import { session } from '../../api/session.ts';
import { Button } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { Notice } from '../../ui/Notice.tsx';
import { cleanUsername, PASSWORD_HINT, USERNAME_HINT, useAccountChecks } from './accountChecks.ts';
import { AuthCard } from './AuthCard.tsx';
import { statusQuery } from '../../api/queries.ts';
import { deviceDescription } from './deviceDescription.ts';

/** First run goes on to the step that offers backups (it can be skipped), then to connecting phones. */
const FIRST_STEP = '/console/first-backup';

/**
 * A fresh server: the owner creates their account. In the desktop app's window through its
 * bridge (its server takes no setup from the network); headless, from another device with the
 * setup code printed where the server was started (on that PC itself, without).
 */
export function SetupForm({
  serverName,
  codeRequired,
  inDesktopApp,
  onRestore,
}: {
  serverName: string;
  codeRequired: boolean;
  inDesktopApp: boolean;
  /** Offers "Restore from a backup" beside setting up. */
  onRestore?: (() => void) | undefined;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [done, setDone] = useState<TokenResponse | null>(null);
  const [name, setName] = useState(serverName);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [setupCode, setSetupCode] = useState('');
  const viaApp = desktopBridge()?.setup !== undefined;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const checks = useAccountChecks({ username, password, server_name: name });

  useEffect(() => {
    if (!done || location.pathname !== FIRST_STEP) return;
    session.adopt(done);
    void queryClient.invalidateQueries({ queryKey: statusQuery.queryKey });
  }, [done, location.pathname, queryClient]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!checks.ready()) return;
    setBusy(true);
    try {
      const account = { username: cleanUsername(username), password, server_name: name };
      const tokens = viaApp
        ? await setupThroughDesktop(account)
        : await data(
            publicApi.POST('/setup', {
              body: { ...account, ...deviceDescription(), ...(codeRequired && { setup_code: setupCode.trim() }) },
            }),
          );
      // First run goes on in the owner's console (a backup, then the family's phones): the
      // session starts once the router is there, so the signed-in routes open on that page.
      setDone(tokens);
      navigate(FIRST_STEP, { replace: true });
    } catch (caught) {
      setError(checks.place(caught));
    } finally {
      setBusy(false);
    }
  }

  if (inDesktopApp && !viaApp) {
    return (
      <AuthCard title="Set up Hearth in its app">
        <p>
          Hearth is installed as an app on this computer. Create the owner's account in the Hearth app's window: open Hearth from its icon
          next to the clock, or from your apps.
        </p>
        <p className="muted">Until then, no phone or other computer can reach Hearth. Afterwards, sign in here.</p>
      </AuthCard>
    );
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
        {codeRequired && (
          <Field
            label="Setup code"
            hint='Shown on the computer where Hearth was started, in the line "Finish setup at … with setup code". It keeps others on your network from taking over Hearth.'
            inputMode="numeric"
            autoComplete="off"
            value={setupCode}
            onChange={(e) => setSetupCode(e.target.value)}
          />
        )}
        {error && <Notice tone="error">{error}</Notice>}
        <Button type="submit" variant="primary" block disabled={busy}>
          {busy ? 'Setting up…' : 'Create the owner account'}
        </Button>
      </form>
      {onRestore && (
        <p className="auth-alt">
          Had Hearth before?{' '}
          <Button variant="quiet" onClick={onRestore}>
            Restore from a backup
          </Button>
        </p>
      )}
    </AuthCard>
  );
}
