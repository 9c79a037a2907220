import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { publicApi } from '../../api/client.ts';
import { errorOf } from '../../api/error-messages.ts';
import { session } from '../../api/session.ts';
import type { TokenResponse } from '../../api/types.ts';
import { Button } from '../../ui/Button.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { AuthCard } from './AuthCard.tsx';
import './auth.css';
import type { PendingSignIn } from './login.ts';

/** The spec's floor: never ask more often than every four seconds. */
const MIN_POLL_MS = 4_000;
const DEFAULT_POLL_MS = 5_000;

/**
 * Waiting for the owner to let this device in. Asks the server at the pace it sets
 * (`poll_after_ms`, `Retry-After` on `slow_down`), and goes on by itself once approved.
 */
export function PendingScreen({ pending, onDone, onRestart }: { pending: PendingSignIn; onDone: () => void; onRestart: () => void }) {
  const [pairingCode, setPairingCode] = useState(pending.pairing_code ?? null);
  const [outcome, setOutcome] = useState<'waiting' | 'denied' | 'expired'>('waiting');
  const [trouble, setTrouble] = useState<string | null>(null);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    let live = true;
    const poll = async (): Promise<void> => {
      let wait = Math.max(MIN_POLL_MS, pending.poll_after_ms ?? DEFAULT_POLL_MS);
      try {
        const { data, error, response } = await publicApi.GET('/auth/session/{id}/status', {
          params: { path: { id: pending.session_id } },
          headers: { Authorization: `Bearer ${pending.access_token}` },
        });
        if (!live) return;
        if (response.ok) {
          setTrouble(null);
          const body = data as { status: string; pairing_code?: string; poll_after_ms?: number };
          if (body.pairing_code) setPairingCode(body.pairing_code);
          if (body.status === 'approved') {
            onDone();
            session.adopt(body as unknown as TokenResponse);
            return;
          }
          if (body.poll_after_ms) wait = Math.max(MIN_POLL_MS, body.poll_after_ms);
        } else {
          const failure = await errorOf(response, error);
          if (failure.code === 'device_denied') {
            onDone();
            setOutcome('denied');
            return;
          }
          if (failure.code === 'invalid_token' || failure.code === 'unauthorized') {
            onDone();
            setOutcome('expired');
            return;
          }
          if (failure.code === 'slow_down' && failure.retryAfterSeconds) wait = Math.max(wait, failure.retryAfterSeconds * 1000);
        }
      } catch {
        if (live) setTrouble("Can't reach the server right now. Still trying…");
      }
      if (live) timer = setTimeout(() => void poll(), wait);
    };
    timer = setTimeout(() => void poll(), MIN_POLL_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [pending, onDone]);

  if (outcome === 'denied') {
    return (
      <AuthCard title="This device was not let in">
        <Notice tone="error">The owner of this Hearth said no to this sign-in. If that was a mistake, ask them and try again.</Notice>
        <Button variant="primary" block onClick={onRestart}>
          Back to sign-in
        </Button>
      </AuthCard>
    );
  }
  if (outcome === 'expired') {
    return (
      <AuthCard title="The request expired">
        <Notice>Nobody approved this sign-in in time. Sign in again to send a new request.</Notice>
        <Button variant="primary" block onClick={onRestart}>
          Back to sign-in
        </Button>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Waiting for approval">
      <p>
        This device needs the owner's OK before it can open your files. Ask them to approve it on the Hearth computer, or approve it
        yourself from a device where you are already signed in.
      </p>
      {pairingCode && (
        <div className="pairing">
          <p className="muted">Check that they see the same code:</p>
          <p className="pairing-code" aria-label={`Pairing code ${pairingCode.split('').join(' ')}`}>
            {pairingCode}
          </p>
        </div>
      )}
      <div className="waiting-row">
        <Spinner label="Waiting for approval" />
        <span className="muted">This page goes on by itself once approved.</span>
      </div>
      {trouble && <Notice>{trouble}</Notice>}
      <Button variant="quiet" block onClick={onRestart}>
        Cancel
      </Button>
      {/* The owner with no other device has nobody to approve this one; a teenager has the owner. */}
      {pending.owner && (
        <p className="auth-aside">
          <Link to="/recover">Owner locked out?</Link>
        </p>
      )}
    </AuthCard>
  );
}
