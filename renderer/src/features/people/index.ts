import { lazy } from 'react';

// Loaded when first opened: People is no part of the first screen.
export const PeoplePage = lazy(() => import('./PeoplePage.tsx').then((m) => ({ default: m.PeoplePage })));
