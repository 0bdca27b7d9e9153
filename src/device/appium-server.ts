import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, unlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { DeviceError } from './device-error.js';
import { abortableSleep } from './retry-policy.js';
import { pipeLines, stopChild } from './child-process-lines.js';

/** Name of the simulator driver in the Appium manifest (`appium driver list`). */
export const simDriverName = 'senseact-sim';
/** npm name of the driver package folder `appium-sim-driver/`. */
export const simDriverPackage = 'appium-senseact-sim-driver';

/** The repository root: this file is `src/device/…ts` or `dist/device/…js`, two levels below it. */
export function repoRoot(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
}

export interface AppiumServerOptions {
  /** Port to listen on; 0 or absent picks a free one. */
  readonly port?: number;
  /** Address to bind; `127.0.0.1` unless told otherwise. */
  readonly host?: string;
  /** Appium home; defaults to `<repo>/.appium` (gitignored). */
  readonly appiumHome?: string;
  /** Make the simulator driver available (link it into the Appium home, build dist/ when stale). Default true. */
  readonly withSimDriver?: boolean;
  /** Appium's `--log-level` (default `error`). */
  readonly logLevel?: string;
  /**
   * Appium's `--allow-insecure` features. Default: `*:adb_shell` (task adb checks, `pm clear`
   * and other start steps through `mobile: shell`) and `*:emulator_console` (snapshot loads
   * through `mobile: execEmuConsoleCommand`); `[]` allows none.
   */
  readonly allowInsecure?: readonly string[];
  /** How long to wait for `/status` to answer (default 30 s). */
  readonly readyTimeoutMs?: number;
  /** Receives the server's output lines (default: kept in a small buffer for error messages). */
  readonly onOutput?: (line: string) => void;
}

/** A running Appium server started by `startAppiumServer`. */
export interface AppiumServerHandle {
  /** e.g. `http://127.0.0.1:4723` */
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  readonly appiumHome: string;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and resolves when it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts Appium 3 from node_modules with a project-local Appium home, waits until it
 * answers `/status`, and returns a handle to stop it. No network is needed: the
 * simulator driver is linked from `appium-sim-driver/` (see `prepareAppiumHome`).
 * Throws `DeviceError` (reason `unreachable`) when the server exits or never answers.
 */
export async function startAppiumServer(options: AppiumServerOptions = {}): Promise<AppiumServerHandle> {
  const root = repoRoot();
  const appiumHome = options.appiumHome ?? path.join(root, '.appium');
  const host = options.host ?? '127.0.0.1';
  const port = options.port !== undefined && options.port > 0 ? options.port : await freePort(host);
  const appiumMain = findAppiumMain(root);
  if (appiumMain === undefined) {
    throw new DeviceError({ reason: 'unreachable', call: 'start-appium', message: `Appium is not installed: run \`npm ci\` in ${root} (a project that installed senseact: \`npm install appium\`, an optional peer dependency).` });
  }
  // Appium writes its extension manifest while starting; servers started at once on a
  // home without one (a fresh clone, parallel test files) would read each other's
  // half-written file. The first start holds this lock until it answers.
  let releaseStartLock: (() => void) | undefined;
  if (options.withSimDriver ?? true) {
    await ensureSimDriverBuilt(root);
    releaseStartLock = await acquireLock(path.join(appiumHome, 'start.lock'));
    try {
      prepareAppiumHome(appiumHome, root);
    } catch (error) {
      releaseStartLock();
      throw error;
    }
    if (manifestListsDriver(manifestPath(appiumHome), path.join(appiumHome, 'node_modules', simDriverPackage), path.join(root, 'appium-sim-driver'))) {
      releaseStartLock();
      releaseStartLock = undefined;
    }
  }
  const output: string[] = [];
  const onLine = (line: string): void => {
    output.push(line);
    if (output.length > 50) output.shift();
    options.onOutput?.(line);
  };
  const allowed = options.allowInsecure ?? ['*:adb_shell', '*:emulator_console'];
  const insecure = allowed.length === 0 ? [] : ['--allow-insecure', allowed.join(',')];
  const child = spawn(process.execPath, [appiumMain, 'server', '--address', host, '--port', String(port), '--log-level', options.logLevel ?? 'error', '--log-no-colors', ...insecure], {
    env: { ...process.env, APPIUM_HOME: appiumHome },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  pipeLines(child, onLine);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const handle: AppiumServerHandle = {
    url,
    port,
    pid: child.pid ?? -1,
    appiumHome,
    stop: () => stopChild(child, exited),
  };
  try {
    await waitForStatus(url, exited, options.readyTimeoutMs ?? 30_000);
    releaseStartLock?.();
  } catch (error) {
    releaseStartLock?.();
    await handle.stop();
    throw new DeviceError({
      reason: 'unreachable',
      call: 'start-appium',
      message: `Appium did not start at ${url} (APPIUM_HOME=${appiumHome}): ${error instanceof Error ? error.message : String(error)}. Last output:\n${output.join('\n')}`,
      cause: error,
    });
  }
  return handle;
}

/** Appium's entry script: the project's own, else wherever Node resolves the package from here (an installed senseact's peer). */
function findAppiumMain(root: string): string | undefined {
  const own = path.join(root, 'node_modules', 'appium', 'index.js');
  if (existsSync(own)) return own;
  try {
    return path.join(path.dirname(createRequire(import.meta.url).resolve('appium/package.json')), 'index.js');
  } catch {
    return undefined;
  }
}

/**
 * Makes `appiumHome` know the simulator driver without `appium driver install` (which
 * would need the network): links `node_modules/appium-senseact-sim-driver` to the
 * repository's `appium-sim-driver/`, and drops Appium's extension manifest when it does
 * not list the driver at that path, so Appium rebuilds it from the installed packages on
 * start (other drivers in the home, e.g. UiAutomator2, are found again the same way).
 */
export function prepareAppiumHome(appiumHome: string, root: string = repoRoot()): void {
  const driverFolder = path.join(root, 'appium-sim-driver');
  const modules = path.join(appiumHome, 'node_modules');
  const link = path.join(modules, simDriverPackage);
  mkdirSync(modules, { recursive: true });
  const target = path.relative(modules, driverFolder);
  let linked = false;
  try {
    const stat = lstatSync(link);
    if (stat.isSymbolicLink() && path.resolve(modules, readlinkSync(link)) === driverFolder) linked = true;
    else rmSync(link, { recursive: true, force: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (!linked) {
    try {
      symlinkSync(target, link, 'dir');
    } catch (error) {
      // Another process linked it first: fine when it points to the same folder.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const manifest = manifestPath(appiumHome);
  if (existsSync(manifest) && !manifestListsDriver(manifest, link, driverFolder)) unlinkSync(manifest);
}

/** Where Appium keeps its extension manifest inside an Appium home. */
function manifestPath(appiumHome: string): string {
  return path.join(appiumHome, 'node_modules', '.cache', 'appium', 'extensions.yaml');
}

function manifestListsDriver(manifest: string, link: string, driverFolder: string): boolean {
  try {
    const data = parseYaml(readFileSync(manifest, 'utf8')) as { drivers?: Record<string, { installPath?: string }> } | null;
    const installPath = data?.drivers?.[simDriverName]?.installPath;
    return installPath !== undefined && (path.resolve(installPath) === link || path.resolve(installPath) === driverFolder);
  } catch {
    return false;
  }
}

/**
 * The driver runs compiled JS from dist/. When any source it depends on (src/sim,
 * src/util) is newer than its compiled file, or that file is missing, this recompiles
 * those folders into dist/ under a lock shared by concurrent callers: with esbuild
 * (transpile only, well under a second) when it is installed, else with tsc on
 * `appium-sim-driver/tsconfig.json` (the driver and its imports only). `npm run build`
 * remains the full, type-checked build. Resolves whether anything was compiled.
 */
export async function ensureSimDriverBuilt(root: string = repoRoot()): Promise<boolean> {
  if (staleDriverSources(root).length === 0) return false;
  const release = await acquireLock(path.join(root, '.appium', 'build.lock'));
  try {
    const stale = staleDriverSources(root);
    if (stale.length === 0) return false;
    const compiledWithEsbuild = await transpileWithEsbuild(root, stale);
    if (!compiledWithEsbuild) {
      const output = await run(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'appium-sim-driver', 'tsconfig.json')], root);
      if (staleDriverSources(root).length > 0) throw new Error(`Compiling the simulator driver into dist/ failed; tsc said:\n${output.slice(-4000)}`);
    }
    return true;
  } finally {
    release();
  }
}

/**
 * A lock shared between processes: a directory created atomically. Waits up to three
 * minutes; a lock older than that is left over from a killed process and is broken.
 * Resolves to the function that releases it.
 */
async function acquireLock(lock: string): Promise<() => void> {
  mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > 170_000) rmSync(lock, { recursive: true, force: true });
      } catch (statError) {
        // Released between our mkdir and stat: just try again.
        if ((statError as NodeJS.ErrnoException).code !== 'ENOENT') throw statError;
      }
      if (Date.now() > deadline) throw new Error(`Timed out waiting for the lock ${lock}; remove it if no other SenseAct process is starting Appium or building.`);
      await abortableSleep(100);
    }
  }
}

/** Transpiles `files` (under src/) to dist/ with esbuild; false when esbuild is not installed (production installs). */
async function transpileWithEsbuild(root: string, files: readonly string[]): Promise<boolean> {
  let esbuild: { build: (options: Record<string, unknown>) => Promise<unknown> };
  try {
    esbuild = (await import('esbuild')) as unknown as typeof esbuild;
  } catch {
    return false;
  }
  await esbuild.build({
    entryPoints: [...files],
    outdir: path.join(root, 'dist'),
    outbase: path.join(root, 'src'),
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'silent',
  });
  return true;
}

/** Sources of the driver (src/sim, src/util) whose dist/ file is missing or older. */
function staleDriverSources(root: string): string[] {
  const stale: string[] = [];
  for (const folder of ['sim', 'util']) {
    for (const source of listTs(path.join(root, 'src', folder))) {
      const relative = path.relative(path.join(root, 'src'), source).replace(/\.ts$/, '.js');
      const compiled = path.join(root, 'dist', relative);
      if (!existsSync(compiled) || statSync(compiled).mtimeMs < statSync(source).mtimeMs) stale.push(source);
    }
  }
  return stale;
}

function listTs(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    // tsc exits non-zero on type errors anywhere but still emits; the caller checks the output file.
    child.once('exit', () => resolve(output));
  });
}

/** A port nobody listens on right now (bound and released on `host`). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForStatus(url: string, exited: Promise<number | null>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void exited.then((code) => {
    exitCode = code;
  });
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`the server process exited with code ${String(exitCode)}`);
    try {
      const response = await fetch(`${url}/status`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await abortableSleep(100);
  }
  throw new Error(`no answer from ${url}/status within ${timeoutMs} ms`);
}
