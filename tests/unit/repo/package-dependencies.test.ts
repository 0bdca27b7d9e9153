// package.json's dependency lists match what the shipped code loads: everything dist/
// imports at run time is a dependency (an installed senseact would otherwise fail with
// ERR_MODULE_NOT_FOUND), nothing in dependencies is there only for scripts or tests
// (every user would download it), and Appium, which only a user driving a device through
// an Appium server needs, stays an optional peer that `import 'senseact'` never loads.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkDependencies, readShippedImports, type PackageManifest, type ShippedImport } from '../../helpers/shipped-imports.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as PackageManifest;
const options = {
  // appium-server.ts transpiles the simulator's Appium driver with esbuild when a clone has it
  // (a dev tool) and uses the built dist/ otherwise.
  optionalTools: [{ name: 'esbuild', why: 'appium-server rebuilds the sim driver with it in a clone; an install uses dist/' }],
  // bin/senseact.js loads the compiled CLI through a URL (not a literal import).
  cliEntry: 'src/cli/main.ts',
  appiumEntry: 'appium-sim-driver/index.js',
};
let imports: Map<string, ShippedImport[]>;

beforeAll(() => {
  imports = readShippedImports(repoRoot);
});

function without(list: 'dependencies' | 'peerDependencies', name: string): PackageManifest {
  const entries = { ...manifest[list] };
  delete entries[name];
  return { ...manifest, [list]: entries };
}

describe('package.json dependencies against what the shipped code imports', () => {
  it('are right: every runtime import is a dependency, every dependency is used, Appium stays an optional peer', () => {
    expect(readFileSync(path.join(repoRoot, 'bin', 'senseact.js'), 'utf8')).toContain("'../dist/cli/main.js'");
    expect(checkDependencies(imports, manifest, options)).toEqual([]);
  });

  it('reads the imports the compiler keeps: static, dynamic, createRequire, type-only apart', () => {
    const of = (file: string): ShippedImport[] => imports.get(file) ?? [];
    expect(of('src/sim/appium-driver/source-document.ts')).toEqual(expect.arrayContaining([{ from: 'src/sim/appium-driver/source-document.ts', specifier: 'xpath', kind: 'require' }]));
    expect(of('src/device/appium-server.ts')).toEqual(expect.arrayContaining([expect.objectContaining({ specifier: 'esbuild', kind: 'dynamic' }), expect.objectContaining({ specifier: 'appium/package.json', kind: 'require' })]));
    expect(of('src/sim/appium-driver/sim-appium-driver.ts')).toEqual(expect.arrayContaining([expect.objectContaining({ specifier: '@appium/base-driver', kind: 'static' }), expect.objectContaining({ specifier: '@xmldom/xmldom', kind: 'type' })]));
    expect(of('appium-sim-driver/index.js')).toEqual([expect.objectContaining({ specifier: '../dist/sim/appium-driver/sim-appium-driver.js', kind: 'static' })]);
  });

  it('control: a runtime import missing from dependencies is named, with where it is imported', () => {
    expect(checkDependencies(imports, without('dependencies', 'zod'), options)).toEqual(expect.arrayContaining([expect.stringMatching(/^src\/.*: imports zod, which is not in dependencies$/)]));
    expect(checkDependencies(imports, without('dependencies', 'xpath'), options)).toEqual(['src/sim/appium-driver/source-document.ts: requires xpath, which is not in dependencies']);
    const esbuildUnlisted = { ...options, optionalTools: [] };
    expect(checkDependencies(imports, manifest, esbuildUnlisted)).toEqual(['src/device/appium-server.ts: import()s esbuild, which is not in dependencies']);
  });

  it('control: a dependency only scripts or tests use, and an optional peer the library loads, are named', () => {
    const withScriptDependency = { ...manifest, dependencies: { ...manifest.dependencies, 'fast-xml-parser': '^5.12.1' } };
    expect(checkDependencies(imports, withScriptDependency, options)).toEqual(['dependency fast-xml-parser is imported by no shipped file: move it to devDependencies']);
    // webdriverio as a peer: the Appium client loads it only when a session opens, but its types are in the public ones.
    const webdriverioAsPeer = { ...without('dependencies', 'webdriverio'), peerDependencies: { ...manifest.peerDependencies, webdriverio: '^9' }, peerDependenciesMeta: { ...manifest.peerDependenciesMeta, webdriverio: { optional: true } } };
    expect(checkDependencies(imports, webdriverioAsPeer, options)).toEqual(['src/device/appium-client.ts: the public types import webdriverio, which is not in dependencies']);
    // The driver Appium loads may use Appium's base driver; without the peer it is a missing dependency.
    expect(checkDependencies(imports, without('peerDependencies', '@appium/base-driver'), options)).toEqual([expect.stringMatching(/^src\/sim\/appium-driver\/sim-appium-driver\.ts: imports @appium\/base-driver, which is not in dependencies \(only in devDependencies\)$/)]);
    const requiredPeer = { ...manifest, peerDependenciesMeta: {} };
    expect(checkDependencies(imports, requiredPeer, options)).toEqual(expect.arrayContaining([expect.stringContaining('peer dependency appium is not optional')]));
  });

  it('control: a type the public entries expose from a package that is no dependency is named', () => {
    const synthetic = new Map<string, ShippedImport[]>([
      ['src/index.ts', [{ from: 'src/index.ts', specifier: './a.js', kind: 'static' }]],
      ['src/a.ts', [{ from: 'src/a.ts', specifier: '@types-only/pkg', kind: 'type' }, { from: 'src/a.ts', specifier: 'zod', kind: 'static' }]],
      ['src/cli/main.ts', []],
      ['appium-sim-driver/index.js', []],
    ]);
    const small: PackageManifest = { exports: { '.': { import: './dist/index.js' } }, dependencies: { zod: '^4' } };
    expect(checkDependencies(synthetic, small, options)).toEqual(['src/a.ts: the public types import @types-only/pkg, which is not in dependencies']);
    expect(checkDependencies(synthetic, { ...small, dependencies: { zod: '^4', '@types-only/pkg': '^1' } }, options)).toEqual([]);
  });
});
