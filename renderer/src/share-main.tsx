import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router';
import { PublicSharePage } from './features/public/index.ts';
import './ui/theme.css';

/*
 * The entry of share.html, which the server answers for /s/<token>: the link's page alone,
 * without the app's session, routes, uploads or service worker, so a visitor's phone loads
 * and runs a fraction of the app before it shows what was shared. Inside the app the same
 * page is a route of its own (App.tsx) for links opened there.
 */
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <Routes>
        <Route path="/s/:token" element={<PublicSharePage />} />
      </Routes>
    </BrowserRouter>
  </StrictMode>,
);
