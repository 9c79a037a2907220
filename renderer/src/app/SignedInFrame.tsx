import type { ReactNode } from 'react';
import { useSession } from '../api/useSession.ts';
import { UploadPanel } from '../features/upload/index.ts';
import { AppShell, type NavItem } from '../ui/AppShell.tsx';
import { LiveUpdates } from './LiveUpdates.tsx';

const NAV: NavItem[] = [
  { to: '/files', label: 'My files', icon: 'folder', primary: true },
  { to: '/account', label: 'Account', icon: 'person', primary: true },
];

/** Shown to owners only: devices to approve, people, storage, settings. */
const CONSOLE: NavItem = { to: '/console', label: 'Manage', icon: 'home', primary: true };

export function SignedInFrame({ children }: { children: ReactNode }) {
  const state = useSession();
  const isOwner = state.kind === 'signed-in' && state.user.role === 'admin';
  return (
    <AppShell nav={isOwner ? [...NAV, CONSOLE] : NAV}>
      <LiveUpdates />
      {children}
      <UploadPanel />
    </AppShell>
  );
}
