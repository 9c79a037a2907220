import { CopyField } from '../../../ui/CopyField.tsx';
import { QrImage } from '../QrImage.tsx';
import { AwaySteps, CheckItWorks, LinksAway } from './AwaySteps.tsx';
import { useNetwork, type Network } from './queries.ts';
import './away-card.css';

type Away = Network['away'];

/**
 * "Away from home": how the family reaches Hearth when they are not on the home Wi-Fi, walked
 * through in the app rather than the README: what Tailscale is, the steps on the PC and on each
 * phone, a check that asks the server what it sees now, and what a shared link does for someone
 * outside the home. A proxy or tunnel's PUBLIC_URL, when set, is the way in it shows first.
 */
export function AwayCard() {
  const network = useNetwork();
  // The address card above already says why the network could not be read.
  if (!network.data) return null;
  const { away } = network.data;
  return (
    <section className="card console-card" aria-labelledby="away-title">
      <h2 id="away-title">Away from home</h2>
      {away.public_url && !away.tailnet ? (
        <AtPublicUrl away={away} />
      ) : (
        <>
          <p>
            Tailscale is a free app that links this PC and your family&rsquo;s phones in a private network of your own, so Hearth opens on a
            phone wherever it is, and for nobody else.
          </p>
          <Seen away={away} />
          <AwaySteps done={away.tailscale === 'running'} />
          <CheckItWorks />
          {away.tailnet && <OnTailnet away={away} tailnet={away.tailnet} />}
        </>
      )}
      <LinksAway reach={away.public_url ? 'internet' : away.tailnet ? 'tailnet' : 'home'} publicUrl={away.public_url} />
    </section>
  );
}

/** What the server saw of Tailscale at its last look, in a sentence. */
function Seen({ away }: { away: Away }) {
  const words = {
    running: (
      <>
        <strong>Tailscale is on.</strong> Family members with Tailscale on their phone open Hearth anywhere at the address below.
      </>
    ),
    not_running: (
      <>
        <strong>Tailscale is installed on this PC but not on</strong>
        {away.tailscale_detail ? ` (${away.tailscale_detail.replace(/\.$/, '')})` : ''}. Open it and sign in, then press Check it works.
      </>
    ),
    not_found: (
      <>
        <strong>Not set up yet.</strong> Away from home, phones can&rsquo;t reach Hearth. Follow the steps below.
      </>
    ),
    off: (
      <>
        <strong>Tailscale is turned off for Hearth</strong> (TAILSCALE=off in its settings): Hearth does not look for it.
      </>
    ),
  }[away.tailscale];
  return (
    <p className="away-seen" role="status">
      {words}
    </p>
  );
}

function OnTailnet({ away, tailnet }: { away: Away; tailnet: NonNullable<Away['tailnet']> }) {
  return (
    <>
      <div className="qr-and-text">
        <QrImage text={tailnet.url} label={`QR code of the Tailscale address ${tailnet.url}`} />
        <p className="muted qr-text">On a phone with Tailscale on, open this address in the browser, or point the camera at the code.</p>
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
        <p className="muted qr-text">Phones open it like any website.</p>
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
