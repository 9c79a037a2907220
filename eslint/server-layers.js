import { allowLists } from './allow-lists.js';

const S = '^server/src/';
const at = (pattern) => new RegExp(`${S}${pattern}`);
const BASE = ['base', 'contract'];
const STORE = ['store', 'store/database', 'store/content', 'store/archives', 'store/data-dir', 'store/common'];
const DOMAINS = [
  'services/common',
  'services/identity',
  'services/files',
  'services/photos',
  'services/sharing',
  'services/storage',
  'services/backup',
  'services/server',
  'services/notifications',
];

/**
 * What each part of the server may import. A request goes route → service → store, events flow
 * from services to the gateway, and the domains build on each other one way (identity ← files ←
 * photos ← sharing; backup on files), so that a new domain or front is a new folder and one line
 * here. A file is the first layer that takes it.
 */
export const serverLayers = allowLists('server', {
  contract: { files: at('contract/'), why: 'contract/ is shared with the web app.' },
  base: { files: at('(app-error|log|config|config-values|web-dir|start-refused)\\.ts$'), may: ['contract'] },
  'store/database': { files: at('store/database/'), may: BASE, why: 'The database keeps rows, nothing else.' },
  'store/common': { files: at('store/common/'), may: BASE },
  'store/content': { files: at('store/content/'), may: [...BASE, 'store/common', 'store/database'] },
  'store/data-dir': { files: at('store/data-dir/'), may: [...BASE, 'store/common', 'store/content', 'store/database'] },
  'store/archives': { files: at('store/archives/'), may: [...BASE, 'store/common', 'store/data-dir'] },
  store: { files: at('store/index\\.ts$'), may: [...BASE, 'store/database'], why: 'store/index.ts makes the repositories.' },
  events: { files: at('events/'), may: BASE },
  platform: { files: at('platform/'), may: BASE, why: 'platform/ runs OS commands for whoever asks, and asks no one.' },
  media: { files: at('media/'), may: [...BASE, 'platform'] },
  // The composition: services/index.ts, parts.ts and each domain's compose.ts make the services.
  services: {
    files: at('services/(index|parts|[\\w-]+/compose)\\.ts$'),
    may: [...BASE, 'events', 'media', 'platform', ...STORE, ...DOMAINS],
  },
  'services/common': {
    files: at('services/common/'),
    may: [...BASE, 'events', 'store/database'],
    types: ['store', 'services/identity'],
    why: 'Every domain stands on services/common: it calls none (ServiceDeps carries the password hasher and the token signer, as types).',
  },
  'services/identity': {
    files: at('services/identity/'),
    may: [...BASE, 'events', 'store/database', 'store/common', 'services/common'],
    types: ['store', 'services/server'],
  },
  'services/files': {
    files: at('services/files/'),
    may: [...BASE, 'events', 'media', ...STORE, 'services/common', 'services/identity'],
    types: ['services/server', 'services/storage'],
    why: 'Photos is built on files, never the reverse: files asks photos through ports (PhotoPorts in files/compose.ts).',
  },
  'services/photos': {
    files: at('services/photos/'),
    may: [...BASE, 'events', 'media', 'platform', ...STORE, 'services/common', 'services/identity', 'services/files'],
    types: ['services/server', 'services/storage'],
  },
  'services/sharing': {
    files: at('services/sharing/'),
    may: [...BASE, 'events', ...STORE, 'services/common', 'services/identity', 'services/files', 'services/photos'],
  },
  'services/storage': { files: at('services/storage/'), may: [...BASE, 'events', 'platform', ...STORE, 'services/common'] },
  'services/backup': {
    files: at('services/backup/'),
    may: [...BASE, 'events', ...STORE, 'services/common', 'services/files', 'services/storage'],
    types: ['services/identity'],
  },
  'services/server': {
    files: at('services/server/'),
    may: [...BASE, 'events', 'platform', ...STORE, 'services/common', 'services/storage', 'services/backup'],
    types: ['services/identity'],
  },
  'services/notifications': {
    files: at('services/notifications/'),
    may: [...BASE, 'events', ...STORE, 'services/common'],
    why: 'Notifications hear the other domains through their events, and call none of them.',
  },
  jobs: {
    files: at('jobs/'),
    may: [...BASE, 'events', 'services', ...DOMAINS],
    why: 'Jobs call services as routes do, without a request.',
  },
  http: {
    files: at('http/'),
    may: [...BASE, 'platform', 'uploads', 'services', ...DOMAINS],
    why: 'Routes are thin: they call services, never the store.',
  },
  uploads: { files: at('uploads/'), may: [...BASE, 'http', 'services', ...DOMAINS] },
  ws: { files: at('ws/'), may: [...BASE, 'events', 'http', 'services/identity'], why: 'The gateway hears events and checks sessions.' },
  'home-network': {
    files: at('home-network/'),
    may: [...BASE, 'events', 'http', 'jobs', 'platform', 'lifecycle', 'services/server', 'store/data-dir'],
  },
  lifecycle: { files: at('lifecycle\\.ts$'), may: BASE },
  // The server's areas and its front hall wire everything above.
  areas: {
    files: at('areas/'),
    may: [...BASE, 'events', 'http', 'jobs', 'lifecycle', 'media', 'platform', 'home-network', 'ws', 'services', ...DOMAINS, ...STORE],
  },
  root: {
    files: at('[\\w-]+\\.ts$'),
    may: [...BASE, 'areas', 'events', 'lifecycle', 'home-network', 'jobs', 'ws', 'services', ...DOMAINS, ...STORE],
  },
});
