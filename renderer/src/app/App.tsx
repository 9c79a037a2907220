import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { dropThumbnails } from '../api/thumbnails.ts';
import { session } from '../api/session.ts';
import { useSession } from '../api/useSession.ts';
import { AccountPage } from '../features/account/index.ts';
import { ForcedPasswordPage, RegisterPage, SignInPage } from '../features/auth/index.ts';
import { FilesPage } from '../features/files/index.ts';
import { GalleryPage } from '../features/gallery/index.ts';
import { Spinner } from '../ui/Notice.tsx';
import { queryClient } from './queryClient.ts';
import { SignedInFrame } from './SignedInFrame.tsx';

// Nothing of one account stays in memory for the next person on this device.
let wasSignedIn = false;
session.subscribe(() => {
  const kind = session.current().kind;
  if (kind === 'signed-out' && wasSignedIn) {
    queryClient.clear();
    dropThumbnails();
  }
  wasSignedIn = kind === 'signed-in';
});

export function App() {
  useEffect(() => {
    void session.restore();
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </QueryClientProvider>
  );
}

function AppRoutes() {
  const state = useSession();

  if (state.kind === 'restoring') {
    return (
      <div className="center-page">
        <Spinner label="Opening Hearth" />
      </div>
    );
  }
  if (state.kind === 'signed-out') {
    return (
      <Routes>
        <Route path="/invite/:code" element={<RegisterPage />} />
        <Route path="*" element={<SignInPage reason={state.reason} />} />
      </Routes>
    );
  }
  if (state.user.must_change_password) return <ForcedPasswordPage />;
  return (
    <SignedInFrame>
      <Routes>
        <Route path="/" element={<Navigate to="/files" replace />} />
        <Route path="/files" element={<FilesPage />} />
        <Route path="/files/:folderId" element={<FilesPage />} />
        <Route path="/photos/:nodeId?" element={<GalleryPage />} />
        <Route path="/account" element={<AccountPage />} />
        <Route path="*" element={<Navigate to="/files" replace />} />
      </Routes>
    </SignedInFrame>
  );
}
