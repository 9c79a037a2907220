import { Button } from '../../../ui/Button.tsx';
import { Notice } from '../../../ui/Notice.tsx';
import { useCheckNetwork } from './queries.ts';

const DOWNLOAD = 'https://tailscale.com/download';

/** The three steps to reach Hearth away from home with Tailscale; the PC's is ticked once Tailscale is on. */
export function AwaySteps({ done }: { done: boolean }) {
  return (
    <>
      <h3>Set it up</h3>
      <ol className="away-steps">
        <li>
          <strong>On this PC:</strong> install Tailscale and sign in (with Google, Apple or Microsoft, for example).{' '}
          {done ? (
            <span className="away-done">Done.</span>
          ) : (
            <a href={DOWNLOAD} target="_blank" rel="noreferrer">
              Get Tailscale for this PC
            </a>
          )}
        </li>
        <li>
          <strong>On each phone:</strong> install the Tailscale app from the App Store or Google Play, and sign in with the same account (or
          one you invited from Tailscale).
        </li>
        <li>
          <strong>Then</strong> open Hearth on the phone at the address shown here, with Tailscale on.
        </li>
      </ol>
    </>
  );
}

/** Asks the server to look at Tailscale now (it otherwise looks every few minutes), and says it did. */
export function CheckItWorks() {
  const check = useCheckNetwork();
  return (
    <div className="away-check">
      <Button onClick={() => check.mutate()} disabled={check.isPending}>
        {check.isPending ? 'Checking…' : 'Check it works'}
      </Button>
      {check.isSuccess && !check.isPending && (
        <span className="muted" role="status">
          {check.data.away.tailnet ? 'Checked just now: it works.' : 'Checked just now: not yet.'}
        </span>
      )}
      {check.isError && <Notice tone="error">{check.error.message}</Notice>}
    </div>
  );
}

/** What a shared link does for someone outside the home, given where links are made. */
export function LinksAway({ reach, publicUrl }: { reach: 'internet' | 'tailnet' | 'home'; publicUrl: string | null }) {
  return (
    <>
      <h3>Share links, for someone outside your home</h3>
      <p className="away-links">
        {reach === 'internet' && (
          <>
            A link you share opens for anyone you send it to, wherever they are, at <span className="mono">{publicUrl}</span>.
          </>
        )}
        {reach === 'tailnet' && (
          <>
            A link you share opens only for people on your Tailscale network: Grandma can open it if her phone has Tailscale, signed in to
            your network. For anyone else it does not open. To share with anyone, Hearth needs a public address (PUBLIC_URL, see "Away from
            home" in Hearth&rsquo;s README).
          </>
        )}
        {reach === 'home' && (
          <>
            A link you share opens only at home, on your Wi-Fi: someone outside your home cannot open it. With Tailscale on, it opens for
            people on your Tailscale network; for anyone, anywhere, Hearth needs a public address (PUBLIC_URL, see "Away from home" in
            Hearth&rsquo;s README).
          </>
        )}
      </p>
    </>
  );
}
