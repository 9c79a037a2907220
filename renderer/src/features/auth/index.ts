export { SignInPage } from './SignInPage.tsx';
export { ForcedPasswordPage } from './ForcedPasswordPage.tsx';
export { messageOf } from './login.ts';
