import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { benchResultsSchema } from '../../../src/bench/bench-results.js';
import { FakeTaskExecutor } from '../../../src/bench/fake-task-executor.js';
import type { BenchExecutorOptions } from '../../../src/bench/task-executor.js';
import { defaultOutDir, type BenchCommandDependencies } from '../../../src/cli/commands/bench-command.js';
import type { Task } from '../../../src/tasks/task-schema.js';
import { runBenchCli, type BenchInvocation } from '../../helpers/bench-cli.js';

// A small suite in the real task format, loaded by the real loader.
const suiteYaml = `tasks:
${['alarm-add', 'wifi-toggle', 'note-create'].map((id) => `- id: ${id}
  app: com.example.${id.split('-')[0]}
  instruction: do ${id}
  source: { benchmark: senseact }
  success: { screen: 'exists(text="Done")' }
  allowedPackages: [com.example.${id.split('-')[0]}]
  stepBudget: 10
  tags: [${id === 'wifi-toggle' ? 'toggle, quick' : 'create'}]
  difficulty: easy`).join('\n')}
`;

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

  function bench(args: string[], extra: Partial<BenchCommandDependencies> = {}): Promise<BenchInvocation> {
    return runBenchCli(args, root, {
      createExecutor: async (options) => {
        factoryCalls.push(options);
        return { executor: fake.executor, modelLabel: 'scripted-test-model', policy: options.policy === 'auto' ? 'llm' : options.policy, notice: 'policy: scripted test executor', close: async () => { closed++; } };
      },
      progressTty: null,
      signal: new AbortController().signal,
      now: () => new Date('2026-11-22T03:04:05.678Z'),
      ...extra,
    });
  }

  it('runs the suite, prints the table and the results path, and writes results.json under the default out dir', async () => {
    const reports: string[] = [];
    const result = await bench(['--suite', 'mini', '--mode', 'senseact,react-vlm', '--device', 'sim-pixel', '--concurrency', '2'], {
      writeReport: async (runDir) => { reports.push(runDir); return path.join(runDir, 'report.html'); },
    });
    expect(result.stderr).toContain('bench: 6/6 runs, 4 ok, 0 errors');
    expect(result.exitCode).toBe(0);
    const outDir = path.join(root, 'runs', 'bench-mini-20261122T030405Z');
    expect(result.stdout).toContain('SenseAct bench: suite mini on device sim-pixel, llm policy (model: scripted-test-model)');
    expect(result.stdout).toMatch(/^senseact +3 +2\/3 +66\.7% /m);
    expect(result.stdout).toMatch(/^senseact +80\.0%\/80\.0% /m);
    expect(result.stdout).toContain(`results: ${path.join(outDir, 'results.json')}\n`);
    expect(result.stdout).toContain(`report: ${path.join(outDir, 'report.html')}\n`);
    expect(reports).toEqual([outDir]);
    const results = benchResultsSchema.parse(JSON.parse(await readFile(path.join(outDir, 'results.json'), 'utf8')));
    expect(results.options).toMatchObject({ suite: 'mini', modes: ['senseact', 'react-vlm'], concurrency: 2, device: 'sim-pixel', policy: 'llm', modelLabel: 'scripted-test-model' });
    expect(factoryCalls).toEqual([expect.objectContaining({ suite: 'mini', device: 'sim-pixel', faults: undefined, policy: 'auto', outDir, concurrency: 2 })]);
    expect(factoryCalls[0]).not.toHaveProperty('workers');
    expect(result.stderr).toContain('policy: scripted test executor\n');
    expect(closed).toBe(1);
    expect(fake.calls.map((call) => call.task.instruction)).toContain('do alarm-add');
  });

  it('passes --workers to the executor factory', async () => {
    await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--concurrency', '4', '--workers', '0', '--out', 'workers']);
    expect(factoryCalls.at(-1)).toMatchObject({ concurrency: 4, workers: 0 });
  });

  it('passes --max-model-calls, --max-tokens and --max-cost to the executor factory with the prices; none without them', async () => {
    await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--out', 'budget', '--max-model-calls', '30', '--max-tokens', '20000', '--max-cost', '0.5', '--price-prompt', '1', '--price-completion', '2']);
    expect(factoryCalls.at(-1)).toMatchObject({ budget: { maxModelCalls: 30, maxTokens: 20000, maxCostUsd: 0.5 }, prices: { promptPerMillionUsd: 1, completionPerMillionUsd: 2 } });
    await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--out', 'no-budget']);
    expect(factoryCalls.at(-1)?.budget).toBeUndefined();
  });

  it('passes --faults and --policy oracle through, and labels the table', async () => {
    fake = new FakeTaskExecutor<Task>();
    const result = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--faults', 'standard', '--policy', 'oracle', '--out', 'out/oracle']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('SenseAct bench: suite mini on device sim, oracle policy (reference solutions, no model)');
    expect(factoryCalls[0]).toMatchObject({ faults: 'standard', policy: 'oracle', outDir: path.join(root, 'out', 'oracle') });
  });

  it('passes --model-faults through and records it in results.json beside --faults', async () => {
    fake = new FakeTaskExecutor<Task>();
    const result = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--faults', 'standard', '--model-faults', 'standard', '--policy', 'oracle', '--out', 'out/model-faults']);
    expect(result.exitCode).toBe(0);
    expect(factoryCalls[0]).toMatchObject({ faults: 'standard', modelFaults: 'standard' });
    expect(result.stdout).toContain('model faults ok/met');
    const written = JSON.parse(await readFile(path.join(root, 'out', 'model-faults', 'results.json'), 'utf8'));
    expect(written.options).toMatchObject({ faults: 'standard', modelFaults: 'standard' });
    expect(written.tasks[0].conditions).toMatchObject({ modelFaults: 'standard' });
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
    [['--mode', 'senseact,vision'], /--mode: unknown mode "vision"; choose from senseact, senseact-text, senseact-vlm-always, react-vlm, react-text, open-loop/],
    [['--mode', 'senseact,senseact'], /--mode: mode "senseact" is listed twice/],
    [['--mode', ' , '], /--mode: give at least one mode/],
    [['--mode', 'senseact', '--concurrency', '0'], /--concurrency: expected a whole number ≥ 1, got "0"/],
    [['--mode', 'senseact', '--repeat', 'two'], /--repeat: expected a whole number ≥ 1, got "two"/],
    [['--mode', 'senseact', '--workers', 'two'], /--workers: expected a whole number ≥ 0 \(0: the main thread only\), got "two"/],
    [['--mode', 'senseact', '--policy', 'human'], /--policy: unknown policy "human"; choose llm, oracle or auto/],
    [['--mode', 'senseact', '--price-prompt', '-1', '--price-completion', '1'], /--price-prompt: expected US dollars per 1M tokens/],
    [['--mode', 'senseact', '--price-prompt', '1'], /--price-completion: give both --price-prompt and --price-completion, or neither/],
    [['--mode', 'senseact', '--price-cached-prompt', '0.5'], /--price-cached-prompt: give it with --price-prompt and --price-completion/],
    [['--mode', 'senseact', '--price-prompt', '1', '--price-completion', '1', '--price-cached-prompt', 'half'], /--price-cached-prompt: expected US dollars per 1M tokens/],
    [['--mode', 'senseact', '--breaker', 'off'], /--breaker: expected a whole number ≥ 0 \(0: never stop\), got "off"/],
    [['--mode', 'senseact', '--max-model-calls', '0'], /--max-model-calls: expected a whole number ≥ 1, got "0"/],
    [['--mode', 'senseact', '--max-tokens', '1e3'], /--max-tokens: expected a whole number ≥ 1, got "1e3"/],
    [['--mode', 'senseact', '--max-cost', '-2'], /--max-cost: expected US dollars \(a number > 0\), got "-2"/],
    [['--mode', 'senseact', '--faults', 'nonsense'], /--faults: unknown fault profile "nonsense"; choose from none, standard/],
    [['--mode', 'senseact', '--model-faults', 'heavy'], /--model-faults: unknown model fault profile "heavy"; choose from none, standard/],
    [['--mode', 'senseact', '--tasks', ' ,'], /--tasks: give at least one value/],
    [['--mode', 'senseact', '--out', 'x', '--force'], /--force: only goes with --resume/],
    [['--mode', 'senseact', '--resume'], /--resume: needs --out <dir>/],
    [['--mode', 'senseact', '--gate-threshold', '0'], /--gate-threshold: expected a whole number ≥ 1 \(consecutive failures on the same target before vision is asked; default 2\), got "0"/],
    [['--mode', 'senseact', '--gate-threshold', '1.5'], /--gate-threshold: expected a whole number ≥ 1 .*got "1.5"/],
    [['--mode', 'react-vlm,react-text', '--gate-threshold', '3'], /--gate-threshold: only the SenseAct modes have a VLM gate; none of react-vlm, react-text is one/],
    [['--mode', 'senseact', '--temperature', '2.5'], /--temperature: expected a number from 0 to 2 \(0: the most repeatable answers\), got "2.5"/],
    [['--mode', 'senseact', '--temperature', 'hot'], /--temperature: expected a number from 0 to 2 .*got "hot"/],
    [['--mode', 'senseact', '--temperature', ''], /--temperature: expected a number from 0 to 2 .*got ""/],
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
    const result = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--faults', 'standard', '--out', 'cut'], { signal: controller.signal });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('INCOMPLETE: 1 of 3 runs finished');
    expect(result.stderr).toContain(`finish it with: npx senseact bench --suite mini --mode senseact --device sim --faults standard --concurrency 1 --repeat 1 --policy llm --out ${path.join(root, 'cut')} --resume\n`);
    expect(closed).toBe(1);
  });

  it('exits 2 on --faults nonsense before anything runs', async () => {
    const result = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--faults', 'nonsense', '--out', 'never']);
    expect(result.exitCode).toBe(2);
    expect(factoryCalls).toHaveLength(0);
    expect(fake.calls).toHaveLength(0);
    expect(existsSync(path.join(root, 'never'))).toBe(false);
  });

  it('selects tasks with --tasks (ids and globs) and --tags, and names a pattern that matches nothing', async () => {
    const byGlob = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--tasks', '*-add,note-c?eate', '--out', 'glob']);
    expect(byGlob.exitCode).toBe(0);
    expect(fake.calls.map((call) => call.task.id).sort()).toEqual(['alarm-add', 'note-create']);
    const byTag = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--tags', 'quick', '--out', 'tag']);
    expect(byTag.exitCode).toBe(0);
    expect(fake.calls.slice(2).map((call) => call.task.id)).toEqual(['wifi-toggle']);
    const both = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--tags', 'create', '--tasks', 'note-*', '--out', 'both']);
    expect(fake.calls.slice(3).map((call) => call.task.id)).toEqual(['note-create']);
    expect(both.exitCode).toBe(0);
    const typo = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--tasks', 'alarm-add,alarm-dle', '--tags', 'toggel', '--out', 'typo']);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain('--tasks alarm-dle, --tags toggel: no task of suite mini matches (its tasks are alarm-add, wifi-toggle, note-create; its tags are create, quick, toggle)');
    const disjoint = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--tasks', 'alarm-add', '--tags', 'quick', '--out', 'disjoint']);
    expect(disjoint.exitCode).toBe(2);
    expect(disjoint.stderr).toContain('no task of suite mini matches all of these together');
    expect(fake.calls).toHaveLength(4);
  });

  it('refuses a plan the executor cannot run, listing the reasons and tasks, before the first run', async () => {
    const result = await bench(['--suite', 'mini', '--mode', 'senseact,react-text', '--device', 'sim', '--out', 'plan'], {
      createExecutor: async (options) => {
        factoryCalls.push(options);
        return {
          executor: fake.executor, modelLabel: 'none', policy: 'oracle', notice: 'policy: oracle', close: async () => { closed++; },
          checkTask: (task, mode) => (task.id === 'note-create' ? 'no reference solution' : task.id === 'wifi-toggle' && mode === 'react-text' ? 'no screen for text' : undefined),
        };
      },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('2 of 3 tasks of suite mini cannot run as asked; nothing was run:\n  - no screen for text: wifi-toggle (react-text)\n  - no reference solution: note-create (senseact), note-create (react-text)\nSelect runnable tasks with --tasks / --tags');
    expect(fake.calls).toHaveLength(0);
    expect(closed).toBe(1);
    expect(existsSync(path.join(root, 'plan'))).toBe(false);
    // Negative control: the same executor runs the tasks it can.
    const runnable = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--tasks', 'alarm-add', '--out', 'plan'], {
      createExecutor: async () => ({ executor: fake.executor, modelLabel: 'none', policy: 'llm', notice: '', close: async () => undefined, checkTask: (task) => (task.id === 'note-create' ? 'no reference solution' : undefined) }),
    });
    expect(runnable.exitCode).toBe(0);
  });

  it('exits 4 when runs end in infrastructure errors and prints the first causes with their traces', async () => {
    fake = new FakeTaskExecutor<Task>((request) => (request.task.id === 'alarm-add'
      ? { kind: 'result', result: { policy: 'llm' } }
      : { kind: 'throw', error: new Error(request.task.id === 'wifi-toggle' ? 'connect ECONNREFUSED 127.0.0.1:4723' : 'model never replied validly') }));
    const result = await bench(['--suite', 'mini', '--mode', 'senseact,react-text', '--device', 'sim', '--out', 'broken', '--breaker', '0']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('senseact: 4 of 6 runs ended in an infrastructure error (exit 4); the first causes:\n');
    expect(result.stderr).toContain(`  - wifi-toggle senseact r0 (and 1 more run): executor threw: Error: connect ECONNREFUSED 127.0.0.1:4723\n    trace: ${path.join(root, 'broken', 'traces', 'wifi-toggle', 'senseact-r0')}`);
    expect(result.stderr).toContain('  - note-create senseact r0 (and 1 more run): executor threw: Error: model never replied validly');
    // Negative control: no error, exit 0 even though a task failed (failures are results).
    fake = new FakeTaskExecutor<Task>((request) => ({ kind: 'result', result: { policy: 'llm', success: request.task.id !== 'note-create' } }));
    const clean = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--out', 'clean']);
    expect(clean.exitCode).toBe(0);
    expect(clean.stderr).not.toContain('infrastructure error');
  });

  it('stops starting runs after 3 infrastructure errors in a row, exits 4 with the one cause and the --resume line', async () => {
    fake = new FakeTaskExecutor<Task>(() => ({ kind: 'throw', error: new Error('Model call failed (timeout) for model m (role planner) at http://127.0.0.1:9/v1 after 2 attempt(s): the request timed out.') }));
    const result = await bench(['--suite', 'mini', '--mode', 'senseact,react-text', '--device', 'sim', '--out', 'dead']);
    expect(result.exitCode).toBe(4);
    expect(fake.calls).toHaveLength(3);
    expect(result.stderr).toMatch(/\nsenseact: stopped starting runs after 3 runs in a row ended in an infrastructure error \(exit 4\); the cause:\n  executor threw: Error: Model call failed \(timeout\)[^\n]*\n  trace: [^\n]*\nOnce the cause is fixed, finish the benchmark with: npx senseact bench --suite mini --mode senseact,react-text --device sim .*--out \S+dead --resume\n$/);
    const written = JSON.parse(await readFile(path.join(root, 'dead', 'results.json'), 'utf8'));
    expect(written).toMatchObject({ complete: false, breaker: { failures: 3 } });
    // Negative control: the errors resolved, --resume runs the rest and the three again.
    fake = new FakeTaskExecutor<Task>(() => ({ kind: 'result', result: { policy: 'llm' } }));
    const resumed = await bench(['--suite', 'mini', '--mode', 'senseact,react-text', '--device', 'sim', '--out', 'dead', '--resume']);
    expect(resumed.exitCode).toBe(0);
    expect(fake.calls).toHaveLength(6);
  });

  it('writes JUnit XML with one testcase per task, mode and repeat', async () => {
    fake = new FakeTaskExecutor<Task>((request) => (request.task.id === 'wifi-toggle'
      ? { kind: 'throw', error: new Error('device <lost> & "gone"') }
      : { kind: 'result', result: { policy: 'llm', success: request.task.id === 'alarm-add', reason: 'screen exists(text="Done"): no node matches' } }));
    const result = await bench(['--suite', 'mini', '--mode', 'senseact,react-text', '--device', 'sim', '--repeat', '2', '--out', 'ci', '--junit', 'ci/junit.xml']);
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toContain(`junit: ${path.join(root, 'ci', 'junit.xml')}\n`);
    const xml = await readFile(path.join(root, 'ci', 'junit.xml'), 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(12);
    expect(xml).toContain('<testsuite name="mini senseact" tests="6" failures="2" errors="2" skipped="0"');
    expect(xml).toMatch(/<testcase classname="mini\.senseact" name="alarm-add r1" time="[\d.]+"\/>/);
    expect(xml).toContain('<failure message="screen exists(text=&quot;Done&quot;): no node matches" type="task-failed">');
    expect(xml).toContain('<error message="executor threw: Error: device &lt;lost&gt; &amp; &quot;gone&quot;" type="infrastructure">');
  });

  it('prices the cost with the executor\'s models, and says when the price is unknown', async () => {
    const priced = (prices: { label: string; promptPerMillionUsd: number; completionPerMillionUsd: number; unknown?: boolean }) => async () => ({ executor: fake.executor, modelLabel: 'local-llama', policy: 'llm' as const, notice: '', prices, close: async () => undefined });
    const unknown = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--out', 'unknown'], { createExecutor: priced({ label: 'unknown price (no known price for local-llama; set one with --price-prompt and --price-completion)', promptPerMillionUsd: 0, completionPerMillionUsd: 0, unknown: true }) });
    expect(unknown.stdout).toMatch(/^senseact .* \? /m);
    expect(unknown.stdout).toContain('cost: unknown price (no known price for local-llama');
    expect(unknown.stdout).not.toContain('gpt-4o');
    const flags = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--out', 'flags', '--price-prompt', '1', '--price-completion', '2'], { createExecutor: priced({ label: 'ignored', promptPerMillionUsd: 9, completionPerMillionUsd: 9 }) });
    expect(flags.stdout).toContain('cost at prices from the command line: $1 prompt / $2 completion per 1M tokens');
  });

  it('passes --meta-plan, --vote and --app-memory to the executor factory, off by default; refuses bad values', async () => {
    await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--out', 'a']);
    expect(factoryCalls[0]?.planning).toEqual({ metaPlan: false, vote: 1, voteTemperature: 0.7 });
    await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--out', 'b', '--meta-plan', '--vote', '3', '--vote-temperature', '1', '--app-memory', 'mem']);
    expect(factoryCalls[1]?.planning).toEqual({ metaPlan: true, vote: 3, voteTemperature: 1, appMemoryDir: path.join(root, 'mem') });
    const zero = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--vote', '0']);
    expect(zero.exitCode).toBe(2);
    expect(zero.stderr).toContain('--vote: expected a whole number ≥ 1, got "0"');
    const lone = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--vote-temperature', '0.5']);
    expect(lone.stderr).toContain('--vote-temperature: only goes with --vote n (n ≥ 2)');
    expect(factoryCalls).toHaveLength(2);
  });

  it('passes --gate-threshold and --temperature to the executor factory and records them in results.json and each run', async () => {
    await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--out', 'plain']);
    expect(factoryCalls[0]).not.toHaveProperty('gateThreshold');
    expect(factoryCalls[0]).not.toHaveProperty('temperature');
    const plain = JSON.parse(await readFile(path.join(root, 'plain', 'results.json'), 'utf8'));
    expect(plain.options).toMatchObject({ gateThreshold: null, temperature: null });
    const result = await bench(['--suite', 'mini', '--mode', 'senseact,react-vlm', '--device', 'sim', '--out', 'ablation', '--gate-threshold', '3', '--temperature', '0.4']);
    expect(result.exitCode).toBe(0);
    expect(factoryCalls[1]).toMatchObject({ gateThreshold: 3, temperature: 0.4 });
    expect(result.stdout).toContain('conditions: VLM gate threshold τ = 3; temperature 0.4 for every model role\n');
    const written = JSON.parse(await readFile(path.join(root, 'ablation', 'results.json'), 'utf8'));
    expect(written.options).toMatchObject({ gateThreshold: 3, temperature: 0.4 });
    for (const run of written.tasks) expect(run.conditions).toMatchObject({ gateThreshold: 3, temperature: 0.4 });
  });

  it('refuses to resume under another --temperature or --gate-threshold unless --force, and names both values', async () => {
    fake = new FakeTaskExecutor<Task>(() => ({ kind: 'result', result: { policy: 'llm' } }));
    const first = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--out', 'warm', '--temperature', '0']);
    expect(first.exitCode).toBe(0);
    const hotter = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--out', 'warm', '--resume', '--temperature', '1']);
    expect(hotter.exitCode).toBe(2);
    expect(hotter.stderr).toContain('--temperature: the run used 0, this one 1');
    const gated = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--out', 'warm', '--resume', '--temperature', '0', '--gate-threshold', '1']);
    expect(gated.stderr).toContain('--gate-threshold: the run used (none), this one 1');
    const same = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--out', 'warm', '--resume', '--temperature', '0']);
    expect(same.stderr).not.toContain('other conditions');
    expect(same.exitCode).toBe(0);
    const forced = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--out', 'warm', '--resume', '--force', '--temperature', '1']);
    expect(forced.exitCode).toBe(0);
  });

  it('records the --skills folder\'s digest and refuses to resume when its skill files changed, or with another folder; the same files resume', async () => {
    fake = new FakeTaskExecutor<Task>(() => ({ kind: 'result', result: { policy: 'llm' } }));
    await mkdir(path.join(root, 'skills'), { recursive: true });
    await writeFile(path.join(root, 'skills', 'alarm.yaml'), 'name: alarm\n');
    const args = ['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--out', 'taught', '--skills', 'skills'];
    const first = await bench(args);
    expect(first.exitCode).toBe(0);
    expect(factoryCalls[0]).toMatchObject({ skills: path.join(root, 'skills') });
    const written = benchResultsSchema.parse(JSON.parse(await readFile(path.join(root, 'taught', 'results.json'), 'utf8')));
    expect(written.options.skills).toMatchObject({ dir: path.join(root, 'skills'), files: { 'alarm.yaml': expect.stringMatching(/^[0-9a-f]{16}$/) } });
    const same = await bench([...args, '--resume']);
    expect(same.exitCode).toBe(0);
    await writeFile(path.join(root, 'skills', 'alarm.yaml'), 'name: alarm\n# grafted\n');
    const changed = await bench([...args, '--resume']);
    expect(changed.exitCode).toBe(2);
    expect(changed.stderr).toContain(`--skills ${path.join(root, 'skills')}: its skill files changed since the run started (changed alarm.yaml); restore them (the run recorded digest ${written.options.skills?.digest ?? ''}) or finish in another --out`);
    await writeFile(path.join(root, 'skills', 'alarm.yaml'), 'name: alarm\n');
    await mkdir(path.join(root, 'other'), { recursive: true });
    await writeFile(path.join(root, 'other', 'alarm.yaml'), 'name: alarm\n');
    const moved = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--out', 'taught', '--skills', 'other', '--resume']);
    expect(moved.exitCode).toBe(2);
    expect(moved.stderr).toContain(`--skills: the run used ${path.join(root, 'skills')}, this one ${path.join(root, 'other')} (the same skill files)`);
    const without = await bench(['--suite', 'mini', '--mode', 'senseact', '--device', 'sim', '--out', 'taught', '--resume']);
    expect(without.stderr).toContain(`--skills: the run used ${path.join(root, 'skills')}, this one (none)`);
    // Restored: the run resumes.
    expect((await bench([...args, '--resume'])).exitCode).toBe(0);
  });

  it('lists its exit codes in --help', async () => {
    const result = await bench(['--help']);
    expect(result.stdout).toMatch(/Exit codes:\n {2}0 {2}every run finished.*\n {2}1 {2}interrupted.*; 130 when\n {5}Ctrl-C \(SIGINT\) stopped it, 143 for SIGTERM.*\n {2}2 {2}bad input.*\n.*\n {2}4 {2}at least one run ended in an infrastructure error/);
  });
});

describe('defaultOutDir', () => {
  it('names the dir after the suite folder and the UTC time', () => {
    expect(defaultOutDir('androidlab', new Date('2026-01-02T03:04:05.006Z'))).toBe(path.join('runs', 'bench-androidlab-20260102T030405Z'));
    expect(defaultOutDir('/x/my suite/', new Date('2026-01-02T03:04:05Z'))).toBe(path.join('runs', 'bench-my_suite-20260102T030405Z'));
  });
});
