import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules', 'out', 'dist', 'release', 'coverage', 'test-results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The engine runs under plain Node: it must never reach for Electron (DESIGN §1).
    files: ['src/main/engine/**', 'src/shared/**', 'src/main/cli.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['electron'] }],
    },
  },
  {
    // src/shared is used by the renderer too: no Node built-ins there.
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: ['electron'], patterns: ['node:*', 'fs', 'path', 'crypto'] },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { paths: ['electron'], patterns: ['node:*'] }],
    },
  },
);
