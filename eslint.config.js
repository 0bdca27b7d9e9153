// Lint: TypeScript rules plus the dependency direction of DESIGN.md §2, so the layering
// stays true without anyone remembering it.
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';

const layers = ['util', 'ui', 'perception', 'verify', 'memory', 'device', 'sim', 'model', 'agent', 'tasks', 'bench', 'trace', 'report', 'cli'];

/** Which src/ folders each folder may import from (besides itself). */
const allowed = {
  util: [],
  ui: ['util'],
  perception: ['ui', 'util'],
  verify: ['perception', 'ui', 'util'],
  memory: ['verify', 'perception', 'ui', 'util'],
  sim: ['util'],
  device: ['sim', 'ui', 'util'],
  model: ['util'],
  trace: ['util'],
  tasks: ['verify', 'perception', 'ui', 'util'],
  agent: ['perception', 'verify', 'memory', 'model', 'device', 'trace', 'tasks', 'ui', 'util'],
  report: ['trace', 'perception', 'verify', 'ui', 'util'],
  bench: ['agent', 'tasks', 'device', 'sim', 'model', 'memory', 'trace', 'report', 'perception', 'verify', 'ui', 'util'],
  cli: layers.filter((layer) => layer !== 'cli'),
};

const zones = Object.entries(allowed)
  .map(([target, from]) => ({
    target: `./src/${target}`,
    from: layers.filter((layer) => layer !== target && !from.includes(layer)).map((layer) => `./src/${layer}`),
    message: `DESIGN.md §2: src/${target} may import only from ${from.length ? from.join(', ') : 'itself'}.`,
  }))
  .filter((zone) => zone.from.length > 0);

const ioModules = ['fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'net', 'node:net', 'http', 'node:http', 'https', 'node:https', 'child_process', 'node:child_process', 'webdriverio', 'openai', 'appium'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'runs/**', '.appium/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-empty': ['error', { allowEmptyCatch: false }],
      'import-x/no-default-export': 'error',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      'import-x/no-cycle': ['error', { maxDepth: 8 }],
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
    rules: { 'import-x/no-default-export': 'off' },
  },
);
