export { WaitingDevicesNotice } from './WaitingDevicesNotice.tsx';
export { approvalKeys, useLivePendingDevices, usePendingDevices } from './queries.ts';
