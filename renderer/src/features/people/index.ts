import { lazy } from 'react';

// Loaded when first opened: People is no part of the first screen.
export const PeoplePage = lazy(() => import('./PeoplePage.tsx').then((m) => ({ default: m.PeoplePage })));
export const PersonPage = lazy(() => import('./PersonPage.tsx').then((m) => ({ default: m.PersonPage })));
export const HiddenPeoplePage = lazy(() => import('./HiddenPeoplePage.tsx').then((m) => ({ default: m.HiddenPeoplePage })));
