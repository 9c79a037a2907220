export { ConsolePages } from './ConsolePages.tsx';
