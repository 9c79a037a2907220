export { BackUpButtons, BackupCard, BackupStatus, CutBackupCard, CutBackupReminder } from './BackUpPhone.tsx';
