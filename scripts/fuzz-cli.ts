// Fuzzes every input the CLI reads (tests/helpers/fuzz-inputs.ts: XML dumps, DroidBot states,
// task YAML, predicates, model replies, cassettes, device profiles, app memory, skill files,
// a bench journal for --resume) and prints, per family, how many mutants were accepted, were
// named errors (exit 2 with a `senseact …:` message), crashed (a throw or a stack trace) or
// ended otherwise, and the slowest. Each mutant has its own seed: `--only task:17` replays one.
// The mutants run in a child process. A hang is a mutant that takes more than --hang-ms of
// CPU time, or three times that of wall-clock time (then the child is killed and a new one
// goes on with the next mutant): on a shared machine wall time alone measures the load.
// A measurement, not a test:
// tests/integration/hardening/fuzz-inputs.test.ts runs a few hundred in CI.
//
//   npx tsx scripts/fuzz-cli.ts [--mutants 1600] [--seed 28] [--families xml,task,...] [--hang-ms 10000] [--only family:index] [--verbose]
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';
import { fuzzFamilies, prepareFuzzSeeds, runFuzzMutant, type FuzzFamily, type FuzzSeeds, type FuzzVerdict } from '../tests/helpers/fuzz-inputs.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 && argv[at + 1] !== undefined ? argv[at + 1]! : fallback;
};
const seed = Number(option('seed', '28'));
const families = option('families', fuzzFamilies.join(',')).split(',') as FuzzFamily[];
for (const family of families) if (!fuzzFamilies.includes(family)) throw new Error(`--families: unknown family "${family}"; known: ${fuzzFamilies.join(', ')}`);

/** Mutants per family: the bench journal redoes a run per damaged line, so it gets fewer. */
function perFamily(total: number): Map<FuzzFamily, number> {
  const weights = new Map<FuzzFamily, number>(families.map((family) => [family, family === 'journal' ? 0.25 : family === 'reply' || family === 'skill' ? 0.6 : 1]));
  const sum = [...weights.values()].reduce((a, b) => a + b, 0);
  return new Map([...weights].map(([family, weight]) => [family, Math.max(1, Math.round((total * weight) / sum))]));
}

type Job = { readonly family: FuzzFamily; readonly index: number };
type ChildMessage = { readonly start: Job } | { readonly done: FuzzVerdict } | { readonly ready: true };

// --- the child: prepares the seeds once, then runs the jobs it is sent, reporting each -----------

async function child(): Promise<void> {
  const seeds: FuzzSeeds = await prepareFuzzSeeds(repoRoot);
  process.on('disconnect', () => {
    seeds.cleanup();
    process.exit(0);
  });
  process.on('message', (jobs: Job[]) => {
    void (async () => {
      for (const job of jobs) {
        process.send?.({ start: job } satisfies ChildMessage);
        process.send?.({ done: await runFuzzMutant(seeds, job.family, job.index, seed) } satisfies ChildMessage);
      }
      seeds.cleanup();
      process.exit(0);
    })();
  });
  process.send?.({ ready: true } satisfies ChildMessage);
}

// --- the parent: hands out the jobs, times each, replaces a child that hangs ---------------------

async function parent(): Promise<void> {
  const hangMs = Number(option('hang-ms', '10000'));
  const only = option('only', '');
  const jobs: Job[] = only === ''
    ? [...perFamily(Number(option('mutants', '1600')))].flatMap(([family, count]) => Array.from({ length: count }, (_, index) => ({ family, index })))
    : [{ family: only.split(':')[0] as FuzzFamily, index: Number(only.split(':')[1]) }];
  const verdicts: FuzzVerdict[] = [];
  const hangs: Job[] = [];
  let next = 0;
  const started = performance.now();
  while (next < jobs.length) {
    const remaining = jobs.slice(next);
    const worker: ChildProcess = fork(fileURLToPath(import.meta.url), [...argv, '--child'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    await new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      let current: Job | undefined;
      worker.on('message', (message: ChildMessage) => {
        if ('ready' in message) worker.send(remaining);
        else if ('start' in message) {
          current = message.start;
          clearTimeout(timer);
          timer = setTimeout(() => {
            hangs.push(current!);
            process.stderr.write(`  hang: ${current!.family}:${current!.index} ran past ${3 * hangMs} ms of wall time\n`);
            worker.kill('SIGKILL');
          }, 3 * hangMs);
        } else {
          clearTimeout(timer);
          verdicts.push(message.done);
          if (message.done.cpuMs > hangMs) {
            process.stderr.write(`  hang: ${current!.family}:${current!.index} took ${Math.round(message.done.cpuMs)} ms of CPU\n`);
          }
          next++;
          if (argv.includes('--verbose') || message.done.outcome === 'crash' || message.done.outcome === 'unnamed') process.stderr.write(`  ${message.done.family}:${message.done.index} ${message.done.operator} ${message.done.outcome} ${Math.round(message.done.ms)} ms ${message.done.detail}\n`);
          if (verdicts.length % 200 === 0) process.stderr.write(`fuzz: ${verdicts.length + hangs.length}/${jobs.length} mutants\n`);
        }
      });
      worker.on('exit', () => {
        clearTimeout(timer);
        // A killed child leaves its current job as a hang: go on after it.
        if (current !== undefined && !verdicts.some((verdict) => verdict.family === current!.family && verdict.index === current!.index)) next++;
        resolve();
      });
    });
  }
  print(verdicts, hangs, hangMs, performance.now() - started);
}

function print(verdicts: readonly FuzzVerdict[], hangs: readonly Job[], hangMs: number, wallMs: number): void {
  const lines = ['family     mutants  accepted  named  crashes  other  hangs  slowest cpu ms  slowest wall ms'];
  for (const family of families) {
    const mine = verdicts.filter((verdict) => verdict.family === family);
    const count = (outcome: FuzzVerdict['outcome']): number => mine.filter((verdict) => verdict.outcome === outcome).length;
    const killed = hangs.filter((job) => job.family === family).length;
    const hung = killed + mine.filter((verdict) => verdict.cpuMs > hangMs).length;
    const slowest = `${String(Math.round(Math.max(0, ...mine.map((verdict) => verdict.cpuMs)))).padStart(14)}  ${String(Math.round(Math.max(0, ...mine.map((verdict) => verdict.ms)))).padStart(15)}`;
    lines.push(`${family.padEnd(9)}  ${String(mine.length + killed).padStart(7)}  ${String(count('accepted')).padStart(8)}  ${String(count('named')).padStart(5)}  ${String(count('crash')).padStart(7)}  ${String(count('unnamed')).padStart(5)}  ${String(hung).padStart(5)}  ${slowest}`);
  }
  const total = (outcome: FuzzVerdict['outcome']): number => verdicts.filter((verdict) => verdict.outcome === outcome).length;
  const allHangs = hangs.length + verdicts.filter((verdict) => verdict.cpuMs > hangMs).length;
  lines.push(`all        ${String(verdicts.length + hangs.length).padStart(7)}  ${String(total('accepted')).padStart(8)}  ${String(total('named')).padStart(5)}  ${String(total('crash')).padStart(7)}  ${String(total('unnamed')).padStart(5)}  ${String(allHangs).padStart(5)}`);
  lines.push(`seed ${seed}; a hang is a mutant past ${hangMs} ms of CPU or ${3 * hangMs} ms of wall time; wall time ${(wallMs / 1000).toFixed(1)} s, load average ${loadavg().map((load) => load.toFixed(1)).join(' ')}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  if (total('crash') + total('unnamed') + allHangs > 0) process.exitCode = 1;
}

await (argv.includes('--child') ? child() : parent());
