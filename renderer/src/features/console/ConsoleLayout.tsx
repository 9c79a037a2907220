import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { BackupNotice } from './backups/BackupNotice.tsx';
import { usePendingDevices } from './devices/queries.ts';
import { useConsoleEvents } from './useConsoleEvents.ts';
import './console.css';

const PAGES = [
  { to: '/console/devices', label: 'Devices' },
  { to: '/console/people', label: 'People' },
  { to: '/console/storage', label: 'Storage' },
  { to: '/console/backups', label: 'Backups' },
  { to: '/console/connect', label: 'Connect phones' },
  { to: '/console/settings', label: 'Settings' },
  { to: '/console/status', label: 'Status' },
];

/** The owner's pages: a row of tabs on top (two rows on a phone), then the page. */
export function ConsoleLayout({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  useConsoleEvents();
  const pending = usePendingDevices();
  const waiting = pending.data?.length ?? 0;
  return (
    <div className="console">
      <nav className="console-tabs" aria-label="Manage Hearth">
        {PAGES.map((page) => (
          <NavLink key={page.to} to={page.to} className="chip console-tab">
            {page.label}
            {page.to === '/console/devices' && waiting > 0 && (
              <span className="console-badge">
                {waiting}
                <span className="visually-hidden"> waiting</span>
              </span>
            )}
          </NavLink>
        ))}
      </nav>
      <BackupNotice />
      <div className="topbar">
        <h1>{title}</h1>
        {actions}
      </div>
      {children}
    </div>
  );
}
