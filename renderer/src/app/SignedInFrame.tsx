import type { ReactNode } from 'react';
import { UploadPanel } from '../features/upload/index.ts';
import { AppShell, type NavItem } from '../ui/AppShell.tsx';
import { LiveUpdates } from './LiveUpdates.tsx';

const NAV: NavItem[] = [
  { to: '/files', label: 'My files', icon: 'folder', primary: true },
  { to: '/photos', label: 'Photos', icon: 'photo', primary: true },
  { to: '/account', label: 'Account', icon: 'person', primary: true },
];

export function SignedInFrame({ children }: { children: ReactNode }) {
  return (
    <AppShell nav={NAV}>
      <LiveUpdates />
      {children}
      <UploadPanel />
    </AppShell>
  );
}
