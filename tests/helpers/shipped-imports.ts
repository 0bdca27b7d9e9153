// What the published package imports (what dist/ imports, read from src/ under the build's
// verbatimModuleSyntax), checked against package.json: the dependency lists of a package
// are only right when they match what its shipped code loads.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import ts from 'typescript';

/** One module specifier a shipped file names, and how it is loaded. */
export interface ShippedImport {
  readonly from: string;
  readonly specifier: string;
  /** `static`: import/export ... from; `dynamic`: import(); `require`: require()/createRequire()(), `.resolve()`; `type`: erased from the JS, kept in the .d.ts. */
  readonly kind: 'static' | 'dynamic' | 'require' | 'type';
}

/** The parts of package.json the check reads. */
export interface PackageManifest {
  readonly exports?: Record<string, string | { readonly import?: string; readonly types?: string }>;
  readonly bin?: Record<string, string>;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>;
}

/** A module the shipped code may load only when it is there, and says so when it is not. */
export interface OptionalTool {
  readonly name: string;
  readonly why: string;
}

/**
 * Every import of the files a user gets that run: src/ as emitted to dist/, bin/*.js, and
 * the Appium driver's entry. Paths are relative to the repository, dist/ paths mapped back
 * to src/ so one file is one node.
 */
export function readShippedImports(repoRoot: string): Map<string, ShippedImport[]> {
  // With verbatimModuleSyntax the compiler keeps every import and export as written except
  // those marked `type`, so the source says exactly what dist/ imports (no build needed, and
  // a stale dist/ cannot mislead).
  const config = ts.getParsedCommandLineOfConfigFile(path.join(repoRoot, 'tsconfig.build.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => { throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')); } });
  if (config?.options.verbatimModuleSyntax !== true) throw new Error('tsconfig.build.json no longer sets verbatimModuleSyntax: read the imports from the emitted JavaScript instead');
  const files = new Map<string, ShippedImport[]>();
  for (const file of listFiles(path.join(repoRoot, 'src')).filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))) {
    const relative = path.relative(repoRoot, file);
    files.set(relative, importsOf(relative, readFileSync(file, 'utf8'), ts.ScriptKind.TS));
  }
  for (const file of [...listFiles(path.join(repoRoot, 'bin')), path.join(repoRoot, 'appium-sim-driver', 'index.js')].filter((name) => name.endsWith('.js'))) {
    const relative = path.relative(repoRoot, file);
    files.set(relative, importsOf(relative, readFileSync(file, 'utf8'), ts.ScriptKind.JS));
  }
  return files;
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or undefined for a relative path or a Node builtin. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/')) return undefined;
  if (specifier.startsWith('node:') || builtinModules.includes(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * What is wrong with the manifest's dependency lists for these imports, one line each:
 * - code a user's `import 'senseact'`, `senseact/sim`, `senseact/testing` or the CLI loads
 *   statically may use only `dependencies` (an optional peer may be absent);
 * - the Appium driver entry (loaded by Appium, so Appium is there) may also use peers;
 * - a dynamic import or require of anything else must be a listed optional tool;
 * - every `dependencies` entry is used by some shipped file (else it belongs in
 *   devDependencies), and types of the public entries name only dependencies.
 */
export function checkDependencies(imports: ReadonlyMap<string, readonly ShippedImport[]>, manifest: PackageManifest, options: { readonly optionalTools: readonly OptionalTool[]; readonly cliEntry: string; readonly appiumEntry: string }): string[] {
  const problems: string[] = [];
  const dependencies = new Set(Object.keys(manifest.dependencies ?? {}));
  const peers = new Set(Object.keys(manifest.peerDependencies ?? {}));
  const optionalTools = new Set(options.optionalTools.map((tool) => tool.name));
  const packageEntries = [...exportEntries(manifest), options.cliEntry];
  for (const entry of [...packageEntries, options.appiumEntry]) if (!imports.has(entry)) problems.push(`entry ${entry} is not a shipped file`);

  const reach = (entries: readonly string[], follow: (kind: ShippedImport['kind']) => boolean): Set<string> => {
    const seen = new Set<string>();
    const queue = entries.filter((entry) => imports.has(entry));
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const entry of imports.get(file) ?? []) {
        if (!follow(entry.kind) || packageOf(entry.specifier) !== undefined || entry.specifier.startsWith('node:')) continue;
        const target = resolveRelative(file, entry.specifier);
        if (imports.has(target)) queue.push(target);
        else problems.push(`${file}: ${entry.specifier} resolves to no shipped file (${target})`);
      }
    }
    return seen;
  };
  const loadedByUsers = reach(packageEntries, (kind) => kind !== 'type');
  const loadedByAppium = reach([options.appiumEntry], (kind) => kind !== 'type');
  const publicTypes = reach(exportEntries(manifest), () => true);

  const used = new Set<string>();
  for (const [file, entries] of imports) {
    for (const entry of entries) {
      const name = packageOf(entry.specifier);
      if (name === undefined || name === 'senseact') continue;
      used.add(name);
      if (entry.kind === 'type') {
        if (publicTypes.has(file) && !dependencies.has(name)) problems.push(`${file}: the public types import ${entry.specifier}, which is not in dependencies`);
        continue;
      }
      const where = `${file}: ${entry.kind === 'static' ? 'imports' : entry.kind === 'dynamic' ? 'import()s' : 'requires'} ${entry.specifier}`;
      if (dependencies.has(name)) continue;
      // A dynamic import or require can be guarded (the code says what to install when it fails).
      if (entry.kind !== 'static' && (optionalTools.has(name) || peers.has(name))) continue;
      if (peers.has(name)) {
        if (loadedByUsers.has(file)) problems.push(`${where}, a peer dependency a user may not have, and import 'senseact' (or the CLI) loads this file`);
        else if (!loadedByAppium.has(file)) problems.push(`${where}, a peer dependency, from a file no entry loads`);
        continue;
      }
      problems.push(`${where}, which is not in dependencies${manifest.devDependencies?.[name] === undefined ? '' : ' (only in devDependencies)'}`);
    }
  }
  for (const name of dependencies) if (!used.has(name)) problems.push(`dependency ${name} is imported by no shipped file: move it to devDependencies`);
  for (const name of peers) {
    if (!used.has(name)) problems.push(`peer dependency ${name} is imported by no shipped file`);
    if (manifest.peerDependenciesMeta?.[name]?.optional !== true) problems.push(`peer dependency ${name} is not optional: every install would pull it for the few who drive Appium`);
  }
  return problems;
}

/** The src/ files behind the `import` targets of package.json `exports`. */
function exportEntries(manifest: PackageManifest): string[] {
  return Object.values(manifest.exports ?? {})
    .map((target) => (typeof target === 'string' ? target : target.import))
    .filter((target): target is string => target !== undefined && target.endsWith('.js'))
    .map((target) => distToSrc(path.normalize(target)));
}

function resolveRelative(from: string, specifier: string): string {
  return distToSrc(path.normalize(path.join(path.dirname(from), specifier)));
}

function distToSrc(file: string): string {
  return file.startsWith(`dist${path.sep}`) ? `src${file.slice(4).replace(/\.js$/, '.ts')}` : file.startsWith('src') ? file.replace(/\.js$/, '.ts') : file;
}

function importsOf(from: string, text: string, kind: ts.ScriptKind): ShippedImport[] {
  const source = ts.createSourceFile(from, text, ts.ScriptTarget.Latest, false, kind);
  const found: ShippedImport[] = [];
  const literal = (node: ts.Node | undefined): string | undefined => (node !== undefined && ts.isStringLiteralLike(node) ? node.text : undefined);
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && literal(node.moduleSpecifier) !== undefined) {
      const typeOnly = ts.isImportDeclaration(node) ? node.importClause?.isTypeOnly === true : node.isTypeOnly;
      found.push({ from, specifier: literal(node.moduleSpecifier)!, kind: typeOnly ? 'type' : 'static' });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && literal(node.argument.literal) !== undefined) {
      found.push({ from, specifier: literal(node.argument.literal)!, kind: 'type' });
    } else if (ts.isCallExpression(node) && literal(node.arguments[0]) !== undefined) {
      const specifier = literal(node.arguments[0])!;
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) found.push({ from, specifier, kind: 'dynamic' });
      else if (isRequire(node.expression)) found.push({ from, specifier, kind: 'require' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `require`, `require.resolve`, `createRequire(...)` and `createRequire(...).resolve`. */
function isRequire(callee: ts.Expression): boolean {
  const base = ts.isPropertyAccessExpression(callee) && callee.name.text === 'resolve' ? callee.expression : callee;
  if (ts.isIdentifier(base)) return base.text === 'require';
  return ts.isCallExpression(base) && ts.isIdentifier(base.expression) && base.expression.text === 'createRequire';
}

function listFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? listFiles(path.join(folder, entry.name)) : [path.join(folder, entry.name)]));
}
