export { SignInPage } from './SignInPage.tsx';
export { RegisterPage } from './RegisterPage.tsx';
export { ForcedPasswordPage } from './ForcedPasswordPage.tsx';
export { messageOf } from './login.ts';
