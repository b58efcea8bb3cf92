import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layerRules } from './eslint/layers.js';

const SITE_ADMIN_DECISION = 'Decide authority in src/access/ (a policy function there), not on siteAdmin here: see docs/architecture.md, "Where a rule lives".';
const siteAdminDecisions = [
  { selector: "MemberExpression[property.name='siteAdmin'][object.name=/^(caller|subject)$/]", message: SITE_ADMIN_DECISION },
  { selector: "MemberExpression[property.name='siteAdmin'][object.property.name=/^(caller|subject)$/]", message: SITE_ADMIN_DECISION },
];
const onePasswordDoor = {
  selector: "NewExpression[callee.name='PasswordDoor']",
  message: 'The core builds the one PasswordDoor (core.passwords); a door takes it, so a password verified at one door is remembered once.',
};

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
  // Two rules written with no-restricted-syntax, which ESLint takes from the last block that sets
  // it for a file: so each file gets the rules that apply to it from exactly one block below.
  // - Authority is decided in access/ over the engine in authz/ (docs/architecture.md): whether a
  //   caller is a Site Administrator is one of its questions, asked there only, so that what a
  //   credential may do (its confinement included) is decided in one place for every door.
  //   Rendering a user's own site_admin field reads `user.siteAdmin`, which is no decision.
  // - One memory of verified passwords per process, for every door that signs in by password:
  //   only the core builds the PasswordDoor.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/access/**', 'src/authz/**', 'src/core.ts'],
    rules: { 'no-restricted-syntax': ['error', ...siteAdminDecisions, onePasswordDoor] },
  },
  {
    files: ['src/access/**/*.ts', 'src/authz/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', onePasswordDoor] },
  },
  {
    files: ['src/core.ts'],
    rules: { 'no-restricted-syntax': ['error', ...siteAdminDecisions] },
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
