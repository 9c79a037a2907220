export { BackUpButtons, BackupCard, BackupStatus } from './BackUpPhone.tsx';
