// Lists the functions of src/ longer than a number of lines, longest first: function
// declarations, methods, constructors, accessors, function expressions and arrow
// functions, each counted from its first line to its last (a nested function counts in
// its parent too, and is listed on its own when it is long itself).
//
//   npx tsx scripts/function-lengths.ts [--min 100] [--exclude src/sim/] [--exclude …] [dir or file]
//
// The style asks for functions about a screen long; docs/architecture.md §7 has the map.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import ts from 'typescript';

interface LongFunction {
  readonly file: string;
  readonly line: number;
  readonly name: string;
  readonly lines: number;
}

function sourceFiles(dir: string): string[] {
  if (statSync(dir).isFile()) return [dir];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(source);
  if (ts.isCallExpression(parent)) return `<callback of ${parent.expression.getText(source).slice(0, 40)}>`;
  return '<anonymous>';
}

function longFunctions(file: string, min: number): LongFunction[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > min) found.push({ file, line: first + 1, name: nameOf(node, source), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const { values, positionals } = parseArgs({
  options: { min: { type: 'string', default: '100' }, exclude: { type: 'string', multiple: true, default: [] } },
  allowPositionals: true,
});
const min = Number(values.min);
if (!Number.isInteger(min) || min < 1) throw new Error(`--min ${values.min}: give a whole number of lines, e.g. --min 100`);
const root = positionals[0] ?? 'src';
const excluded = values.exclude;
const rows = sourceFiles(root)
  .filter((file) => !excluded.some((prefix) => file.startsWith(prefix)))
  .flatMap((file) => longFunctions(file, min))
  .sort((a, b) => b.lines - a.lines);
for (const row of rows) console.log(`${String(row.lines).padStart(5)}  ${row.name}  ${row.file}:${row.line}`);
console.log(`${rows.length} function(s) over ${min} lines in ${root}${excluded.length > 0 ? ` (excluding ${excluded.join(', ')})` : ''}`);
