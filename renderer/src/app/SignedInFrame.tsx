import { lazy, Suspense, type ReactNode } from 'react';
import { useSession } from '../api/useSession.ts';
import { Spinner } from '../ui/Notice.tsx';
import { QuotaBar, UnsentBanner, UploadPanel } from '../kits/upload/index.ts';
import { StorageBanner } from '../features/storage/index.ts';
import { useLivePendingDevices, usePendingDevices, WaitingDevicesNotice } from '../features/approvals/index.ts';
import { NotificationBell, OpenedFromNotification } from '../kits/notifications/index.ts';
import { AppShell, type NavItem } from '../ui/AppShell.tsx';
import { ConnectionBanner } from './ConnectionBanner.tsx';
import { LiveUpdates } from './LiveUpdates.tsx';

/** Loaded after the page: the phone backup's code is Photos' own, and most pages never need it. */
const CutBackupReminder = lazy(() => import('../kits/phone-backup/index.ts').then((m) => ({ default: m.CutBackupReminder })));

const NAV: NavItem[] = [
  { to: '/files', label: 'My files', icon: 'folder', primary: true, within: ['/starred', '/recent', '/trash', '/private'] },
  // On a phone Albums is reached from Photos (its tab stays lit there): the bottom bar keeps four places.
  { to: '/gallery', label: 'Photos', icon: 'photo', primary: true, within: ['/albums', '/people'] },
  { to: '/albums', label: 'Albums', icon: 'albums' },
  { to: '/people', label: 'People', icon: 'person' },
  { to: '/shared', label: 'Shared', icon: 'people', primary: true },
  { to: '/starred', label: 'Favourites', icon: 'star' },
  { to: '/recent', label: 'Recent', icon: 'clock' },
  { to: '/trash', label: 'Trash', icon: 'trash' },
  { to: '/private', label: 'Private', icon: 'lock' },
  { to: '/account', label: 'Account', icon: 'person', primary: true },
];

/** Shown to owners only: devices to approve, people, storage, settings. */
const CONSOLE: NavItem = { to: '/console', label: 'Manage', icon: 'home', primary: true };

export function SignedInFrame({ children }: { children: ReactNode }) {
  const state = useSession();
  const isOwner = state.kind === 'signed-in' && state.user.role === 'admin';
  // A phone waiting for the owner's OK is counted on Manage wherever the owner is, as the tray does.
  useLivePendingDevices(isOwner);
  const waiting = usePendingDevices({ enabled: isOwner }).data?.length ?? 0;
  const manage = { ...CONSOLE, badge: waiting, badgeLabel: waiting === 1 ? 'device waiting' : 'devices waiting' };
  return (
    <AppShell nav={isOwner ? [...NAV, manage] : NAV} footer={<QuotaBar />} actions={<NotificationBell />}>
      <LiveUpdates />
      <OpenedFromNotification />
      <ConnectionBanner />
      <StorageBanner />
      {isOwner && <WaitingDevicesNotice />}
      <UnsentBanner />
      <Suspense fallback={null}>
        <CutBackupReminder />
      </Suspense>
      <Suspense fallback={<Spinner label="Loading" />}>{children}</Suspense>
      <UploadPanel />
    </AppShell>
  );
}
