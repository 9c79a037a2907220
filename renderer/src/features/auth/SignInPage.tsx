import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { desktopBridge, restoresThroughDesktop } from '../../api/desktop.ts';
import { statusQuery } from '../../api/queries.ts';
import type { Answer } from '../../api/types.ts';
import { session } from '../../api/session.ts';
import { ApiError } from '../../api/error-messages.ts';
import { tooManyTries } from '../../api/tryAgain.ts';
import { Button } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { AuthCard } from './AuthCard.tsx';
import { attemptLogin, messageOf, pendingStore, type LoginOutcome, type PendingSignIn } from './login.ts';
import { PendingScreen } from './PendingScreen.tsx';
import { RestoreForm, RestoreProgress } from './RestoreForm.tsx';
import { SetupForm } from './SetupForm.tsx';

/** The door: sign in with username and password (or set the server up on its first visit). */
export function SignInPage({ reason }: { reason: string | null }) {
  const status = useQuery(statusQuery);
  if (status.isPending) {
    return (
      <div className="center-page">
        <Spinner label="Connecting to Hearth" />
      </div>
    );
  }
  if (status.data?.setup_required) return <FirstScreen status={status.data} />;
  return <SignInFlow serverName={status.data?.name ?? 'Hearth'} reason={reason} unreachable={status.isError} />;
}

/**
 * A fresh server: set it up, or restore it from a backup. In the desktop app's window both go
 * through the app's bridge; a browser on a desktop app's server is told to use the app.
 */
function FirstScreen({ status }: { status: Answer<'/status', 'get'> }) {
  const [restoring, setRestoring] = useState(false);
  if (status.restoring) return <RestoreProgress />;
  if (restoring) return <RestoreForm codeRequired={status.setup_code_required} onCancel={() => setRestoring(false)} />;
  return (
    <SetupForm
      serverName={status.name}
      codeRequired={status.setup_code_required}
      inDesktopApp={status.setup_in_desktop_app}
      onRestore={
        restoresThroughDesktop() || (!status.setup_in_desktop_app && desktopBridge()?.setup === undefined)
          ? () => setRestoring(true)
          : undefined
      }
    />
  );
}

type Step = { kind: 'password' } | { kind: 'totp' } | { kind: 'pending'; pending: PendingSignIn };

/** Password, then a code when two-step sign-in is on, then waiting for approval when the server asks for it. */
export function SignInFlow({
  serverName,
  reason = null,
  unreachable = false,
  initial,
}: {
  serverName: string;
  reason?: string | null;
  unreachable?: boolean;
  initial?: { username: string; password: string; outcome: LoginOutcome };
}) {
  const [username, setUsername] = useState(initial?.username ?? '');
  const [password, setPassword] = useState(initial?.password ?? '');
  const [step, setStep] = useState<Step>(() => {
    const waiting = pendingStore.load();
    if (waiting) return { kind: 'pending', pending: waiting };
    if (initial?.outcome.kind === 'pending') return { kind: 'pending', pending: initial.outcome.pending };
    if (initial?.outcome.kind === 'totp-required') return { kind: 'totp' };
    return { kind: 'password' };
  });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function follow(outcome: LoginOutcome) {
    if (outcome.kind === 'signed-in') session.adopt(outcome.tokens);
    else if (outcome.kind === 'pending') {
      pendingStore.save(outcome.pending);
      setStep({ kind: 'pending', pending: outcome.pending });
    } else setStep({ kind: 'totp' });
  }

  async function submitPassword(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      follow(await attemptLogin(username, password));
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  }

  async function submitCode(code: string) {
    setBusy(true);
    setError(null);
    try {
      follow(await attemptLogin(username, password, code));
    } catch (caught) {
      setError(
        caught instanceof ApiError && caught.code === 'totp_required'
          ? "That code doesn't match. Try the newest code, or a recovery code."
          : caught instanceof ApiError && caught.code === 'rate_limited'
            ? tooManyTries(caught.retryAfterSeconds, 'code')
            : messageOf(caught),
      );
    } finally {
      setBusy(false);
    }
  }

  if (step.kind === 'pending') {
    return (
      <PendingScreen
        pending={step.pending}
        onDone={pendingStore.clear}
        onRestart={() => {
          pendingStore.clear();
          setPassword('');
          setStep({ kind: 'password' });
        }}
      />
    );
  }
  if (step.kind === 'totp') {
    return (
      <CodeStep
        busy={busy}
        error={error}
        onSubmit={submitCode}
        onBack={() => {
          setError(null);
          setStep({ kind: 'password' });
        }}
      />
    );
  }
  return (
    <PasswordStep
      title={`Sign in to ${serverName}`}
      reason={reason}
      unreachable={unreachable}
      username={username}
      password={password}
      busy={busy}
      error={error}
      onUsername={setUsername}
      onPassword={setPassword}
      onSubmit={submitPassword}
      onError={setError}
    />
  );
}

/** The first step: username and password (or, in the desktop app, the owner of this PC). */
function PasswordStep({
  title,
  reason,
  unreachable,
  username,
  password,
  busy,
  error,
  onUsername,
  onPassword,
  onSubmit,
  onError,
}: {
  title: string;
  reason: string | null;
  unreachable: boolean;
  username: string;
  password: string;
  busy: boolean;
  error: string | null;
  onUsername: (value: string) => void;
  onPassword: (value: string) => void;
  onSubmit: (event: FormEvent) => void;
  onError: (message: string) => void;
}) {
  return (
    <AuthCard title={title}>
      {reason && <Notice>{reason}</Notice>}
      {unreachable && <Notice tone="error">Can't reach the Hearth server. Check that this device is on the home network.</Notice>}
      <form onSubmit={onSubmit} noValidate>
        <Field
          label="Username"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          required
          value={username}
          onChange={(e) => onUsername(e.target.value)}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => onPassword(e.target.value)}
        />
        {error && <Notice tone="error">{error}</Notice>}
        <Button type="submit" variant="primary" block disabled={busy || !username || !password}>
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
      {desktopBridge() && (
        <Button
          block
          onClick={() =>
            void session
              .openAtThisPc()
              .then((ok) => ok || onError('Hearth could not open the owner account here. Sign in with a password.'))
          }
        >
          Open as the owner of this PC
        </Button>
      )}
      <p className="auth-aside">
        <Link to="/recover">Owner locked out?</Link>
      </p>
    </AuthCard>
  );
}

/** The second step: the authenticator's code, or one of the recovery codes kept on paper. */
function CodeStep({
  busy,
  error,
  onSubmit,
  onBack,
}: {
  busy: boolean;
  error: string | null;
  onSubmit: (code: string) => void;
  onBack: () => void;
}) {
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  return (
    <AuthCard title="Two-step sign-in">
      <p className="muted">
        {recovery
          ? 'Enter one of the recovery codes you saved when you turned on two-step sign-in. Each works once.'
          : 'Open your authenticator app and enter the 6-digit code it shows for Hearth.'}
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit(code);
        }}
        noValidate
      >
        {recovery ? (
          <Field
            key="recovery"
            label="Recovery code"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoFocus
          />
        ) : (
          <Field
            key="totp"
            label="6-digit code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoFocus
          />
        )}
        {error && <Notice tone="error">{error}</Notice>}
        <Button type="submit" variant="primary" block disabled={busy || code.trim() === ''}>
          {busy ? 'Checking…' : 'Continue'}
        </Button>
      </form>
      <p>
        <button
          type="button"
          className="btn btn-quiet btn-block"
          onClick={() => {
            setRecovery(!recovery);
            setCode('');
          }}
        >
          {recovery ? 'Use the authenticator app instead' : 'Use a recovery code instead'}
        </button>
        <button type="button" className="btn btn-quiet btn-block" onClick={onBack}>
          Back
        </button>
      </p>
    </AuthCard>
  );
}
