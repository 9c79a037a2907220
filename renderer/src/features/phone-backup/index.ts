export { BackUpButtons, BackupCard, BackupStatus } from './BackUpPhone.tsx';
export { PhoneBackupSection } from './PhoneBackupSection.tsx';
