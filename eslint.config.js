// Lint rules: the recommended JavaScript and TypeScript sets, with Node globals, and the layer boundaries of docs/architecture.md.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

// Queries run only in *.store.ts files and src/db/: no query builder call and no raw SQL anywhere else.
const QUERY_METHODS = ['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'transaction'];
const STORES_AND_DB = ['src/**/*.store.ts', 'src/db/**'];
const RAW_SQL = {
  name: 'kysely',
  importNames: ['sql'],
  message: 'Raw SQL runs only in *.store.ts files and src/db/.',
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', 'web/src/api/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The dashboard runs in the browser (docs/dashboard.md): browser globals and the rules of hooks.
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Every error code is a factory in the one catalog (src/http/error-catalog.ts); nothing builds an AppError by hand.
    files: ['src/**/*.ts'],
    ignores: ['src/http/error-catalog.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='AppError']",
          message: 'Use a factory from errors (src/http/error-catalog.ts).',
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: STORES_AND_DB,
    rules: {
      'no-restricted-properties': [
        'error',
        ...QUERY_METHODS.map((property) => ({
          property,
          message: "Queries run only in *.store.ts files and src/db/: call the owning module's store.",
        })),
      ],
      'no-restricted-imports': ['error', { paths: [RAW_SQL] }],
    },
  },
  {
    // http/ is plumbing under every module: it may not reach into a domain's tables.
    files: ['src/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [RAW_SQL],
          patterns: [
            {
              regex: '\\.store(\\.js)?$',
              message: 'http/ depends on no store: take a lookup function from the context.',
            },
          ],
        },
      ],
    },
  },
  {
    // A module's routes call services; only their own module's store is within reach.
    files: ['src/modules/**/*.routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [RAW_SQL],
          patterns: [
            { regex: '^\\.\\./.*\\.store(\\.js)?$', message: "Routes call services, never another module's store." },
          ],
        },
      ],
    },
  },
);
