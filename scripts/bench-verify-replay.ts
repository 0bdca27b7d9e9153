// Measures `senseact verify-replay` on many transitions (docs/verify-replay.md; its time must grow linearly): the
// real transitions of tests/fixtures/transitions are replicated into N lines, each copy with
// its own ids, app packages and run folders (the screens stay the fixture's files, read by
// absolute path), and the JSONL is loaded and replayed as the CLI does. Prints wall and CPU
// time per size, and the time per 1,000 lines: flat when the replay is linear.
// Run: npx tsx scripts/bench-verify-replay.ts [--sizes 5000,10000,20000] [--per-app 1]
//   --per-app k: k copies share each app package (more steps per app: the donor search of the
//   wrong-effect control looks at every step of the same app).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { replayVerification } from '../src/bench/verify-replay.js';
import { loadTransitions } from '../src/tasks/replay/load-transitions.js';

const fixture = path.resolve(import.meta.dirname, '..', 'tests/fixtures/transitions');

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

/** CPU time (user + system) of this process in ms: less sensitive than wall time on a busy machine. */
function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

interface Line {
  id: string;
  app_package?: string;
  before: string;
  after: string;
  source?: string;
  [key: string]: unknown;
}

/** Copy `copy` of a fixture line: its own id, app and run folder; screens by absolute path. */
function replicate(line: Line, copy: number, perApp: number): Line {
  const group = Math.floor(copy / perApp);
  const source = line.source === undefined ? undefined : line.source.replace(':', `:copy${copy}/`);
  return {
    ...line,
    id: `${line.id}~${copy}`,
    app_package: `${line.app_package ?? 'app'}.copy${group}`,
    before: path.join(fixture, line.before),
    after: path.join(fixture, line.after),
    ...(source === undefined ? {} : { source }),
  };
}

async function main(): Promise<void> {
  const sizes = option('sizes', '5000,10000,20000').split(',').map(Number).filter((size) => Number.isInteger(size) && size > 0);
  const perApp = Math.max(1, Number.parseInt(option('per-app', '1'), 10) || 1);
  const lines = (await readFile(path.join(fixture, 'transitions.jsonl'), 'utf8')).split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Line);
  const scratch = await mkdtemp(path.join(tmpdir(), 'senseact-bench-verify-replay-'));
  console.log(`verify-replay on N transitions replicated from ${lines.length} fixture lines (${perApp} cop${perApp === 1 ? 'y' : 'ies'} per app); ${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}`);
  console.log(`${'N'.padStart(6)} ${'load s'.padStart(8)} ${'replay s'.padStart(9)} ${'wall s'.padStart(8)} ${'cpu s'.padStart(8)} ${'cpu ms/1k'.padStart(10)} ${'replayed'.padStart(9)}`);
  try {
    for (const size of sizes) {
      const out: string[] = [];
      for (let index = 0; index < size; index++) out.push(JSON.stringify(replicate(lines[index % lines.length]!, Math.floor(index / lines.length), perApp)));
      const file = path.join(scratch, `transitions-${size}.jsonl`);
      await writeFile(file, `${out.join('\n')}\n`);
      const cpuStart = cpuMs();
      const start = performance.now();
      const source = await loadTransitions(file);
      const loaded = performance.now();
      const report = replayVerification(source);
      const end = performance.now();
      const cpu = cpuMs() - cpuStart;
      console.log(`${String(size).padStart(6)} ${((loaded - start) / 1000).toFixed(1).padStart(8)} ${((end - loaded) / 1000).toFixed(1).padStart(9)} ${((end - start) / 1000).toFixed(1).padStart(8)} ${(cpu / 1000).toFixed(1).padStart(8)} ${((cpu / size) * 1000).toFixed(0).padStart(10)} ${String(report.categories.replayed).padStart(9)}`);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
