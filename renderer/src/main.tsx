import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { registerServiceWorker } from './app/serviceWorker.ts';
import { sharesFollowSession } from './app/sharesFollowSession.ts';
import { followScrolling } from './ui/scrollPosition.ts';
import './ui/theme.css';

// The first render waits for the next task: evaluating the app's code and drawing its first
// screen in one go would hold a slow phone's main thread too long to answer a tap.
setTimeout(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);

followScrolling();
registerServiceWorker();
sharesFollowSession();
