// Lint: TypeScript rules, no I/O in the pure folders, no console outside the CLI. The
// dependency direction between folders and the no-cycle rule are checked by
// dependency-cruiser (.dependency-cruiser.cjs), also part of `npm run lint`.
import tseslint from 'typescript-eslint';

const ioModules = ['fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'net', 'node:net', 'http', 'node:http', 'https', 'node:https', 'child_process', 'node:child_process', 'webdriverio', 'openai', 'appium'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'runs/**', '.appium/**', 'coverage/**', 'tests/fixtures/**/*.js'] }, // fixtures' .js files are recorded data (DroidBot's utg.js), not code
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-empty': ['error', { allowEmptyCatch: false }],
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'No default exports: export by name, so a thing is called the same wherever it is imported.' }],
    },
  },
  {
    // A promise nobody awaits loses its failure and races what follows (a trace writer not
    // yet closed when its folder is read): type-aware, over the TypeScript project.
    files: ['src/**/*.ts', 'tests/**/*.ts', 'scripts/**/*.ts', 'vitest.config.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-console': 'error',
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['src/ui/**/*.ts', 'src/perception/**/*.ts', 'src/verify/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: ioModules.map((name) => ({ name, message: 'Pure folders (ui, perception, verify) import no I/O: receive data as parameters.' })),
      }],
    },
  },
  {
    files: ['eslint.config.js', 'vitest.config.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
