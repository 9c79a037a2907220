import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, data } from '../../api/client.ts';
import { ApiError } from '../../api/error-messages.ts';
import { meQuery } from '../../api/queries.ts';
import { tooManyTries } from '../../api/tryAgain.ts';
import { session } from '../../api/session.ts';
import { Button } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { Notice } from '../../ui/Notice.tsx';
import { copyText } from '../../ui/clipboard.ts';

type Stage = { kind: 'off' } | { kind: 'scan'; secret: string; url: string } | { kind: 'codes'; codes: string[] } | { kind: 'on' };

/** Two-step sign-in: a QR code for the authenticator app, then ten recovery codes shown once. */
export function TwoFactorSection({ enabled }: { enabled: boolean }) {
  const [stage, setStage] = useState<Stage>(enabled ? { kind: 'on' } : { kind: 'off' });
  const queryClient = useQueryClient();
  const begin = useMutation({
    mutationFn: () => data(api.POST('/auth/2fa/begin')),
    onSuccess: (body) => setStage({ kind: 'scan', secret: body.secret, url: body.otpauth_url }),
  });

  return (
    <section className="card section" aria-labelledby="twofactor-title">
      <h2 id="twofactor-title">Two-step sign-in</h2>
      {stage.kind === 'off' && (
        <>
          <p className="muted">
            Ask for a code from an authenticator app (such as Google Authenticator or Aegis) when signing in on a new device.
          </p>
          {begin.isError && <Notice tone="error">{begin.error.message}</Notice>}
          <Button onClick={() => begin.mutate()} disabled={begin.isPending}>
            Turn on two-step sign-in
          </Button>
        </>
      )}
      {stage.kind === 'scan' && (
        <ScanStep
          secret={stage.secret}
          url={stage.url}
          onVerified={(codes) => {
            setStage({ kind: 'codes', codes });
            session.updateUser({ totp_enabled: true });
            void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
          }}
          onCancel={() => setStage({ kind: 'off' })}
        />
      )}
      {stage.kind === 'codes' && <RecoveryCodes codes={stage.codes} onDone={() => setStage({ kind: 'on' })} />}
      {stage.kind === 'on' && (
        <DisableForm
          onDisabled={() => {
            setStage({ kind: 'off' });
            session.updateUser({ totp_enabled: false });
            void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
          }}
        />
      )}
    </section>
  );
}

function ScanStep({
  secret,
  url,
  onVerified,
  onCancel,
}: {
  secret: string;
  url: string;
  onVerified: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState('');
  useEffect(() => {
    let live = true;
    void import('qrcode').then((QR) => QR.toDataURL(url, { margin: 1, width: 400 })).then((dataUrl) => live && setQr(dataUrl));
    return () => {
      live = false;
    };
  }, [url]);
  const verify = useMutation({
    mutationFn: () => data(api.POST('/auth/2fa/verify', { body: { code: code.replace(/\s+/g, '') } })),
    onSuccess: (body) => onVerified(body.recovery_codes),
  });
  return (
    <form
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        verify.mutate();
      }}
    >
      <p>1. Scan this code with your authenticator app.</p>
      {qr ? (
        <img className="qr" src={qr} alt="QR code to add Hearth to an authenticator app" width="200" height="200" />
      ) : (
        <div className="qr" />
      )}
      <p className="muted">
        Can't scan? Type this key into the app: <span className="secret">{secret}</span>
      </p>
      <p>2. Enter the 6-digit code the app shows.</p>
      <Field
        label="Code from the app"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      {verify.isError && <Notice tone="error">{codeMessage(verify.error)}</Notice>}
      <div className="row">
        <Button type="submit" variant="primary" disabled={verify.isPending || code.trim().length < 6}>
          Turn on
        </Button>
        <Button variant="quiet" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** Shown once: the server keeps only their hashes. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = codes.join('\n');
  const field = useRef<HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  const download = () => {
    const url = URL.createObjectURL(
      new Blob([`Hearth recovery codes\nEach code signs you in once if you lose your phone.\n\n${text}\n`], { type: 'text/plain' }),
    );
    const link = document.createElement('a');
    link.href = url;
    link.download = 'hearth-recovery-codes.txt';
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <>
      <Notice>
        Two-step sign-in is on. Keep these recovery codes somewhere safe: each one lets you in once if you lose your phone. They are shown
        only now.
      </Notice>
      <ol className="recovery-codes" aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
      <textarea ref={field} className="visually-hidden" readOnly value={text} aria-hidden="true" tabIndex={-1} />
      <div className="row">
        <Button icon="check" onClick={() => void copyText(text, field.current).then(setCopied)}>
          Copy
        </Button>
        <Button icon="download" onClick={download}>
          Download
        </Button>
        <Button variant="primary" onClick={onDone}>
          I saved them
        </Button>
      </div>
      {copied === true && <p role="status">Copied.</p>}
      {copied === false && <p role="status">Copying is blocked here: use Download, or write them down.</p>}
    </>
  );
}

function DisableForm({ onDisabled }: { onDisabled: () => void }) {
  const [password, setPassword] = useState('');
  const disable = useMutation({
    mutationFn: () => data(api.POST('/auth/2fa/disable', { body: { password } })),
    onSuccess: onDisabled,
  });
  return (
    <form
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        disable.mutate();
      }}
    >
      <p>Two-step sign-in is on.</p>
      <Field
        label="Password to turn it off"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      {disable.isError && <Notice tone="error">{disable.error.message}</Notice>}
      <Button type="submit" disabled={disable.isPending || !password}>
        Turn off two-step sign-in
      </Button>
    </form>
  );
}

/** Too many wrong codes: the wait, and that the right code (not a password) will work then. */
function codeMessage(error: Error): string {
  return error instanceof ApiError && error.code === 'rate_limited' ? tooManyTries(error.retryAfterSeconds, 'code') : error.message;
}
