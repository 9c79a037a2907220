import { Navigate, Route, Routes } from 'react-router';
import { useSession } from '../../api/useSession.ts';
import { BackupsPage } from './backups/BackupsPage.tsx';
import { FirstBackupPage } from './backups/FirstBackupPage.tsx';
import { DevicesPage } from './devices/DevicesPage.tsx';
import { OnlyOwnerPage } from './OnlyOwnerPage.tsx';
import { PeoplePage } from './people/PeoplePage.tsx';
import { ConnectPage } from './settings/ConnectPage.tsx';
import { SettingsPage } from './settings/SettingsPage.tsx';
import { StatusPage } from './settings/StatusPage.tsx';
import { StoragePage } from './storage/StoragePage.tsx';

/** `/console/*`: the owner's pages. The server refuses members anyway; this says so in words. */
export function ConsolePages() {
  const state = useSession();
  if (state.kind !== 'signed-in') return null;
  if (state.user.role !== 'admin') return <OnlyOwnerPage />;
  return (
    <Routes>
      {/* Absolute: a relative target resolves against the whole address, and /console/drives would grow without end. */}
      <Route index element={<Navigate to="/console/devices" replace />} />
      <Route path="first-backup" element={<FirstBackupPage />} />
      <Route path="welcome" element={<ConnectPage welcome />} />
      <Route path="connect" element={<ConnectPage />} />
      <Route path="devices" element={<DevicesPage />} />
      <Route path="people" element={<PeoplePage />} />
      <Route path="storage" element={<StoragePage />} />
      <Route path="backups" element={<BackupsPage />} />
      <Route path="settings" element={<SettingsPage />} />
      <Route path="status" element={<StatusPage />} />
      <Route path="*" element={<Navigate to="/console/devices" replace />} />
    </Routes>
  );
}
