// The package as a user gets it: `npm pack`, installed into an empty project with nothing
// beside it, the CLI runs a benchmark there, and the README's "As a library" example is
// type-checked against the published types and run. The npm cache has every dependency
// after `npm ci`, so the install needs no network.
//
// Packing and installing take a minute or more on two busy cores, so `npm test` skips this
// file unless SENSEACT_PACK_TEST=1; .ci/run runs it explicitly after `npm test`:
//   SENSEACT_PACK_TEST=1 npx vitest run tests/integration/package/packed-package.test.ts
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
let scratch: string;
let project: string;

/** True when some file under src/ is newer than the build (dist/ is what gets packed). */
function distIsStale(): boolean {
  const built = path.join(repoRoot, 'dist', 'index.js');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  const newer = (folder: string): boolean => readdirSync(folder, { withFileTypes: true }).some((entry) => {
    const full = path.join(folder, entry.name);
    return entry.isDirectory() ? newer(full) : statSync(full).mtimeMs > builtAt;
  });
  return newer(path.join(repoRoot, 'src'));
}

async function npm(args: readonly string[], cwd: string): Promise<string> {
  const { stdout } = await run('npm', [...args], { cwd, env: { ...process.env, npm_config_update_notifier: 'false' }, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** The first ```ts block under the README's "As a library" heading. */
async function readmeLibraryExample(): Promise<string> {
  const readme = await readFile(path.join(repoRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## As a library'));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (match?.[1] === undefined) throw new Error('README.md has no ```ts block under "## As a library"');
  return match[1];
}

const enabled = process.env.SENSEACT_PACK_TEST === '1';

async function packAndInstall(): Promise<void> {
  // `npm ci` builds dist/ through `prepare`; rebuild only when a source changed since.
  if (distIsStale()) await run(process.execPath, [tsc, '-p', path.join(repoRoot, 'tsconfig.build.json')], { cwd: repoRoot });
  scratch = await mkdtemp(path.join(tmpdir(), 'senseact-packed-'));
  const packed = JSON.parse(await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], repoRoot)) as { filename: string; files: { path: string }[] }[];
  const tarball = path.join(scratch, packed[0]!.filename);
  const files = packed[0]!.files.map((file) => file.path);
  expect(files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/sim/index.js', 'dist/testing.js', 'dist/bench/index.js', 'dist/cli/main.js', 'bin/senseact.js', 'devices/sim.yaml', 'tasks/sim/settings.yaml', 'docs/predicates.md', 'schemas/task-file.schema.json', 'appium-sim-driver/index.js']));
  expect(files.filter((file) => file.startsWith('src/') || file.startsWith('tests/') || file.endsWith('.map'))).toEqual([]);
  // The build empties dist/ first: a module deleted from src/ is not shipped from an old build.
  const orphans = files.filter((file) => /^dist\/.*\.js$/.test(file) && !existsSync(path.join(repoRoot, 'src', file.slice('dist/'.length).replace(/\.js$/, '.ts'))));
  expect(orphans).toEqual([]);
  project = path.join(scratch, 'project');
  await mkdir(project);
  await writeFile(path.join(project, 'package.json'), `${JSON.stringify({ name: 'uses-senseact', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  await npm(['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], project);
}

describe.skipIf(!enabled)('the packed package, installed into an empty project (SENSEACT_PACK_TEST=1)', () => {
  beforeAll(packAndInstall, 300_000);
  afterAll(async () => {
    if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
  });

  it('runs `npx senseact bench` on the shipped sim suite', async () => {
    const { stdout, stderr } = await run('npx', ['--no', 'senseact', 'bench', '--suite', 'sim', '--mode', 'senseact', '--device', 'sim', '--tasks', 'settings-airplane-on,settings-wifi-auto-off,notes-create-text-note', '--out', 'runs/packed'], { cwd: project });
    expect(stdout).toMatch(/^senseact +3 +3\/3 +100\.0% /m);
    expect(stderr).toContain('bench: 3/3 runs, 3 ok, 0 errors');
    const results = JSON.parse(await readFile(path.join(project, 'runs', 'packed', 'results.json'), 'utf8')) as { complete: boolean; tasks: { id: string }[] };
    expect(results.complete).toBe(true);
    expect(results.tasks.map((task) => task.id).sort()).toEqual(['notes-create-text-note', 'settings-airplane-on', 'settings-wifi-auto-off']);
    expect(existsSync(path.join(project, 'runs', 'packed', 'report.html'))).toBe(true);
  }, 120_000);

  it('starts `senseact mcp` from the installed package; the SDK client lists its tools and observes', async () => {
    // The MCP SDK comes with senseact (a dependency), so the project can import its client.
    await writeFile(path.join(project, 'mcp-client.mjs'), [
      "import { Client } from '@modelcontextprotocol/sdk/client/index.js';",
      "import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';",
      "const transport = new StdioClientTransport({ command: process.execPath, args: ['node_modules/senseact/bin/senseact.js', 'mcp', '--launch', 'com.android.settings'] });",
      "const client = new Client({ name: 'packed', version: '1.0.0' });",
      'await client.connect(transport);',
      'const { tools } = await client.listTools();',
      "const observed = await client.callTool({ name: 'observe', arguments: {} });",
      "console.log(JSON.stringify({ tools: tools.map((tool) => tool.name).sort(), app: observed.structuredContent.app }));",
      'await client.close();',
      '',
    ].join('\n'));
    const { stdout } = await run(process.execPath, ['mcp-client.mjs'], { cwd: project });
    expect(JSON.parse(stdout.trim())).toEqual({ tools: ['act', 'check', 'observe', 'run', 'screenshot', 'skills'], app: 'com.android.settings' });
  }, 60_000);

  it('type-checks (without skipLibCheck, with and without @types/node) and runs the README library example against the published types', async () => {
    await writeFile(path.join(project, 'example.ts'), await readmeLibraryExample());
    // Subpath exports and their types, and a misuse the types must reject.
    await writeFile(path.join(project, 'subpaths.ts'), [
      "import { Simulator } from 'senseact/sim';",
      "import { parseHierarchy, perceive, computeDelta, parsePredicate, evaluatePredicate, runTask, runBenchmark, SenseActError, DeviceError } from 'senseact';",
      "import { ScriptedVisionModel, startMockOpenAiServer } from 'senseact/testing';",
      "import { formatResultsTable, renderRunPage, traceFileName } from 'senseact/bench';",
      'const simulator = new Simulator({ startPackage: "com.android.settings" });',
      'const tree = parseHierarchy(simulator.pageSource(), { packageName: simulator.currentPackage() });',
      'const view: string = perceive(tree).view;',
      'const label: string = computeDelta(tree, tree).label;',
      "const outcome: string = evaluatePredicate(parsePredicate('exists(text=\"Network & internet\")'), { after: tree }).outcome;",
      'export const used = [view, label, outcome, runTask, runBenchmark, SenseActError, DeviceError, ScriptedVisionModel, startMockOpenAiServer, formatResultsTable, renderRunPage, traceFileName];',
      '',
    ].join('\n'));
    await writeFile(path.join(project, 'misuse.ts'), "import { SenseActAgent } from 'senseact';\nconst agent = await SenseActAgent.create({ device: 'sim' });\nawait agent.run('Turn on airplane mode', { allowedPackages: 'com.android.settings' });\n");
    // No skipLibCheck: the published declarations (and those of the dependencies they
    // reach) are checked too. Two consumers: one with Node's types, one without, as
    // TypeScript 6 and later compile by default (`types: []`: no @types package unless
    // named; @types/node is in node_modules here, installed for other packages).
    const base = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true };
    await writeFile(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...base, outDir: 'out', types: ['node'], typeRoots: [path.join(repoRoot, 'node_modules', '@types')] }, files: ['example.ts', 'subpaths.ts', 'misuse.ts'] }));
    // The control that shows the second consumer really has no Node types: a file that uses them.
    await writeFile(path.join(project, 'uses-node.ts'), 'export const stream: NodeJS.WritableStream | undefined = undefined;\n');
    await writeFile(path.join(project, 'tsconfig.no-node.json'), JSON.stringify({ compilerOptions: { ...base, noEmit: true, types: [] }, files: ['example.ts', 'subpaths.ts', 'uses-node.ts'] }));
    // One compiler run each: it reports every type error and (the first) still emits the JS to run.
    const compile = async (config: string, extra: readonly string[] = []): Promise<string> => await run(process.execPath, [tsc, '-p', config, ...extra], { cwd: project, maxBuffer: 64 * 1024 * 1024 }).then(({ stdout }) => stdout, (error: { stdout: string }) => error.stdout);
    const errors = (await compile('tsconfig.json')).split('\n').filter((line) => /error TS\d+/.test(line));
    // The example and the subpath imports type-check; the misuse does not: the published types are real, not `any`.
    expect(errors.filter((line) => !line.startsWith('misuse.ts'))).toEqual([]);
    expect(errors.join('\n')).toMatch(/misuse\.ts\(3,.*Type 'string' is not assignable to type 'readonly string\[\]'/);
    // Without Node's types the published declarations still compile (no NodeJS.* or node: module
    // in them); only the control fails, and no file of @types/node was read.
    const withoutNode = (await compile('tsconfig.no-node.json', ['--listFiles'])).split('\n');
    expect(withoutNode.filter((line) => /error TS\d+/.test(line))).toEqual([expect.stringMatching(/^uses-node\.ts\(1,.*error TS2503: Cannot find namespace 'NodeJS'/)]);
    expect(withoutNode.filter((line) => line.includes('/@types/node/'))).toEqual([]);
    expect(withoutNode.filter((line) => line.includes('/node_modules/senseact/dist/')).length).toBeGreaterThan(50);

    const { stdout } = await run(process.execPath, ['out/example.js'], { cwd: project, env: { ...process.env, SENSEACT_API_KEY: '', OPENAI_API_KEY: '' } });
    const printed = /^(\w+) (\d+) llm calls: (\d+) (.+)$/.exec(stdout.trim());
    expect(printed, stdout).not.toBeNull();
    const [, outcome, steps, llmCalls, traceDir] = printed!;
    expect(outcome).toBe('success');
    expect(Number(steps)).toBe(2);
    expect(Number(llmCalls)).toBeGreaterThanOrEqual(3);
    expect(traceDir!.startsWith(path.join(project, 'runs', 'agent'))).toBe(true);
    expect(existsSync(path.join(traceDir!, 'trace.jsonl'))).toBe(true);
    await run(process.execPath, ['out/subpaths.js'], { cwd: project });
  }, 240_000);
});
