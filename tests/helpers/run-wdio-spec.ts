import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Launcher } from '@wdio/cli';

/** One exported spec to run: the configuration `senseact export` wrote beside it, and capabilities to merge over its own. */
export interface WdioSpecJob {
  readonly configFile: string;
  /** Merged over the configuration's capabilities (e.g. `senseact:faults` for a negative control). */
  readonly capabilities?: Record<string, unknown>;
  /** Environment the spec reads (e.g. SENSEACT_PASSWORD for a run that typed a password, which no export keeps). */
  readonly env?: Record<string, string>;
}

/** What one spec gave under WebdriverIO's test runner. */
export interface WdioSpecRun {
  readonly configFile: string;
  readonly passed: boolean;
}

interface ExportedConfig {
  readonly config: { readonly specs: string[]; readonly capabilities: Record<string, unknown>[] };
}

/**
 * Runs exported specs with WebdriverIO's own test runner (`@wdio/cli` Launcher, local
 * runner, Mocha) against the Appium server at `url`: each spec in its own worker with the
 * capabilities its exported configuration gives (`wdio:specs` ties them together), up to
 * `parallel` workers at once. Returns each spec's verdict (its worker's exit code).
 */
export async function runWdioSpecs(jobs: readonly WdioSpecJob[], url: string, parallel = 2): Promise<{ runs: WdioSpecRun[]; ms: number }> {
  const first = jobs[0];
  if (!first) return { runs: [], ms: 0 };
  const capabilities: Record<string, unknown>[] = [];
  const specOf = new Map<string, string>();
  for (const job of jobs) {
    const { config } = (await import(pathToFileURL(job.configFile).href)) as ExportedConfig;
    const spec = path.resolve(path.dirname(job.configFile), config.specs[0] ?? '');
    // Each job gets its own copy of the spec so that a spec run twice (with and without a fault) has two verdicts.
    specOf.set(spec, job.configFile);
    for (const caps of config.capabilities) capabilities.push({ ...caps, ...job.capabilities, 'wdio:specs': [spec] });
  }
  const verdicts = new Map<string, boolean>();
  const server = new URL(url);
  const started = Date.now();
  const launcher = new Launcher(first.configFile, {
    hostname: server.hostname,
    port: Number(server.port),
    logLevel: 'silent',
    maxInstances: parallel,
    specs: [...specOf.keys()],
    capabilities,
    onWorkerEnd: [(_cid: string, exitCode: number, specs: string[]) => {
      for (const spec of specs) verdicts.set(spec.replace(/^file:\/\//, ''), exitCode === 0);
    }],
  } as never);
  await launcher.run();
  const runs = [...specOf.entries()].map(([spec, configFile]) => ({ configFile, passed: verdicts.get(spec) === true }));
  return { runs, ms: Date.now() - started };
}
