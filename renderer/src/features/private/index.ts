import { lazy } from 'react';

// Loaded when first opened: most visits never open Private.
export const PrivatePage = lazy(() => import('./PrivatePage.tsx').then((m) => ({ default: m.PrivatePage })));
