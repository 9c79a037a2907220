import { allowLists } from './allow-lists.js';

const R = '^renderer/src/';
const at = (pattern) => new RegExp(`${R}${pattern}`);
const FLOOR = ['api', 'ui', 'contract'];
const KITS = ['kits/viewer', 'kits/folders', 'kits/sharing', 'kits/upload', 'kits/phone-backup', 'kits/photos', 'kits/notifications'];
const kit = (name, ...others) => ({ files: at(`kits/${name}/`), may: [...FLOOR, ...others.map((other) => `kits/${other}`)] });

/**
 * What each part of the web app may import. api/ and ui/ are the floor; a kit (what several
 * features use) stands on the floor and on the kits it names, so kits never form a circle; a
 * feature stands on the floor and kits and imports no other feature; only app/ composes
 * features. A new kit or feature is a new folder and one line here.
 */
export const webLayers = allowLists('web', {
  // Tests take fakes from testing/ and whatever they test.
  tests: { files: /^renderer\/src\/.*\.test\.tsx?$/, may: ['testing', ...FLOOR, 'service-worker', 'app', 'features', ...KITS] },
  contract: { files: /^server\/src\/contract\// },
  testing: { files: at('testing/'), may: FLOOR },
  api: { files: at('api/'), may: ['contract'], why: 'api/ is the floor: the client, the session, the server state several features read.' },
  ui: { files: at('ui/'), may: ['api', 'contract'], why: 'ui/ is the design system, on the api/ floor.' },
  'service-worker': { files: at('service-worker/'), why: 'It is bundled into /sw.js on its own.' },
  'kits/viewer': kit('viewer'),
  'kits/folders': kit('folders'),
  'kits/sharing': kit('sharing'),
  'kits/upload': kit('upload'),
  'kits/phone-backup': kit('phone-backup', 'folders', 'upload'),
  'kits/photos': kit('photos', 'folders', 'viewer'),
  'kits/notifications': kit('notifications'),
  features: {
    files: at('features/'),
    may: [...FLOOR, 'service-worker', ...KITS],
    why: 'A feature imports no other feature: what two share moves to a kit, and app/ composes features.',
  },
  app: { files: at('app/'), may: [...FLOOR, 'service-worker', 'features', 'kits/upload', 'kits/phone-backup', 'kits/notifications'] },
  entries: { files: at('[\\w-]+\\.tsx?$'), may: ['app', 'features', ...FLOOR] },
});
