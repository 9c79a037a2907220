export { StorageBanner } from './StorageBanner.tsx';
