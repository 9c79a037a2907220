export { BackUpButtons, BackupCard, BackupStatus, CutBackupCard, CutBackupReminder } from './BackUpPhone.tsx';
export { PhoneBackupSection } from './PhoneBackupSection.tsx';
export { backupDestination, type Destination } from './destination.ts';
export { AddPhotos } from './AddPhotos.tsx';
export { useIsPhone } from '../../ui/useIsPhone.ts';
