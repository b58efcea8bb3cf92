import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layerRules } from './eslint/layers.js';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  // No arrow up, no circle: which folder of src/ may import which (eslint/layers.js).
  ...layerRules(),
  {
    // One memory of verified passwords per process, for every door that signs in by password.
    files: ['src/**/*.ts'],
    ignores: ['src/core.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "NewExpression[callee.name='PasswordDoor']",
        message: 'The core builds the one PasswordDoor (core.passwords); a door takes it, so a password verified at one door is remembered once.',
      }],
    },
  },
  {
    // Plain JavaScript scripts run under Node.js.
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: globals.node },
  },
  {
    // The web console runs in the browser.
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
  },
  {
    // Measurement scripts report on the terminal.
    files: ['scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Tests read loosely typed JSON bodies; `any` there keeps assertions readable.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
