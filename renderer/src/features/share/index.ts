import { lazy } from 'react';

// The links page loads when first opened, so a phone that only browses its files never downloads it.
export const SharedLinksPage = lazy(() => import('./SharedLinksPage.tsx').then((m) => ({ default: m.SharedLinksPage })));
// Shared with me: what others share, light enough for the first visit of the Shared tab.
export const SharedWithMePage = lazy(() => import('./SharedWithMePage.tsx').then((m) => ({ default: m.SharedWithMePage })));
