import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import tseslint from 'typescript-eslint';

/**
 * Dependencies point one way. Server: routes → services → repositories/adapters; a module
 * reaches another only through its service (or presenter, catalogue) and only modules listed
 * before it in SERVER_MODULES, so modules never form a cycle.
 * Web: app → features → hooks, lib and components; a feature never imports another feature
 * (the app's routes and layouts compose them), and hooks, lib and components import no
 * feature and not the app.
 */
const restrict = (files, patterns) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } });

/**
 * The contract's modules without schemas. The web app imports values only from these (types
 * from any module), so TypeBox, which the server's validation needs, never reaches a browser.
 */
const SCHEMA_FREE_CONTRACT = [
  'validation',
  'format',
  'languages',
  'settings-defaults',
  'app-password-limits',
  'passkey-limits',
  'sort-keys',
];
const CONTRACT_IS_SHARED = {
  group: ['**/apps/**', 'node:*', 'react', 'fastify'],
  message: 'The contract is shared: schemas and pure logic only.',
};

const webFeatures = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/**
 * The server's feature modules, in the one direction they may depend on each other: a
 * module imports only from modules listed before it, so two modules can never import each
 * other. A new folder under modules/ must be placed here (lint stops until it is).
 */
const SERVER_MODULES = [
  'plans',
  'metrics',
  'activity',
  'mail',
  'settings',
  'notifications',
  'changes',
  'accounts',
  'account-tokens',
  'single-sign-on',
  'two-factor',
  'passkeys',
  'app-passwords',
  'profile',
  'downloads',
  'folders',
  'files',
  'shares',
  'trash',
  'versions',
  'thumbnails',
  'stars',
  'recent',
  'analytics',
  'billing',
  'account-data',
  'storage-upkeep',
  'resumable-uploads',
  'sync',
  'dav',
  'admin',
  'health',
  'web',
];
const MODULES_DIR = 'apps/server/src/modules';
const unplaced = readdirSync(MODULES_DIR).filter((name) => !SERVER_MODULES.includes(name));
if (unplaced.length > 0) throw new Error(`eslint.config.js: place ${unplaced.join(', ')} in SERVER_MODULES`);
/** What a module shows the others: its services and pure files (presenters, the plan catalogue), and the downloads module's links and responses. */
const MODULE_PUBLIC_FILES = [
  '**/*.service.ts',
  '**/*.presenter.ts',
  '**/*.catalogue.ts',
  '**/modules/downloads/download-links.ts',
  '**/modules/downloads/download-responses.ts',
];
const moduleBoundaries = SERVER_MODULES.flatMap((name, index) => {
  const target = `${MODULES_DIR}/${name}/**`;
  const later = SERVER_MODULES.slice(index + 1);
  return [
    {
      target,
      from: `${MODULES_DIR}/!(${name})/**`,
      except: MODULE_PUBLIC_FILES,
      message: 'Another module is reached through its service (or presenter, catalogue), never its routes, repository or internals.',
    },
    ...(later.length > 0
      ? [
          {
            target,
            from: later.map((other) => `${MODULES_DIR}/${other}/**`),
            message: `${name} may import only modules listed before it in SERVER_MODULES (eslint.config.js): no cycle between modules.`,
          },
        ]
      : []),
  ];
});

export default tseslint.config(
  // build/ as .gitignore has it: the addon's objects, and older server bundles kept for A/B benches (bench/zip-cost.ts).
  { ignores: ['**/node_modules/**', '**/dist/**', '**/build/**', 'data/**', '.test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // No file imports one that (through others) imports it back. This rule skips type-only
    // imports; `madge --circular` in npm run lint counts those too (.madgerc).
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json', 'e2e/tsconfig.json', 'bench/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    // virtual: modules are made by Vite plugins at build time (apps/web/vite-plugins).
    rules: { 'import-x/no-cycle': 'error', 'import-x/no-unresolved': ['error', { ignore: ['^virtual:'] }] },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // Test helpers read loosely typed JSON bodies on purpose.
    files: ['apps/server/test/**/*.ts', 'e2e/**/*.ts', '**/*.test.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Migrations are typed against no schema (Kysely's advice): the schema changes under them.
    files: ['apps/server/src/db/migrat*/**', 'apps/server/src/db/migrate.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  restrict(['packages/contract/**'], [CONTRACT_IS_SHARED]),
  // The sync client ships on its own (npm install -g): no server or web code, and of the
  // contract only the schema-free rules it bundles (names and their keys).
  restrict(
    ['apps/sync/src/**', 'apps/sync/bin/**'],
    [
      {
        group: ['**/apps/server/**', '**/apps/web/**', '@cloudvault/server*', '@cloudvault/web*'],
        message: 'The sync client talks to the server over HTTP only.',
      },
      {
        group: ['@cloudvault/contract/*', '!@cloudvault/contract/validation', '!@cloudvault/contract/format'],
        message: "Only the contract's schema-free rules reach the client.",
      },
    ],
  ),
  restrict(
    SCHEMA_FREE_CONTRACT.map((name) => `packages/contract/src/${name}.ts`),
    [CONTRACT_IS_SHARED, { group: ['typebox', 'typebox/*'], message: 'The web app bundles this module: it holds values, not schemas.' }],
  ),
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@cloudvault/contract/*', ...SCHEMA_FREE_CONTRACT.map((name) => `!@cloudvault/contract/${name}`)],
              allowTypeImports: true,
              message: `Only types come from the contract's schema modules, so TypeBox stays out of the browser; values come from ${SCHEMA_FREE_CONTRACT.join(', ')}.`,
            },
          ],
        },
      ],
    },
  },
  restrict(
    ['apps/server/src/lib/**'],
    [{ group: ['**/modules/**', '**/container*', '**/app*'], message: 'lib is generic: it never knows features.' }],
  ),
  restrict(
    ['apps/server/src/db/migrations/**'],
    [{ group: ['../**', '!kysely'], message: 'Migrations are frozen: they never import app code.' }],
  ),
  {
    files: [`${MODULES_DIR}/**/*.ts`],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: moduleBoundaries }] },
  },
  restrict(
    ['apps/server/src/modules/**/*.repository.ts'],
    [{ group: ['**/*.service*', '**/*.routes*'], message: 'Repositories hold queries only.' }],
  ),
  restrict(['apps/server/src/modules/**/*.service.ts'], [{ group: ['**/*.routes*', 'fastify'], message: 'Services know no HTTP.' }]),
  {
    // The container builds services in the order they need each other: a closure that calls
    // one declared further down would bring back the late binding its one real cycle names.
    files: ['apps/server/src/container.ts'],
    rules: { '@typescript-eslint/no-use-before-define': ['error', { functions: false, typedefs: false }] },
  },
  {
    // One zone per web feature, read from the folders so a new feature is covered at once.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            ...webFeatures.map((feature) => ({
              target: `./apps/web/src/features/${feature}`,
              from: './apps/web/src/features',
              except: [`./${feature}`],
              message: 'A feature never imports another: move what they share to hooks/ or lib/, or compose them in app/.',
            })),
            { target: './apps/web/src/features', from: './apps/web/src/app', message: 'Features do not import the app shell.' },
            {
              target: ['./apps/web/src/components', './apps/web/src/hooks', './apps/web/src/lib'],
              from: ['./apps/web/src/features', './apps/web/src/app'],
              message: 'Shared code knows no feature and not the app.',
            },
          ],
        },
      ],
    },
  },
);
