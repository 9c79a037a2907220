import { useNavigate } from 'react-router';
import { Button } from '../../../ui/Button.tsx';
import { Notice, Spinner } from '../../../ui/Notice.tsx';
import { ConsoleLayout } from '../ConsoleLayout.tsx';
import { CopyField } from '../../../ui/CopyField.tsx';
import { InviteForm } from '../people/InviteForm.tsx';
import { QrImage } from '../QrImage.tsx';
import { useNetwork } from './queries.ts';
import { AppSetupCard } from './AppSetupCard.tsx';
import { AwayCard } from './AwayCard.tsx';
import './settings.css';

/**
 * "Connect your family's phones": the address a phone opens (as text and a QR code), and an
 * invite for someone new. The first run ends here (`welcome`), and it stays in the console.
 */
export function ConnectPage({ welcome = false }: { welcome?: boolean }) {
  const navigate = useNavigate();
  return (
    <ConsoleLayout title={welcome ? 'Hearth is ready' : "Connect your family's phones"}>
      {welcome && (
        <p className="lead">
          Now bring the family in: each phone opens Hearth's address, and each person needs an invite to make an account.
        </p>
      )}
      <div className="console-grid">
        <section className="card console-card" aria-labelledby="address-title">
          <h2 id="address-title">{welcome ? "Connect your family's phones" : "This PC's address"}</h2>
          <Address />
        </section>
        <PhoneAppCard />
        <section className="card console-card" aria-labelledby="invite-title">
          <h2 id="invite-title">Invite someone</h2>
          <p className="muted">An invite is a link that lets one person make their own account here.</p>
          <InviteForm />
        </section>
        <AwayCard />
      </div>
      {welcome && (
        <div className="row console-done">
          <Button variant="primary" onClick={() => navigate('/console/devices')}>
            Done
          </Button>
          <Button onClick={() => navigate('/files')}>Go to my files</Button>
        </div>
      )}
    </ConsoleLayout>
  );
}

/** Shown once the PC has an address phones can reach. */
function PhoneAppCard() {
  const network = useNetwork();
  const address = network.data?.local_name?.url ?? network.data?.addresses[0]?.url;
  // A phone that the name fails (its browser still insists on the old certificate) opens the number.
  const numberAddress = network.data?.addresses.find((a) => a.family === 'IPv4')?.url ?? null;
  return address ? <AppSetupCard address={address} numberAddress={numberAddress} /> : null;
}

function Address() {
  const network = useNetwork();
  if (network.isPending) return <Spinner label="Looking up this PC's address" />;
  if (network.isError) return <Notice tone="error">{network.error.message}</Notice>;
  const [first, ...others] = network.data.addresses;
  if (!first) {
    return (
      <Notice tone="error">
        This PC has no address on a home network right now. Check that it is on the Wi-Fi or plugged into the router, then come back to this
        page.
      </Notice>
    );
  }
  // The announced name survives the router giving the PC another address; the address is the fallback.
  const named = network.data.local_name;
  const primary = named?.url ?? first.url;
  const fallbacks = named ? [first, ...others] : others;
  const ipv4 = fallbacks.filter((a) => a.family === 'IPv4');
  const rest = fallbacks.filter((a) => a.family !== 'IPv4');
  return (
    <>
      <p>On each phone, join the home Wi-Fi, then open this address in the browser, or point the camera at the code:</p>
      <div className="qr-and-text">
        <QrImage text={primary} label={`QR code of the address ${primary}`} />
        <p className="muted qr-text">It works on the home network only: phones and computers elsewhere cannot reach it.</p>
      </div>
      <CopyField label="Address for phones" value={primary} big />
      {ipv4.length > 0 && (
        <>
          <h3>If that address does not open</h3>
          <p className="muted">
            {named
              ? 'Some phones do not know names ending in .local. Those open the number instead (it may change if the router restarts):'
              : 'This PC is on more than one network. A phone on another of them uses:'}
          </p>
          <ul className="plain-list">
            {ipv4.map((a) => (
              <li key={a.url}>
                <span className="mono">{a.url}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {rest.length > 0 && (
        <details className="muted">
          <summary>Other addresses of this PC</summary>
          <ul className="plain-list">
            {rest.map((a) => (
              <li key={a.url}>
                <span className="mono">{a.url}</span> ({a.interface})
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}
