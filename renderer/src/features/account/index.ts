export { AccountPage } from './AccountPage.tsx';
export { DrivePage } from './drive/DrivePage.tsx';
