import { CopyField } from '../CopyField.tsx';
import { QrImage } from '../QrImage.tsx';
import { useNetwork, type Network } from './queries.ts';
import './away-card.css';

type Away = Network['away'];

/**
 * "Away from home": how the family reaches Hearth when they are not on the home Wi-Fi. The
 * server recognises Tailscale on this PC and a proxy or tunnel's PUBLIC_URL; with neither, the
 * card says so and what Tailscale is, in one sentence, for an owner who has never heard of it.
 */
export function AwayCard() {
  const network = useNetwork();
  // The address card above already says why the network could not be read.
  if (!network.data) return null;
  const { away } = network.data;
  return (
    <section className="card console-card" aria-labelledby="away-title">
      <h2 id="away-title">Away from home</h2>
      {away.tailnet ? (
        <OnTailnet away={away} tailnet={away.tailnet} />
      ) : away.public_url ? (
        <AtPublicUrl away={away} />
      ) : (
        <NotSetUp away={away} />
      )}
    </section>
  );
}

function OnTailnet({ away, tailnet }: { away: Away; tailnet: NonNullable<Away['tailnet']> }) {
  return (
    <>
      <p>Tailscale is on. Family members with Tailscale on their phone open Hearth anywhere at this address.</p>
      <div className="qr-and-text">
        <QrImage text={tailnet.url} label={`QR code of the Tailscale address ${tailnet.url}`} />
        <div className="qr-text">
          <h3>On each phone</h3>
          <ol className="away-steps">
            <li>Install the Tailscale app (App Store or Google Play).</li>
            <li>Sign in to the same Tailscale network as this PC (with the same account, or one you invited).</li>
            <li>Open this address in the browser, or point the camera at the code.</li>
          </ol>
        </div>
      </div>
      <CopyField label="Address on Tailscale" value={tailnet.url} big />
      {!tailnet.https && (
        <p className="muted">
          The address starts with http, but Tailscale encrypts everything between the phone and this PC.
          {tailnet.certificate_problem && ` No HTTPS certificate yet: ${tailnet.certificate_problem}`}
        </p>
      )}
      {away.public_url && (
        <p className="muted">
          Links you share use <span className="mono">{away.public_url}</span> (PUBLIC_URL), which works for anyone.
        </p>
      )}
    </>
  );
}

function AtPublicUrl({ away }: { away: Away }) {
  const url = `${away.public_url}/`;
  return (
    <>
      <p>Hearth can be reached from anywhere at this address, through your proxy or tunnel (PUBLIC_URL).</p>
      <div className="qr-and-text">
        <QrImage text={url} label={`QR code of the address ${url}`} />
        <p className="muted qr-text">Phones open it like any website. Links you share use it too, so they work for anyone.</p>
      </div>
      <CopyField label="Address from anywhere" value={url} big />
      {away.trusted_proxies === 0 && (
        <p className="muted">
          TRUSTED_PROXIES is not set, so Hearth counts everyone who comes through the proxy as one visitor, and too many wrong passwords
          from one person lock out the rest for a while. See "Away from home" in the README.
        </p>
      )}
    </>
  );
}

function NotSetUp({ away }: { away: Away }) {
  return (
    <>
      <p>
        <strong>Not set up.</strong> Away from home, phones can't reach Hearth yet. See "Away from home" in Hearth's README.
      </p>
      <p className="muted">
        Tailscale is a free app that joins your family's phones and this PC into a private network of their own, so Hearth opens wherever
        they are.
      </p>
      {away.tailscale === 'not_running' && (
        <p className="muted">
          Tailscale is installed on this PC but not running{away.tailscale_detail ? ` (${away.tailscale_detail})` : ''}. Sign in to it, and
          its address appears here.
        </p>
      )}
    </>
  );
}
