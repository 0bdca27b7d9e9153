// The package's public surface is deliberate: `senseact` (src/index.ts) and
// `senseact/testing` (src/testing.ts) list every name they export, and the list is
// snapshotted in public-api.snapshot.txt. Adding, renaming or removing a public name fails
// here until the snapshot is updated in the same commit (the message says how), so a
// change to what users import is never a side effect. `senseact/bench` and `senseact/sim`
// are folder barrels for the lower-level building blocks and are not snapshotted.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const entries = { senseact: 'src/index.ts', 'senseact/testing': 'src/testing.ts' } as const;
const updateHint = 'The public API changed. If that is deliberate, update the snapshot in the same commit: npx vitest run tests/unit/repo/public-api.test.ts -u (then review the diff of tests/unit/repo/public-api.snapshot.txt)';

interface ExportedName {
  readonly name: string;
  readonly kind: 'value' | 'type';
}

/** The names an entry file exports, read from its syntax; throws on `export *`, which would hide what is public. */
function exportedNames(file: string, text: string): ExportedName[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const names: ExportedName[] = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement)) {
      const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
      if (modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) throw new Error(`${file}: declare nothing in an entry file; re-export it by name from its module`);
      continue;
    }
    const clause = statement.exportClause;
    if (clause === undefined || !ts.isNamedExports(clause)) throw new Error(`${file}: \`export *\` hides what is public: list the names (${statement.getText(source)})`);
    for (const element of clause.elements) names.push({ name: element.name.text, kind: statement.isTypeOnly || element.isTypeOnly ? 'type' : 'value' });
  }
  return names;
}

function readEntry(file: string): string {
  return readFileSync(path.join(repoRoot, file), 'utf8');
}

/** The snapshot's text: per entry, `value X` / `type Y` lines in order. */
function snapshotText(read: (file: string) => string = readEntry): string {
  return Object.entries(entries).map(([entry, file]) => {
    const names = exportedNames(file, read(file));
    const lines = names.map((exported) => `${exported.kind} ${exported.name}`).sort((a, b) => a.localeCompare(b));
    return [`# ${entry} (${file}): ${names.filter((exported) => exported.kind === 'value').length} values, ${names.filter((exported) => exported.kind === 'type').length} types`, ...lines].join('\n');
  }).join('\n\n') + '\n';
}

describe('the public API', () => {
  it('is the snapshotted list of names', async () => {
    await expect(snapshotText(), updateHint).toMatchFileSnapshot('./public-api.snapshot.txt');
  });

  it('holds what the README and a library user start from', () => {
    // Values and types are told apart by syntax; `verbatimModuleSyntax` (npm run typecheck) rejects a type re-exported as a value.
    const names = exportedNames('src/index.ts', readEntry('src/index.ts'));
    const values = names.filter((exported) => exported.kind === 'value').map((exported) => exported.name);
    expect(values).toEqual(expect.arrayContaining(['SenseActAgent', 'runTask', 'runBenchmark', 'parseHierarchy', 'perceive', 'computeDelta', 'parsePredicate', 'evaluatePredicate', 'createDevice', 'OpenAiLanguageModel', 'loadSuite', 'SenseActError', 'DeviceError']));
    expect(names.filter((exported) => exported.kind === 'type').map((exported) => exported.name)).toEqual(expect.arrayContaining(['Device', 'LanguageModel', 'VisionModel', 'UiTree', 'Perception', 'Predicate', 'Task']));
  });

  it('negative control: an `export *` or a new name is caught', () => {
    expect(() => exportedNames('index.ts', "export * from './bench/index.js';")).toThrow(/export \*.*list the names/);
    expect(() => exportedNames('index.ts', 'export const leaked = 1;')).toThrow(/declare nothing/);
    expect(exportedNames('index.ts', "export { a, type B } from './a.js';\nexport type { C } from './c.js';")).toEqual([{ name: 'a', kind: 'value' }, { name: 'B', kind: 'type' }, { name: 'C', kind: 'type' }]);
    // A name added to the entry no longer matches the stored snapshot.
    const stored = readFileSync(path.join(import.meta.dirname, 'public-api.snapshot.txt'), 'utf8');
    const grown = snapshotText((file) => readEntry(file) + (file === 'src/index.ts' ? "export { renderPanel } from './report/screen-drawing.js';\n" : ''));
    expect(grown).not.toBe(stored);
    expect(grown).toContain('value renderPanel');
  });
});
