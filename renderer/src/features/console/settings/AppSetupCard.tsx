import { QrImage } from '../QrImage.tsx';
import { CopyField } from '../../../ui/CopyField.tsx';
import { HomeCertificate } from './HomeCertificate.tsx';

/**
 * "Make Hearth an app on each phone": the QR code of the guided page (`/app-setup`) at the
 * address phones use now. It must be plain HTTP: the phone does not trust Hearth's certificate
 * before that page has walked it through installing it. Below it, the certificate's fingerprint
 * to compare with the phone's, and a new certificate when this one needs replacing.
 */
export function AppSetupCard({ address, numberAddress }: { address: string; numberAddress: string | null }) {
  const url = new URL('app-setup', address).toString();
  return (
    <section className="card console-card" aria-labelledby="app-setup-title">
      <h2 id="app-setup-title">Make Hearth an app on each phone</h2>
      <p className="muted">
        Once per phone, a few taps: Hearth gets an icon on the home screen, appears in the Share menu of the phone’s photos, and opens over
        a private connection. Point the phone’s camera at the code and follow the steps.
      </p>
      <div className="qr-and-text">
        <QrImage text={url} label={`QR code of the page that makes Hearth an app: ${url}`} />
      </div>
      <CopyField label="Page for phones" value={url} />
      <HomeCertificate fallbackAddress={numberAddress} />
    </section>
  );
}
