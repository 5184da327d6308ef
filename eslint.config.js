// Lint rules: the recommended JavaScript and TypeScript sets, with Node globals.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
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
);
