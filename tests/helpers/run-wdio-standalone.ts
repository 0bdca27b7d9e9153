import { copyFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect as wdioExpect } from 'expect-webdriverio';
import { remote } from 'webdriverio';
import type * as MochaClass from 'mocha';
import type { WdioSpecJob, WdioSpecRun } from './run-wdio-spec.js';

interface ExportedConfig {
  readonly config: { readonly specs: string[]; readonly capabilities: Record<string, unknown>[]; readonly waitforTimeout: number };
}

/** The map `@wdio/globals` reads its `driver`, `$`, `$$` and `expect` from (the test runner fills it the same way). */
function wdioGlobals(): Map<string, unknown> {
  const holder = globalThis as { _wdioGlobals?: Map<string, unknown> };
  holder._wdioGlobals ??= new Map();
  return holder._wdioGlobals;
}

/** Mocha is CommonJS (`export =`): loaded through require, typed by its declarations. */
const Mocha = createRequire(import.meta.url)('mocha') as typeof MochaClass;

let copies = 0;

/**
 * Runs exported specs one after another in this process with WebdriverIO standalone
 * (`remote()`, one session per spec with the capabilities its exported configuration
 * gives), Mocha (bail, as the configuration says) and expect-webdriverio, against the
 * Appium server at `url`. The spec files are the ones `senseact export` wrote, unchanged;
 * only the runner differs from `wdio run` (no worker process per spec, so a whole
 * suite runs in minutes on a loaded machine). Returns each spec's verdict.
 */
export async function runWdioSpecsStandalone(jobs: readonly WdioSpecJob[], url: string): Promise<{ runs: WdioSpecRun[]; ms: number }> {
  const server = new URL(url);
  const started = Date.now();
  const runs: WdioSpecRun[] = [];
  for (const job of jobs) {
    const { config } = (await import(pathToFileURL(job.configFile).href)) as ExportedConfig;
    const spec = path.resolve(path.dirname(job.configFile), config.specs[0] ?? '');
    // A module is loaded once per process: a spec run again (a negative control) runs from a copy.
    const copy = spec.replace(/\.spec\.ts$/, `.run${copies++}.spec.ts`);
    copyFileSync(spec, copy);
    const browser = await remote({ hostname: server.hostname, port: Number(server.port), logLevel: 'silent', connectionRetryCount: 0, waitforTimeout: config.waitforTimeout, capabilities: { ...config.capabilities[0], ...job.capabilities } as WebdriverIO.Capabilities });
    const globals = wdioGlobals();
    for (const [key, value] of [['browser', browser], ['driver', browser], ['$', browser.$.bind(browser)], ['$$', browser.$$.bind(browser)], ['expect', wdioExpect]] as const) globals.set(key, value);
    (globalThis as { browser?: unknown }).browser = browser;
    for (const [name, value] of Object.entries(job.env ?? {})) process.env[name] = value;
    try {
      const mocha = new Mocha({ ui: 'bdd', timeout: 120_000, bail: true, reporter: 'dot' });
      mocha.addFile(copy);
      await mocha.loadFilesAsync();
      const failures = await new Promise<number>((resolve) => mocha.run(resolve));
      mocha.dispose();
      runs.push({ configFile: job.configFile, passed: failures === 0 });
    } finally {
      await browser.deleteSession();
      rmSync(copy, { force: true });
      for (const name of Object.keys(job.env ?? {})) delete process.env[name];
    }
  }
  return { runs, ms: Date.now() - started };
}
