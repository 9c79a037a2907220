import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/**
 * Layering enforced by the linter rather than memory: the server never reaches into the
 * desktop shell or the renderer, and services stay free of HTTP, socket and upload frameworks.
 */
const desktopAndUi = [
  { group: ['electron', 'electron/*'], message: 'server/ runs headless too: it never imports Electron.' },
  { group: ['**/main/**', '**/renderer/**'], message: 'server/ is a library; main/ and renderer/ depend on it, not the reverse.' },
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
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'electron', 'electron/*', '**/main/**'], message: 'The web app runs in a browser: it talks to the server over HTTP and the WebSocket only.' },
            { regex: '^(\\.\\./)+server/(?!src/contract/)', message: 'The web app may share only server/src/contract (types) with the server.' },
          ],
        },
      ],
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
  {
    // The store's engines (server/src/store/, whose own rule below replaces this one) alone load
    // better-sqlite3: everything else opens the database through store/db.ts, so it also runs on
    // node:sqlite (npm run test:node24, the desktop app).
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...desktopAndUi, { group: ['better-sqlite3'], message: 'Open the database through store/db.ts (openConnection, openDatabase): it runs on node:sqlite too.' }] },
      ],
    },
  },
  {
    // contract/ is what the web app shares with the server: it stands on zod and itself alone.
    files: ['server/src/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!zod$|\\./)', message: 'contract/ is shared with the web app: it imports zod and its own files only, nothing of the server.' }] },
      ],
    },
  },
  {
    files: ['server/src/services/**/*.ts', 'server/src/store/**/*.ts', 'server/src/events/**/*.ts', 'server/src/media/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...desktopAndUi,
            { group: ['koa', 'koa-*', '@koa/*', '**/http/**'], message: 'Services and stores know nothing of HTTP: return values, throw AppError.' },
            { group: ['ws', '**/ws/**'], message: 'Services publish events on the bus; the gateway owns sockets.' },
            { group: ['@tus/*', '**/uploads/**'], message: 'The upload protocol stays in uploads/; services see plain calls.' },
          ],
        },
      ],
    },
  },
  {
    // services/<domain>/: common/ is the floor every domain stands on, so it calls into none of
    // them (a type it carries for them, like ServiceDeps' password hasher, is not a call).
    files: ['server/src/services/common/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../identity/*', '../files/*', '../sharing/*', '../storage/*', '../server/*', '../index.ts'],
              allowTypeImports: true,
              message: 'services/common/ is what every domain uses: it imports no domain.',
            },
          ],
        },
      ],
    },
  },
);
