import type { ReactNode } from 'react';
import type { DriveAddress } from './drive-address.ts';

/** An address in code style. A narrow phone breaks it after its scheme, not inside "/dav/". */
function At({ children }: { children: string }) {
  const [scheme, rest] = children.split('://');
  return (
    <span className="drive-mono drive-at">
      {rest === undefined ? (
        children
      ) : (
        <>
          {scheme}://
          <wbr />
          {rest}
        </>
      )}
    </span>
  );
}

function SignIn({ username, start }: { username: string; start?: boolean }) {
  return (
    <>
      {start ? 'Sign in' : 'sign in'} with your username <strong className="drive-mono">{username}</strong> and a drive password (make one
      below)
    </>
  );
}

function System({ name, children }: { name: string; children: ReactNode }) {
  return (
    <details className="drive-system">
      <summary>{name}</summary>
      <div className="drive-system-body">{children}</div>
    </details>
  );
}

/**
 * How each system connects, one closed disclosure each so the page stays calm: a parent opens
 * only their own. The words name what each system shows on screen, menu by menu.
 */
export function DriveSteps({ address, username }: { address: DriveAddress; username: string }) {
  const signIn = <SignIn username={username} />;
  return (
    <div className="drive-systems">
      <System name="Mac">
        <ol>
          <li>In Finder, open the Go menu and choose Connect to Server…</li>
          <li>
            Paste <At>{address.url}</At> and click Connect.
          </li>
          <li>Choose Registered User, and {signIn}.</li>
          <li>Hearth opens in Finder, under Locations. Drag photos and files in and out.</li>
        </ol>
      </System>
      <System name="Windows">
        <ol>
          <li>Open File Explorer, right-click This PC and choose Map network drive…</li>
          <li>
            In Folder, paste <At>{address.httpsUrl}</At> and click Finish.
          </li>
          <li>When Windows asks, {signIn}.</li>
        </ol>
        <p className="muted">
          If Windows says the folder is not valid, click “Connect to a website that you can use to store your documents and pictures” in the
          same window and paste the address there.
        </p>
        <p className="muted">
          Windows signs in only to an address starting with https://
          {address.secure ? '.' : ', and only once this computer trusts Hearth’s certificate.'} It also refuses files over 50 MB until that
          is changed. Whoever looks after the PC finds how in “Use Hearth as a drive” in Hearth’s README.
        </p>
      </System>
      <System name="Linux">
        <ol>
          <li>In Files, choose Other Locations.</li>
          <li>
            In Connect to Server, type <At>{address.filesUrl}</At> and click Connect.
          </li>
          <li>
            <SignIn username={username} start />.
          </li>
        </ol>
        <p className="muted">Or mount it with davfs2: the README says how.</p>
      </System>
      <System name="Phones and tablets">
        <p>
          An app that opens WebDAV drives (such as Documents on an iPhone or Solid Explorer on Android) can add Hearth: choose WebDAV, paste{' '}
          <At>{address.url}</At>, and {signIn}. To back up a phone’s photos, use Back up this phone in Photos instead.
        </p>
      </System>
      <System name="rclone (for whoever looks after the PC)">
        <ol>
          <li>
            Run <span className="drive-mono">rclone config</span> and make a new remote of type <span className="drive-mono">webdav</span>.
          </li>
          <li>
            URL <At>{address.url}</At>, vendor <span className="drive-mono">other</span>, user{' '}
            <span className="drive-mono">{username}</span>.
          </li>
          <li>For the password, paste a drive password.</li>
        </ol>
      </System>
    </div>
  );
}
