import { useQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { useNavigate } from 'react-router';
import { meQuery } from '../../api/queries.ts';
import { session } from '../../api/session.ts';
import { useSession } from '../../api/useSession.ts';
import { Button } from '../../ui/Button.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { PhoneBackupSection } from '../../kits/phone-backup/index.ts';
import { QuotaBar } from '../../kits/upload/index.ts';
import { NotificationSettingsSection } from '../../kits/notifications/index.ts';
import { DevicesSection } from './DevicesSection.tsx';
import { DriveSection } from './DriveSection.tsx';
import { PartnersSection } from './PartnersSection.tsx';
import { PasswordSection } from './PasswordSection.tsx';
import { PrivatePinSection } from './PrivatePinSection.tsx';
import { PhoneStartSection } from './PhoneStartSection.tsx';
import { ProfileSection } from './ProfileSection.tsx';
import { TwoFactorSection } from './TwoFactorSection.tsx';
import './account.css';

/** The account: name, password, two-step sign-in, sharing one's photos, where a phone opens and backs up, using Hearth as a drive, devices, and the way out. */
export function AccountPage() {
  const state = useSession();
  const me = useQuery(meQuery);
  const navigate = useNavigate();
  if (state.kind !== 'signed-in') return null;
  return (
    <>
      <div className="topbar">
        <h1>Account</h1>
        <Button icon="logout" onClick={() => void session.signOut().then(() => navigate('/'))}>
          Sign out
        </Button>
      </div>
      {me.isPending && <Spinner label="Loading your account" />}
      {me.isError && <Notice tone="error">{me.error.message}</Notice>}
      {me.data && (
        <div className="sections">
          <section className="card section" aria-labelledby="storage-title">
            <h2 id="storage-title">Storage</h2>
            <QuotaBar />
          </section>
          <ProfileSection displayName={me.data.display_name} username={me.data.username} />
          <PasswordSection />
          <TwoFactorSection enabled={me.data.totp_enabled} />
          <PrivatePinSection />
          <PartnersSection userId={state.user.id} />
          <PhoneStartSection value={me.data.phone_start} />
          <Suspense fallback={null}>
            <NotificationSettingsSection isOwner={state.user.role === 'admin'} />
          </Suspense>
          <PhoneBackupSection userId={state.user.id} />
          <DriveSection />
          <DevicesSection />
        </div>
      )}
    </>
  );
}
