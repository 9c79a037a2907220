import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { dropThumbnails } from '../api/thumbnails.ts';
import { session } from '../api/session.ts';
import { useSession } from '../api/useSession.ts';
import { AppSetupPage, ForcedPasswordPage, RecoverPage, RegisterPage, SignInPage } from '../features/auth/index.ts';
import { albumDialogs, AlbumPage, AlbumsPage } from '../features/albums/index.ts';
import { BrowsePage } from '../features/files/index.ts';
import { NotificationsPage } from '../kits/notifications/index.ts';
import { SharedLinksPage, SharedWithMePage } from '../features/share/index.ts';
import { HiddenPeoplePage, PeoplePage, PersonPage } from '../features/people/index.ts';
import { PrivatePage } from '../features/private/index.ts';
import { uploadQueue } from '../kits/upload/index.ts';
import { Spinner } from '../ui/Notice.tsx';
import { queryClient } from '../api/queryClient.ts';
import { SignedInFrame } from './SignedInFrame.tsx';
import { StartPage } from './StartPage.tsx';

// Screens most visits never open load when first needed, keeping the first screen small.
const AccountPage = lazy(() => import('../features/account/index.ts').then((m) => ({ default: m.AccountPage })));
const DrivePage = lazy(() => import('../features/account/index.ts').then((m) => ({ default: m.DrivePage })));
const loadGallery = () => import('../features/gallery/index.ts');
const GalleryPage = lazy(() => loadGallery().then((m) => ({ default: m.GalleryPage })));
// Opened at Photos (a reload, the installed app's start): its files download while the session is
// restored, not after it, one round trip less before the first photo shows. Asked for in a task of
// its own, before the first render's (main.tsx): the links it adds to the page would lengthen the
// task a phone is busiest in.
if (location.pathname.startsWith('/gallery')) setTimeout(() => void loadGallery());
// Opened from the phone's Share sheet ("Share → Hearth"), never from the app's own pages.
const SaveSharedPage = lazy(() => import('../features/share-target/index.ts').then((m) => ({ default: m.SaveSharedPage })));
// The owner's pages: a family phone never downloads them.
const ConsolePages = lazy(() => import('../features/console/index.ts').then((m) => ({ default: m.ConsolePages })));
// Loaded only by visitors of a link, who have no account and need none of the app.
const PublicSharePage = lazy(() => import('../features/public/index.ts').then((m) => ({ default: m.PublicSharePage })));

const loading = (
  <div className="center-page">
    <Spinner label="Loading" />
  </div>
);

// Nothing of one account stays in memory for the next person on this device.
let wasSignedIn = false;
session.subscribe(() => {
  const kind = session.current().kind;
  if (kind === 'signed-out' && wasSignedIn) {
    queryClient.clear();
    dropThumbnails();
    uploadQueue.reset();
  }
  wasSignedIn = kind === 'signed-in';
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <Suspense fallback={loading}>
          <Routes>
            {/* A link's public page never restores, refreshes or sends the session of this browser. */}
            <Route
              path="/s/:token"
              element={
                <Suspense fallback={<Opening label="Opening the link" />}>
                  <PublicSharePage />
                </Suspense>
              }
            />
            {/* Opened from the Connect page's QR code on a phone no one has signed in on yet. */}
            <Route
              path="/app-setup"
              element={
                <Suspense fallback={<Opening label="Opening" />}>
                  <AppSetupPage />
                </Suspense>
              }
            />
            <Route path="*" element={<AppRoutes />} />
          </Routes>
        </Suspense>
      </BrowserRouter>
    </QueryClientProvider>
  );
}

function Opening({ label }: { label: string }) {
  return (
    <div className="center-page">
      <Spinner label={label} />
    </div>
  );
}

function AppRoutes() {
  useEffect(() => {
    void session.restore();
  }, []);
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
        <Route path="/recover" element={<RecoverPage />} />
        <Route path="*" element={<SignInPage reason={state.reason} />} />
      </Routes>
    );
  }
  if (state.user.must_change_password) return <ForcedPasswordPage />;
  return (
    <SignedInFrame>
      <Routes>
        <Route path="/" element={<StartPage />} />
        {/* A new member, just registered at their invite: Photos and its "Back up this phone", not an empty My files. */}
        <Route path="/invite/:code" element={<Navigate to="/gallery" replace />} />
        <Route path="/files" element={<BrowsePage kind="folder" />} />
        <Route path="/files/:folderId" element={<BrowsePage kind="folder" />} />
        {/* Photos offers the albums' dialogs for a selection: the gallery itself knows no albums. */}
        <Route path="/gallery/:nodeId?" element={<GalleryPage albumDialogs={albumDialogs} />} />
        <Route path="/albums" element={<AlbumsPage />} />
        <Route path="/people" element={<PeoplePage />} />
        <Route path="/people/hidden" element={<HiddenPeoplePage />} />
        <Route path="/people/:personId/:nodeId?" element={<PersonPage albumDialogs={albumDialogs} />} />
        <Route path="/albums/:albumId/:nodeId?" element={<AlbumPage />} />
        <Route path="/starred" element={<BrowsePage kind="starred" />} />
        <Route path="/recent" element={<BrowsePage kind="recent" />} />
        <Route path="/shared" element={<SharedWithMePage />} />
        <Route path="/shared/links" element={<SharedLinksPage />} />
        <Route path="/trash" element={<BrowsePage kind="trash" />} />
        <Route path="/private/:nodeId?" element={<PrivatePage />} />
        <Route path="/search" element={<BrowsePage kind="search" />} />
        <Route path="/account" element={<AccountPage />} />
        <Route path="/account/drive" element={<DrivePage />} />
        <Route path="/notifications" element={<NotificationsPage />} />
        <Route path="/shared-with-hearth" element={<SaveSharedPage />} />
        <Route path="/console/*" element={<ConsolePages />} />
        <Route path="*" element={<Navigate to="/files" replace />} />
      </Routes>
    </SignedInFrame>
  );
}
