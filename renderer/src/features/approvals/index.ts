export { WaitingDevicesNotice } from './WaitingDevicesNotice.tsx';
export { useLivePendingDevices, usePendingDevices } from './queries.ts';
