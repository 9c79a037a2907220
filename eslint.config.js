import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import { serverLayers } from './eslint/server-layers.js';
import { webLayers } from './eslint/web-layers.js';

/**
 * Layering enforced by the linter rather than memory: the server never reaches into the
 * desktop shell or the renderer, and services stay free of HTTP, socket and upload frameworks.
 */
const desktopAndUi = [
  { group: ['electron', 'electron/*'], message: 'server/ runs headless too: it never imports Electron.' },
  { group: ['**/main/**', '**/renderer/**'], message: 'server/ is a library; main/ and renderer/ depend on it, not the reverse.' },
];

/** The web app runs in a browser, and shares nothing with the server but the contract. */
const browserOnly = [
  {
    group: ['node:*', 'electron', 'electron/*', '**/main/**'],
    message: 'The web app runs in a browser: it talks to the server over HTTP and the WebSocket only.',
  },
  { regex: '^(\\.\\./)+server/(?!src/contract/)', message: 'The web app may share only server/src/contract (types) with the server.' },
];

/**
 * A web app feature is used through its index.ts, the door it chooses to open: behind it, its
 * files are its own, so it can move or split them without breaking another feature. Inside a
 * feature (console/people/ from console/settings/) anything goes. What several features use is
 * a kit (kits/<name>/), with a door of its own; a kit stands on api/, ui/ and other kits, never
 * on a feature or app/, so features compose kits and only app/ composes features. A pattern sees
 * only the import's text, so there is one per depth of the importing file; import() is checked too.
 */
const DOOR =
  'Features use each other only through their index.ts: import from "<feature>/index.ts" and export what is needed there, or move a piece several features share to a kit (kits/<name>/).';
const KIT_DOOR = 'Kits are used only through their index.ts: import from "kits/<kit>/index.ts" and export what is needed there.';
const KIT_STANDS_ON =
  'A kit is what several features stand on: it imports api/, ui/ and other kits (through their index.ts), never a feature or app/.';
const STANDS_ON = 'api/ and ui/ are what features and kits stand on: they import no feature and no kit.';
const WORKER_ALONE =
  'service-worker/ is bundled into /sw.js on its own: it imports nothing of the app (no feature, kit, app/, api/ or ui/), only its own modules, which the app may use.';
const doorPattern = (up) => `^${up}[\\w-]+/(?!index\\.ts$)`;
/** Each rule is [pattern, message]: the import's text matching the pattern is refused with the message. */
const importRules = (files, ...rules) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: [...browserOnly, ...rules.map(([regex, message]) => ({ regex, message }))] }],
    // esquery's regex cannot hold a slash: \x2F stands for one.
    'no-restricted-syntax': [
      'error',
      ...rules.map(([pattern, message]) => ({ selector: `ImportExpression[source.value=/${pattern.replaceAll('/', '\\x2F')}/]`, message })),
    ],
  },
});
const UP = '\\.\\./';
const featureDoors = [
  importRules(['renderer/src/*.{ts,tsx}'], [doorPattern('\\./features/'), DOOR], [doorPattern('\\./kits/'), KIT_DOOR]),
  importRules(['renderer/src/app/**/*.{ts,tsx}'], [doorPattern(`${UP}features/`), DOOR], [doorPattern(`${UP}kits/`), KIT_DOOR]),
  importRules(['renderer/src/features/*/*.{ts,tsx}'], [doorPattern(UP), DOOR], [doorPattern(`${UP}${UP}kits/`), KIT_DOOR]),
  importRules(['renderer/src/features/*/*/*.{ts,tsx}'], [doorPattern(UP + UP), DOOR], [doorPattern(`${UP}${UP}${UP}kits/`), KIT_DOOR]),
  importRules(['renderer/src/kits/*/*.{ts,tsx}'], [doorPattern(UP), KIT_DOOR], ['(^|/)(features|app)/', KIT_STANDS_ON]),
  importRules(['renderer/src/kits/*/*/*.{ts,tsx}'], [doorPattern(UP + UP), KIT_DOOR], ['(^|/)(features|app)/', KIT_STANDS_ON]),
  importRules(['renderer/src/{api,ui}/**/*.{ts,tsx}'], ['(^|/)(features|kits)/', STANDS_ON]),
  importRules(['renderer/src/service-worker/**/*.ts'], ['(^|/)(features|kits|app|api|ui)/', WORKER_ALONE]),
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'dist-electron/**', 'release/**', 'data/**', 'renderer/dist/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Plain Node scripts that run before anything is compiled.
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // Playwright fixtures declare their dependencies by destructuring, even when there are none.
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    files: ['renderer/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs['recommended-latest'].rules,
      'no-restricted-imports': ['error', { patterns: browserOnly }],
      // The response schemas are zod, which the web app does not bundle: it takes their types only.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/src/contract/*-responses.ts', '**/server/src/contract/page.ts'],
              allowTypeImports: true,
              message: 'These hold zod schemas: `import type` their types (the web app does not bundle zod).',
            },
          ],
        },
      ],
    },
  },
  ...featureDoors,
  {
    // The store's engines (server/src/store/, whose own rule below replaces this one) alone load
    // better-sqlite3: everything else opens the database through store/database/db.ts, so it also runs on
    // node:sqlite (npm run test:node24, the desktop app).
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...desktopAndUi,
            {
              group: ['better-sqlite3'],
              message: 'Open the database through store/database/db.ts (openConnection, openDatabase): it runs on node:sqlite too.',
            },
          ],
        },
      ],
    },
  },
  {
    // contract/ is what the web app shares with the server: it stands on zod and itself alone.
    files: ['server/src/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod$|\\./)',
              message: 'contract/ is shared with the web app: it imports zod and its own files only, nothing of the server.',
            },
          ],
        },
      ],
    },
  },
  {
    // jobs/ call services the way routes do, without a request: they too know no HTTP or socket.
    files: [
      'server/src/services/**/*.ts',
      'server/src/store/**/*.ts',
      'server/src/events/**/*.ts',
      'server/src/media/**/*.ts',
      'server/src/jobs/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...desktopAndUi,
            {
              group: ['koa', 'koa-*', '@koa/*'],
              message: 'Services and stores know nothing of HTTP: return values, throw AppError.',
            },
            { group: ['ws'], message: 'Services publish events on the bus; the gateway owns sockets.' },
            { group: ['@tus/*'], message: 'The upload protocol stays in uploads/; services see plain calls.' },
          ],
        },
      ],
    },
  },
  {
    // Which of the server's own folders each part may import, and the web app's: allow-lists
    // (eslint/server-layers.js, eslint/web-layers.js). The packages each part may not use are above.
    files: ['server/src/**/*.ts'],
    plugins: serverLayers.plugins,
    rules: { [serverLayers.rule]: 'error' },
  },
  {
    files: ['renderer/src/**/*.{ts,tsx}'],
    plugins: webLayers.plugins,
    rules: { [webLayers.rule]: 'error' },
  },
  {
    // No import circle: a circle is two modules that can only change together. Type-only
    // imports leave no trace at run time and are not followed.
    files: ['server/src/**/*.ts', 'renderer/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
      // The modules a circle runs through are read with TypeScript's parser too.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Small files, one concern each, and functions a reader holds in mind.
    files: ['server/src/**/*.ts', 'renderer/src/**/*.{ts,tsx}', 'main/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}', 'main/test/**', 'renderer/src/api/schema.d.ts'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 120 }],
    },
  },
);
