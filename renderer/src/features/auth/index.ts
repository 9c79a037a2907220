import { lazy } from 'react';

export { SignInPage } from './SignInPage.tsx';
export { ForcedPasswordPage } from './ForcedPasswordPage.tsx';
export { messageOf } from './login.ts';
// Pages most visits never open load when first needed, keeping the first screen small.
export const RegisterPage = lazy(() => import('./RegisterPage.tsx').then((m) => ({ default: m.RegisterPage })));
export const RecoverPage = lazy(() => import('./RecoverPage.tsx').then((m) => ({ default: m.RecoverPage })));
export const AppSetupPage = lazy(() => import('./AppSetupPage.tsx').then((m) => ({ default: m.AppSetupPage })));
