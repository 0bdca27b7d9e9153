// Seeded mutants of every input the CLI reads, each fed to the command (or, for model
// replies, the run) that reads it: XML dumps, DroidBot states, task YAML, predicates, model
// replies, cassettes, device profiles, app memory, skill files and a bench journal for
// --resume. Each mutant has its own seed (`mutantSeed`), so one can be replayed alone.
// Shared by tests/integration/hardening/fuzz-inputs.test.ts (a few hundred, in process) and
// scripts/fuzz-cli.ts (thousands, each watched for hangs from another process).
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { runTask } from '../../src/agent/run-task.js';
import { simulatorForTask } from '../../src/bench/simulator-for-task.js';
import type { CliIo } from '../../src/cli/cli-io.js';
import { main } from '../../src/cli/main.js';
import { SimDevice } from '../../src/device/sim-device.js';
import { ScriptedLanguageModel, ScriptedVisionModel } from '../../src/model/scripted-language-model.js';
import { loadSuite } from '../../src/tasks/load-task-file.js';
import type { Task } from '../../src/tasks/task-schema.js';
import { stableHash } from '../../src/util/stable-hash.js';
import { generateMutants, seededRandom } from './mutate-dumps.js';

/** The inputs fuzzed, one family each. */
export const fuzzFamilies = ['xml', 'droidbot', 'task', 'predicate', 'reply', 'cassette', 'profile', 'memory', 'skill', 'journal'] as const;
export type FuzzFamily = (typeof fuzzFamilies)[number];

/** What one mutant did: accepted (a valid input, any ordinary exit), a named error (exit 2, or a run's named error), or a defect. */
export interface FuzzVerdict {
  readonly family: FuzzFamily;
  readonly index: number;
  readonly operator: string;
  readonly outcome: 'accepted' | 'named' | 'crash' | 'unnamed';
  readonly detail: string;
  readonly ms: number;
  /** CPU time the mutant took (user + system, this process): the measure of a hang on a loaded machine. */
  readonly cpuMs: number;
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** The seed of mutant `index` of `family` in a fuzz run seeded `seed`. */
export function mutantSeed(seed: number, family: FuzzFamily, index: number): number {
  return stableHash(`${seed}#${family}#${index}`);
}

const junk = ['{', '}', '[', ']', '"', "'", ':', ',', '\\', '\u0000', '\u009b', '\ufeff', '\ud800', '&a', '*a', '<<: *a', '!!js/function', '- ', '\n  - ', '\t', '%YAML 1.1', '---', '...', 'null', '~', '-1', '1e309', 'NaN', '(a+)+$', '$(echo)', '${HOME}', '../../etc/passwd', '<script>', '=~/', ')', '(', 'and', 'not(', '\r\n'];
const absurd: readonly unknown[] = [null, -1, 0, 1e308, -1e308, 2 ** 53 + 1, 1.5, '', ' ', 'x'.repeat(20_000), '(a+)+$'.repeat(3), '\u0000', true, [], {}, [[[[[]]]]], { nested: { deeper: [1, 'two', null] } }, '__proto__', 'constructor'];

/** A text mutation: truncations, deletions, duplications, junk, swaps, nesting and size bombs. */
function mutateText(text: string, random: Random): { operator: string; content: string } {
  const at = Math.floor(random() * (text.length + 1));
  const span = Math.floor(random() * Math.min(200, text.length + 1));
  switch (Math.floor(random() * 10)) {
    case 0: return { operator: 'truncate', content: text.slice(0, at) };
    case 1: return { operator: 'delete-span', content: text.slice(0, at) + text.slice(at + span) };
    case 2: return { operator: 'duplicate-span', content: text.slice(0, at + span) + text.slice(at, at + span) + text.slice(at + span) };
    case 3: return { operator: 'junk', content: text.slice(0, at) + pick(random, junk) + text.slice(at) };
    case 4: {
      const lines = text.split('\n');
      const a = Math.floor(random() * lines.length);
      const b = Math.floor(random() * lines.length);
      [lines[a], lines[b]] = [lines[b]!, lines[a]!];
      return { operator: 'swap-lines', content: lines.join('\n') };
    }
    case 5: {
      const depth = pick(random, [100, 2_000, 20_000]);
      const open = pick(random, ['[', '{"a":', '(', 'not(', '- ']);
      const close = { '[': ']', '{"a":': '}', '(': ')', 'not(': ')', '- ': '' }[open] ?? '';
      return { operator: `nest-${depth}`, content: text.slice(0, at) + open.repeat(depth) + close.repeat(depth) + text.slice(at) };
    }
    case 6: return { operator: 'long-line', content: text.slice(0, at) + 'x'.repeat(pick(random, [1_000, 100_000, 1_000_000])) + text.slice(at) };
    case 7: return { operator: 'number', content: text.replace(/\d+/, () => String(pick(random, ['99999999999999999999', '-1', '1e309', '0x1f', '1.5', 'NaN']))) };
    case 8: return { operator: 'empty', content: pick(random, ['', '\n', ' ', '\ufeff', 'null', '[]', '{}', '---', '~']) };
    default: return { operator: 'case-flip', content: text.slice(0, at) + text.slice(at, at + span).toUpperCase() + text.slice(at + span) };
  }
}

/** A structural mutation of parsed JSON/YAML: a value replaced by another type, a key dropped or added, an alias bomb. */
function mutateData(data: unknown, random: Random): { operator: string; data: unknown } {
  const nodes: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach((item, index) => { nodes.push({ parent: value, key: index }); walk(item); });
    else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) { nodes.push({ parent: value as Record<string, unknown>, key }); walk(item); }
  };
  walk(data);
  if (nodes.length === 0) return { operator: 'replace-root', data: pick(random, absurd) };
  const node = pick(random, nodes);
  const roll = random();
  if (roll < 0.55) (node.parent as Record<string | number, unknown>)[node.key] = structuredClone(pick(random, absurd));
  else if (roll < 0.8) {
    if (Array.isArray(node.parent)) node.parent.splice(node.key as number, 1);
    else delete node.parent[node.key as string];
  } else if (!Array.isArray(node.parent)) node.parent[pick(random, ['unknownKey', '__proto__', 'constructor', 'x-extra'])] = pick(random, absurd);
  else node.parent.push(structuredClone(node.parent[0]));
  return { operator: roll < 0.55 ? 'replace-value' : roll < 0.8 ? 'drop' : 'add', data };
}

/** One mutant of a seed text: half text-level, half structural (JSON or YAML as the seed is). */
function mutate(seedText: string, format: 'json' | 'yaml' | 'jsonl' | 'text', random: Random): { operator: string; content: string } {
  if (format === 'text' || random() < 0.5) return mutateText(seedText, random);
  if (format === 'jsonl') {
    const lines = seedText.trim().split('\n');
    const line = Math.floor(random() * lines.length);
    const { operator, data } = mutateData(JSON.parse(lines[line]!), random);
    lines[line] = JSON.stringify(data) ?? 'undefined';
    return { operator: `line-${operator}`, content: `${lines.join('\n')}\n` };
  }
  const parsed: unknown = format === 'json' ? JSON.parse(seedText) : parseYaml(seedText);
  if (format === 'yaml' && random() < 0.15) {
    return { operator: 'alias-bomb', content: `a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n${seedText}` };
  }
  const { operator, data } = mutateData(parsed, random);
  return { operator, content: format === 'json' ? JSON.stringify(data, null, 2) ?? '' : stringifyYaml(data) };
}

/** The valid inputs the mutants start from, written once into a work folder. */
export interface FuzzSeeds {
  readonly work: string;
  readonly dump: string;
  readonly dumps: readonly { name: string; text: string }[];
  readonly task: string;
  readonly cassette: string;
  readonly profile: string;
  readonly memory: { readonly file: string; readonly text: string };
  readonly skill: { readonly file: string; readonly text: string };
  readonly journal: { readonly folder: string; readonly text: string };
  readonly replyTask: Task;
  readonly cleanup: () => void;
}

async function quietCli(args: readonly string[], cwd: string): Promise<{ code: number | 'crash'; out: string; err: string; crash?: string }> {
  let out = '';
  let err = '';
  const io: CliIo = { stdout: (text) => { out += text; }, stderr: (text) => { err += text; }, cwd, env: {} };
  try {
    return { code: await main(args, io), out, err };
  } catch (error) {
    return { code: 'crash', out, err, crash: error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]?.slice(0, 160)}` : String(error) };
  }
}

/** Writes the seeds: real dumps, a task file, a predicate's screen, a cassette, a profile, and a bench's memory, skills and journal. */
export async function prepareFuzzSeeds(repoRoot: string): Promise<FuzzSeeds> {
  const work = mkdtempSync(path.join(tmpdir(), 'senseact-fuzz-'));
  const corpus = path.join(repoRoot, 'tests/fixtures/dump-corpus');
  const dumps = readdirSync(corpus, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(xml|json)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort()
    .map((file) => ({ name: path.relative(corpus, file), text: readFileSync(file, 'utf8') }))
    // Small seeds keep a mutant to milliseconds; DroidBot states are wordier than XML dumps.
    .filter((seed) => seed.text.length < (seed.name.endsWith('.json') ? 27_000 : 16_000));
  const dump = path.join(work, 'screen.xml');
  writeFileSync(dump, dumps.find((seed) => seed.name.endsWith('.xml'))!.text);
  const suite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });
  const settingsYaml = readFileSync(path.join(repoRoot, 'tasks/sim/settings.yaml'), 'utf8');
  const parsed = parseYaml(settingsYaml) as { tasks: unknown[] };
  const task = stringifyYaml({ tasks: parsed.tasks.slice(0, 2) });
  const cassetteEntry = (occurrence: number, text: string): string => JSON.stringify({ v: 1, hash: 'a'.repeat(32), occurrence, role: 'planner', model: 'gpt-4o', request: { messages: [{ role: 'system', content: 'You operate an Android app.' }, { role: 'user', content: 'Task: open settings' }], temperature: 0, json: true }, reply: { text, usage: { promptTokens: 10, completionTokens: 5 }, latencyMs: 12, model: 'gpt-4o', finishReason: 'stop', attempts: 1 } });
  const cassette = `${cassetteEntry(0, '{"intent":"Open settings","commitment":[]}')}\n${cassetteEntry(1, '{"intent":"done","finish":true}')}\n`;
  const profile = readFileSync(path.join(repoRoot, 'devices/sim.yaml'), 'utf8');
  // A one-task bench leaves a journal; another with app memory leaves the memory and runs that skills are induced from.
  const bench = path.join(work, 'bench');
  const run = await quietCli(['bench', '--suite', 'sim', '--tasks', 'settings-wifi-off', '--mode', 'senseact', '--device', 'sim', '--out', bench], repoRoot);
  const learned = await quietCli(['bench', '--suite', 'sim', '--tasks', 'settings-wifi-off', '--mode', 'senseact', '--device', 'sim', '--app-memory', path.join(work, 'memory'), '--out', path.join(work, 'bench-memory')], repoRoot);
  const skills = await quietCli(['skills', 'induce', bench, '--out', path.join(work, 'skills')], repoRoot);
  if (run.code !== 0 || learned.code !== 0 || skills.code !== 0) throw new Error(`fuzz seeds: a seed bench or the skill induction failed: ${run.err} ${learned.err} ${skills.err}`);
  const memoryFile = readdirSync(path.join(work, 'memory')).find((name) => name.endsWith('.json'))!;
  const skillFile = readdirSync(path.join(work, 'skills')).find((name) => name.endsWith('.yaml'))!;
  const replyTask = suite.tasks.find((candidate) => candidate.id === 'settings-wifi-off')!;
  return {
    work, dump, dumps, task, cassette, profile,
    memory: { file: memoryFile, text: readFileSync(path.join(work, 'memory', memoryFile), 'utf8') },
    skill: { file: skillFile, text: readFileSync(path.join(work, 'skills', skillFile), 'utf8') },
    journal: { folder: bench, text: readFileSync(path.join(bench, 'results.jsonl'), 'utf8') },
    replyTask: { ...replyTask, stepBudget: 3 },
    cleanup: () => rmSync(work, { recursive: true, force: true }),
  };
}

/** A CLI outcome as a verdict: exit 2 must come with a `senseact …:` message and no stack trace; a throw is a crash. */
function judgeCli(run: { code: number | 'crash'; err: string; crash?: string }, allowInfrastructure = false): Pick<FuzzVerdict, 'outcome' | 'detail'> {
  if (run.code === 'crash') return { outcome: 'crash', detail: run.crash ?? '' };
  if (/\n\s+at .+:\d+:\d+\)?/.test(run.err)) return { outcome: 'crash', detail: `exit ${run.code} with a stack trace: ${run.err.slice(0, 160)}` };
  // The bench says its policy first: the error is the line that names the command.
  const named = /^(?:senseact[\w -]*|error): \S.*$/m.exec(run.err)?.[0];
  if (run.code === 2) return named !== undefined ? { outcome: 'named', detail: named.slice(0, 160) } : { outcome: 'unnamed', detail: `exit 2: ${run.err.slice(-300)}` };
  if (run.code === 0 || run.code === 1 || run.code === 3 || (allowInfrastructure && run.code === 4)) return { outcome: 'accepted', detail: `exit ${run.code}` };
  return { outcome: 'unnamed', detail: `exit ${run.code}: ${run.err.slice(0, 160)}` };
}

/** Runs mutant `index` of `family` (seeded by `mutantSeed`) through what reads it. */
export async function runFuzzMutant(seeds: FuzzSeeds, family: FuzzFamily, index: number, seed: number): Promise<FuzzVerdict> {
  const random = seededRandom(mutantSeed(seed, family, index));
  const folder = path.join(seeds.work, `${family}-${index}`);
  mkdirSync(folder, { recursive: true });
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  let operator = '';
  let verdict: Pick<FuzzVerdict, 'outcome' | 'detail'>;
  const cli = (args: readonly string[]): ReturnType<typeof quietCli> => quietCli(args, folder);
  try {
    switch (family) {
      case 'xml':
      case 'droidbot': {
        const wanted = seeds.dumps.filter((candidate) => candidate.name.endsWith(family === 'xml' ? '.xml' : '.json'));
        const mutant = generateMutants(wanted, 1, mutantSeed(seed, family, index))[0]!;
        operator = mutant.operator;
        const file = path.join(folder, `screen.${mutant.family}`);
        writeFileSync(file, mutant.content);
        verdict = judgeCli(await cli(random() < 0.5 ? ['inspect', '--json', file] : ['check', file, 'exists(text=~/^(a+)+$/) or checked(is=switch)']));
        break;
      }
      case 'task': {
        const mutant = mutate(seeds.task, 'yaml', random);
        operator = mutant.operator;
        mkdirSync(path.join(folder, 'tasks', 'fuzz'), { recursive: true });
        writeFileSync(path.join(folder, 'tasks', 'fuzz', 'tasks.yaml'), mutant.content);
        verdict = judgeCli(await cli(['bench', '--suite', path.join(folder, 'tasks', 'fuzz'), '--mode', 'senseact', '--device', 'sim', '--dry-run']));
        break;
      }
      case 'predicate': {
        const base = pick(random, ['exists(text="Wi-Fi") and not checked(is=switch, near(text="Airplane mode"))', 'count(is=button) >= 2 or text(desc="Navigate up") matches /^Nav.*$/', '{"op":"exists","query":{"text":{"equals":"OK"}}}', 'unique(id="android:id/title", within(text="Settings")) and screenChanged']);
        const mutant = mutate(base, base.startsWith('{') && random() < 0.5 ? 'json' : 'text', random);
        operator = mutant.operator;
        verdict = judgeCli(await cli(['check', seeds.dump, mutant.content]));
        break;
      }
      case 'reply': {
        const base = pick(random, ['{"intent":"Turn off Wi-Fi","expectation":"not checked(is=switch, near(text=\\"Wi-Fi\\"))","commitment":[{"unit":"n0000","checked":false}]}', '{"thought":"tap","action":{"unit":"n0000"},"finish":false}', '{"intent":"done","expectation":"","commitment":[],"finish":true,"answer":"x"}', '{"unit":null,"reason":"nothing","alreadyDone":false}']);
        const mutant = mutate(base, 'json', random);
        operator = mutant.operator;
        const mode = pick(random, ['senseact', 'react-text', 'open-loop', 'react-vlm'] as const);
        const simulator = simulatorForTask(seeds.replyTask);
        const device = new SimDevice(simulator);
        const models = { planner: new ScriptedLanguageModel({ replies: () => mutant.content }), verifier: new ScriptedLanguageModel({ replies: () => mutant.content }), vision: new ScriptedVisionModel({ replies: () => mutant.content }) };
        const result = await runTask({ task: seeds.replyTask, mode, policy: 'llm', models, device, traceRoot: folder, suite: 'fuzz', probe: device });
        await device.close();
        // Any end is a verdict: a failure, or an infrastructure error that names what was wrong.
        verdict = result.error !== null && result.error.trim() === '' ? { outcome: 'unnamed', detail: 'an infrastructure error without a message' } : { outcome: result.error === null ? 'accepted' : 'named', detail: `${mode}: ${(result.error ?? result.reason).slice(0, 160)}` };
        break;
      }
      case 'cassette': {
        const mutant = mutate(seeds.cassette, 'jsonl', random);
        operator = mutant.operator;
        const file = path.join(folder, 'calls.jsonl');
        writeFileSync(file, mutant.content);
        verdict = judgeCli(await cli(random() < 0.7 ? ['cassette', file] : ['cassette', file, '--hash', 'aaaa', '--json']));
        break;
      }
      case 'profile': {
        const mutant = mutate(seeds.profile, 'yaml', random);
        operator = mutant.operator;
        const file = path.join(folder, 'profile.yaml');
        writeFileSync(file, mutant.content);
        verdict = judgeCli(await cli(['devices', 'check', file]));
        break;
      }
      case 'memory': {
        const mutant = mutate(seeds.memory.text, 'json', random);
        operator = mutant.operator;
        mkdirSync(path.join(folder, 'memory'));
        writeFileSync(path.join(folder, 'memory', seeds.memory.file), mutant.content);
        verdict = judgeCli(await cli(['memory', 'list', '--dir', path.join(folder, 'memory')]));
        break;
      }
      case 'skill': {
        const mutant = mutate(seeds.skill.text, 'yaml', random);
        operator = mutant.operator;
        mkdirSync(path.join(folder, 'skills'));
        writeFileSync(path.join(folder, 'skills', seeds.skill.file), mutant.content);
        verdict = judgeCli(await cli(random() < 0.8 ? ['skills', 'list', '--dir', path.join(folder, 'skills')] : ['bench', '--suite', 'sim', '--tasks', 'settings-wifi-off', '--mode', 'senseact', '--device', 'sim', '--skills', path.join(folder, 'skills'), '--dry-run']));
        break;
      }
      case 'journal': {
        const mutant = mutate(seeds.journal.text, 'jsonl', random);
        operator = mutant.operator;
        const out = path.join(folder, 'bench');
        cpSync(seeds.journal.folder, out, { recursive: true });
        writeFileSync(path.join(out, 'results.jsonl'), mutant.content);
        // A journal that still holds the run resumes with nothing to do; a damaged line is named, or its run is redone.
        verdict = judgeCli(await cli(['bench', '--suite', 'sim', '--tasks', 'settings-wifi-off', '--mode', 'senseact', '--device', 'sim', '--out', out, '--resume']), true);
        break;
      }
    }
  } catch (error) {
    verdict = { outcome: 'crash', detail: error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]?.slice(0, 160)}` : String(error) };
  }
  if (process.env['SENSEACT_FUZZ_KEEP'] === undefined) rmSync(folder, { recursive: true, force: true });
  const cpu = process.cpuUsage(cpuStarted);
  return { family, index, operator, ...verdict, ms: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000 };
}
