import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Command, CommanderError } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { benchResultsSchema } from '../../../src/bench/bench-results.js';
import { FakeTaskExecutor } from '../../../src/bench/fake-task-executor.js';
import type { BenchExecutorOptions } from '../../../src/bench/task-executor.js';
import type { CliIo } from '../../../src/cli/cli-io.js';
import { createBenchCommand, defaultOutDir, type BenchCommandDependencies } from '../../../src/cli/commands/bench-command.js';
import type { Task } from '../../../src/tasks/task-schema.js';
import { SenseActError } from '../../../src/util/senseact-error.js';

// A small suite in the real task format, loaded by the real loader.
const suiteYaml = `tasks:
${['alarm-add', 'wifi-toggle', 'note-create'].map((id) => `- id: ${id}
  app: com.example.${id.split('-')[0]}
  instruction: do ${id}
  source: { benchmark: senseact }
  success: { screen: 'exists(text="Done")' }
  allowedPackages: [com.example.${id.split('-')[0]}]
  stepBudget: 10
  difficulty: easy`).join('\n')}
`;

interface Invocation {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

describe('senseact bench (with a fake executor factory)', () => {
  let root: string;
  let factoryCalls: BenchExecutorOptions[];
  let fake: FakeTaskExecutor<Task>;
  let closed: number;

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'senseact-bench-cli-'));
    await mkdir(path.join(root, 'tasks', 'mini'), { recursive: true });
    await writeFile(path.join(root, 'tasks', 'mini', 'tasks.yaml'), suiteYaml);
    factoryCalls = [];
    closed = 0;
    fake = new FakeTaskExecutor<Task>((request) => ({ kind: 'result', result: { policy: 'llm', imagesUploaded: request.mode === 'react-vlm' ? 5 : 1, success: request.task.id !== 'note-create' } }));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function bench(args: string[], extra: Partial<BenchCommandDependencies> = {}): Promise<Invocation> {
    let stdout = '';
    let stderr = '';
    let exitCode = 0;
    const io: CliIo = { stdout: (text) => { stdout += text; }, stderr: (text) => { stderr += text; }, cwd: root, env: {} };
    const program = new Command('senseact').exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
    createBenchCommand({
      createExecutor: async (options) => {
        factoryCalls.push(options);
        return { executor: fake.executor, modelLabel: 'scripted-test-model', policy: options.policy === 'auto' ? 'llm' : options.policy, notice: 'policy: scripted test executor', close: async () => { closed++; } };
      },
      progressTty: null,
      signal: new AbortController().signal,
      now: () => new Date('2026-11-22T03:04:05.678Z'),
      ...extra,
    })(program, io, (code) => { exitCode = code; });
    try {
      await program.parseAsync(['bench', ...args], { from: 'user' });
    } catch (error) {
      if (error instanceof CommanderError) return { exitCode: 2, stdout, stderr };
      if (SenseActError.isInstance(error)) return { exitCode: 2, stdout, stderr: `${stderr}senseact: ${error.message}\n` };
      throw error;
    }
    return { exitCode, stdout, stderr };
  }

  it('runs the suite, prints the table and the results path, and writes results.json under the default out dir', async () => {
    const reports: string[] = [];
    const result = await bench(['--suite', 'mini', '--mode', 'senseact,react-vlm', '--device', 'sim-pixel', '--concurrency', '2'], {
      writeReport: async (runDir) => { reports.push(runDir); return path.join(runDir, 'report.html'); },
    });
    expect(result.stderr).toContain('bench: 6/6 runs, 4 ok, 0 errors');
    expect(result.exitCode).toBe(0);
    const outDir = path.join(root, 'runs', 'bench-mini-20261122T030405Z');
    expect(result.stdout).toContain('SenseAct bench: suite mini, llm policy (model: scripted-test-model)');
    expect(result.stdout).toMatch(/^senseact +3 +2\/3 +66\.7% .* 80\.0%\/80\.0% /m);
    expect(result.stdout).toContain(`results: ${path.join(outDir, 'results.json')}\n`);
    expect(result.stdout).toContain(`report: ${path.join(outDir, 'report.html')}\n`);
    expect(reports).toEqual([outDir]);
    const results = benchResultsSchema.parse(JSON.parse(await readFile(path.join(outDir, 'results.json'), 'utf8')));
    expect(results.options).toMatchObject({ suite: 'mini', modes: ['senseact', 'react-vlm'], concurrency: 2, device: 'sim-pixel', policy: 'llm', modelLabel: 'scripted-test-model' });
    expect(factoryCalls).toEqual([expect.objectContaining({ suite: 'mini', device: 'sim-pixel', faults: undefined, policy: 'auto', outDir })]);
    expect(result.stderr).toContain('policy: scripted test executor\n');
    expect(closed).toBe(1);
    expect(fake.calls.map((call) => call.task.instruction)).toContain('do alarm-add');
  });

  it('passes --faults and --policy oracle through, and labels the table', async () => {
    fake = new FakeTaskExecutor<Task>();
    const result = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--faults', 'flaky', '--policy', 'oracle', '--out', 'out/oracle']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('SenseAct bench: suite mini, oracle policy (reference solutions, no model)');
    expect(factoryCalls[0]).toMatchObject({ faults: 'flaky', policy: 'oracle', outDir: path.join(root, 'out', 'oracle') });
  });

  it('explains a non-empty --out, and --resume finishes it', async () => {
    await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--out', 'out/run']);
    const again = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--out', 'out/run']);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toMatch(/out\/run is not empty .*pass --resume to finish the run in it, or choose another --out/);
    const resumed = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--out', 'out/run', '--resume']);
    expect(resumed.exitCode).toBe(0);
    expect(fake.calls).toHaveLength(3);
  });

  it.each([
    [['--mode', 'senseact,vision'], /--mode: unknown mode "vision"; choose from senseact, senseact-text, react-vlm, react-text, open-loop/],
    [['--mode', 'senseact,senseact'], /--mode: mode "senseact" is listed twice/],
    [['--mode', ' , '], /--mode: give at least one mode/],
    [['--mode', 'senseact', '--concurrency', '0'], /--concurrency: expected a whole number ≥ 1, got "0"/],
    [['--mode', 'senseact', '--repeat', 'two'], /--repeat: expected a whole number ≥ 1, got "two"/],
    [['--mode', 'senseact', '--policy', 'human'], /--policy: unknown policy "human"; choose llm, oracle or auto/],
    [['--mode', 'senseact', '--price-prompt', '-1'], /--price-prompt: expected US dollars per 1M tokens/],
    [['--mode', 'senseact', '--resume'], /--resume: needs --out <dir>/],
  ])('rejects %j naming the option', async (args, message) => {
    const result = await bench(['--suite', 'mini', '--device', 'sim', ...args]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(factoryCalls).toHaveLength(0);
  });

  it('requires --suite, --mode and --device', async () => {
    const result = await bench(['--mode', 'senseact', '--device', 'sim']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("required option '--suite <suite>' not specified");
  });

  it('records custom prices with their label', async () => {
    await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--out', 'priced', '--price-prompt', '0.15', '--price-completion', '0.6']);
    const results = benchResultsSchema.parse(JSON.parse(await readFile(path.join(root, 'priced', 'results.json'), 'utf8')));
    expect(results.prices).toEqual({ label: 'prices from the command line: $0.15 prompt / $0.6 completion per 1M tokens', promptPerMillionUsd: 0.15, completionPerMillionUsd: 0.6 });
  });

  it('exits with failure and says how to resume when interrupted', async () => {
    const controller = new AbortController();
    fake = new FakeTaskExecutor<Task>((request) => {
      if (request.task.id === 'wifi-toggle') {
        controller.abort();
        return { kind: 'hang' };
      }
      return { kind: 'result', result: { policy: 'llm' } };
    });
    const result = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--faults', 'flaky', '--out', 'cut'], { signal: controller.signal });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('INCOMPLETE: 1 of 3 runs finished');
    expect(result.stderr).toContain(`finish it with: senseact bench --suite mini --mode senseact --device sim --faults flaky --concurrency 1 --repeat 1 --policy llm --out ${path.join(root, 'cut')} --resume\n`);
    expect(closed).toBe(1);
  });
});

describe('defaultOutDir', () => {
  it('names the dir after the suite folder and the UTC time', () => {
    expect(defaultOutDir('androidlab', new Date('2026-01-02T03:04:05.006Z'))).toBe(path.join('runs', 'bench-androidlab-20260102T030405Z'));
    expect(defaultOutDir('/x/my suite/', new Date('2026-01-02T03:04:05Z'))).toBe(path.join('runs', 'bench-my_suite-20260102T030405Z'));
  });
});
