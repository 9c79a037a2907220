import { Link } from 'react-router';
import { useSession } from '../../../api/useSession.ts';
import { CopyField } from '../../../ui/CopyField.tsx';
import { Icon } from '../../../ui/Icon.tsx';
import { driveAddress } from './drive-address.ts';
import { DrivePasswords } from './DrivePasswords.tsx';
import { DriveSteps } from './DriveSteps.tsx';
import '../account.css';
import './drive.css';

/**
 * Account → Use Hearth as a drive: the address a computer connects to, the steps for each
 * system, and the drive passwords those computers sign in with (issue 34).
 */
export function DrivePage() {
  const state = useSession();
  if (state.kind !== 'signed-in') return null;
  const address = driveAddress(location.origin);
  return (
    <>
      <div className="topbar">
        <Link className="btn btn-quiet btn-icon" to="/account" aria-label="Back to Account" title="Back to Account">
          <Icon name="back" />
        </Link>
        <h1>Use Hearth as a drive</h1>
      </div>
      <div className="sections">
        <section className="card section" aria-labelledby="drive-address-title">
          <h2 id="drive-address-title">Connect a computer</h2>
          <p className="muted">
            Your Hearth files can show up on a computer like a USB stick: open, save and drag files without a browser. It shows your own
            files, and what the family shares with you in a folder called Shared with me.
          </p>
          <CopyField label="The drive's address" value={address.url} />
          <AddressNotes secure={address.secure} thisComputerOnly={address.thisComputerOnly} />
          <DriveSteps address={address} username={state.user.username} />
        </section>
        <DrivePasswords />
      </div>
    </>
  );
}

function AddressNotes({ secure, thisComputerOnly }: { secure: boolean; thisComputerOnly: boolean }) {
  return (
    <>
      {thisComputerOnly && (
        <p className="muted">
          This address works on this PC only. Other computers use the address they open Hearth at, with /dav/ at the end.
        </p>
      )}
      {!secure && !thisComputerOnly && (
        <p className="muted">
          This address starts with http://, so what a computer sends over it is not encrypted: use it at home only. Windows needs the
          https:// address (see Windows below).
        </p>
      )}
    </>
  );
}
