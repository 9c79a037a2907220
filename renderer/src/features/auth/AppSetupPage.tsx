import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { API_BASE, data, publicApi } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { Fingerprint } from '../../ui/Fingerprint.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { AuthCard } from './AuthCard.tsx';
import { installSteps, phoneKind } from './phoneSteps.ts';
import './auth.css';

/** Set, to the authority's fingerprint, once this phone has proven it trusts it: the server then sends it to HTTPS (server: middleware/https-upgrade.ts). */
const TRUSTS_HTTPS_COOKIE = 'hearth_https';

const TITLE = 'Make Hearth an app on this phone';

type Check = { state: 'idle' } | { state: 'checking' } | { state: 'trusted' } | { state: 'not-yet' };

/**
 * `/app-setup`, "Make Hearth an app on this phone", opened from the QR code on the owner's
 * Connect page, before anyone signs in: the phone installs Hearth's certificate authority with
 * the taps for its system, and the page checks that the phone now trusts it. Then the phone
 * opens Hearth over HTTPS, where it can be installed, join the Share sheet and copy links.
 */
export function AppSetupPage() {
  // A server on its very first start makes its certificate within a second or two: asked again until it is there.
  const offer = useQuery({
    queryKey: ['server-https'],
    queryFn: () => data(publicApi.GET('/server/https')),
    refetchInterval: (query) => (query.state.data?.available === false ? 2_000 : false),
  });
  const phone = phoneKind(navigator.userAgent, navigator.maxTouchPoints);
  const secureHere = window.location.protocol === 'https:';
  const [check, checkPhone] = usePhoneCheck(secureHere);

  if (offer.isPending) {
    return (
      <AuthCard title={TITLE}>
        <Spinner label="Asking Hearth" />
      </AuthCard>
    );
  }
  if (offer.isError) {
    return (
      <AuthCard title={TITLE}>
        <Notice tone="error">{offer.error.message}</Notice>
      </AuthCard>
    );
  }
  if (!offer.data.available) {
    return (
      <AuthCard title={TITLE}>
        <Notice>This Hearth does not offer a private connection right now, so it stays a web page: it works as it is.</Notice>
        <a className="btn" href="/">
          Open Hearth
        </a>
      </AuthCard>
    );
  }

  const authorityName = offer.data.authority_name ?? 'Hearth';
  if (check.state === 'trusted') return <TrustedPhone secureHere={secureHere} ios={phone.os === 'ios'} />;

  const steps = installSteps(phone, authorityName);
  return (
    <AuthCard title={phone.os === 'other' ? 'A private connection to Hearth' : TITLE}>
      <p>
        Hearth works in the browser as it is. A few taps once make it a real app: an icon on the home screen, Hearth in the Share menu of
        your photos, and a private (HTTPS) connection at home.
      </p>
      {phone.os === 'ios' && !phone.safari && (
        <Notice tone="error">Open this page in Safari: on an iPhone only Safari can add the profile.</Notice>
      )}
      <ol className="recover-steps" aria-label="Steps">
        {steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <div className="app-setup-actions">
        {phone.os === 'ios' ? (
          <a className="btn btn-primary" href={`${API_BASE}/server/https/profile.mobileconfig`} download>
            Download the profile
          </a>
        ) : (
          <a className="btn btn-primary" href={`${API_BASE}/server/https/authority.crt`} download>
            Download the certificate
          </a>
        )}
        <Button onClick={() => void checkPhone()} disabled={check.state === 'checking'}>
          {phone.os === 'other' ? 'Check this device' : 'Check this phone'}
        </Button>
      </div>
      <div aria-live="polite">
        {check.state === 'checking' && <Spinner label="Checking" />}
        {check.state === 'not-yet' && (
          <Notice tone="error">
            Not yet: this phone does not trust Hearth’s certificate. Go through the steps again, especially the last one in Settings, then
            check again.
          </Notice>
        )}
      </div>
      <details className="muted app-setup-details">
        <summary>For the careful: the certificate’s fingerprint</summary>
        <p>
          Your phone shows it as SHA-256 when you install “{authorityName}”. It should read:{' '}
          <Fingerprint value={offer.data.authority_fingerprint_sha256 ?? ''} label={`Fingerprint of ${authorityName}`} />
        </p>
        <p>
          This certificate can only vouch for names and addresses on your home network, never for another website, so installing it cannot
          be used to spy on the rest of your browsing.
        </p>
      </details>
    </AuthCard>
  );
}

/** The phone trusts Hearth's authority: how to open Hearth privately from now on. */
function TrustedPhone({ secureHere, ios }: { secureHere: boolean; ios: boolean }) {
  const httpsAddress = `https://${window.location.host}/`;
  return (
    <AuthCard title={secureHere ? 'This phone opens Hearth privately' : 'Done: this phone trusts Hearth'}>
      <p>Hearth now opens over a private connection (HTTPS) on this phone.</p>
      <ol className="recover-steps">
        {!secureHere && <li>Open Hearth below. Sign in once more there: the private address is new to this browser.</li>}
        {ios ? (
          <li>Hearth’s icon is on your home screen (the profile put it there). You can also tap Share → Add to Home Screen in Safari.</li>
        ) : (
          <li>In the browser’s menu (⋮), choose Install app or Add to Home screen. Then Share → Hearth sends photos from your gallery.</li>
        )}
      </ol>
      <a className="btn btn-primary" href={httpsAddress}>
        Open Hearth
      </a>
    </AuthCard>
  );
}

/** Whether this phone trusts Hearth's authority yet, and the check that finds out (and remembers it). */
function usePhoneCheck(secureHere: boolean) {
  const [check, setCheck] = useState<Check>(secureHere ? { state: 'trusted' } : { state: 'idle' });

  async function checkPhone() {
    setCheck({ state: 'checking' });
    try {
      // From this plain-HTTP page to the same name over HTTPS: the browser completes the request
      // only if it trusts the certificate (an untrusted one fails before any answer).
      const response = await fetch(`https://${window.location.host}${API_BASE}/server/https/check`, { cache: 'no-store' });
      const body = (await response.json()) as { secure?: boolean; authority_fingerprint_sha256?: string | null };
      if (!response.ok || body.secure !== true) throw new Error('not secure');
      // The authority this phone trusts: if the owner ever replaces it, the server stops sending
      // this phone to HTTPS, where it would meet a certificate it does not trust.
      const trusted = (body.authority_fingerprint_sha256 ?? '').replaceAll(':', '');
      document.cookie = `${TRUSTS_HTTPS_COOKIE}=${trusted}; max-age=31536000; path=/; samesite=lax`;
      setCheck({ state: 'trusted' });
    } catch {
      setCheck({ state: 'not-yet' });
    }
  }

  return [check, checkPhone] as const;
}
