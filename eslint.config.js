import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** One config object per engine layer forbidding imports of the layers above it. */
function layerRules(layers) {
  return layers.map(({ layer, above }) => ({
    files: [`src/main/engine/${layer}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron'],
          patterns: above.map((upper) => ({
            group: [`**/${upper}/**`, `../${upper}/*`, `./${upper}/*`],
            message: `engine/${layer} is below engine/${upper}: it may not import it (DESIGN §2).`,
          })),
        },
      ],
    },
  }));
}

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
  // Layers of the engine (DESIGN §2), each depending only on the ones below it:
  //   text → store → vector → upstream → memory → server (composition at the engine root).
  // A file of a layer may not import a layer above it. Tests are exempt (they build the
  // whole stack).
  ...layerRules([
    { layer: 'text', above: ['store', 'vector', 'upstream', 'memory', 'server'] },
    { layer: 'store', above: ['vector', 'upstream', 'memory', 'server'] },
    { layer: 'vector', above: ['upstream', 'memory', 'server'] },
    { layer: 'upstream', above: ['store', 'vector', 'memory', 'server'] },
    { layer: 'memory', above: ['server'] },
  ]),
  {
    // Transactions belong to the store: the memory layer and the routes call repositories
    // that open them, never db.transaction themselves.
    files: ['src/main/engine/memory/**/*.ts', 'src/main/engine/server/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='transaction']",
          message: 'Open transactions in store/ (a repository function), not here.',
        },
      ],
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
      // The renderer talks to the engine over HTTP only: it imports src/shared, never src/main.
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron'],
          patterns: [
            { group: ['node:*'], message: 'The renderer runs in the browser: no Node built-ins.' },
            { group: ['**/main/**'], message: 'The renderer imports only src/shared (DESIGN §1).' },
          ],
        },
      ],
    },
  },
);
