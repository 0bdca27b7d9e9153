// Every shell command in the code blocks of README.md and docs/*.md runs as written, offline,
// so the docs stay true. `npx senseact` commands run through the CLI's own entry point (in
// process, in a scratch folder, with the command's environment and nothing else): a bench
// with --dry-run (it checks the suite, modes, device profile and that every task can run),
// except a bench whose output a later command of the block reads, which runs for real on a
// small task subset; commands that need a device, a server or a model with --help (observe and
// act on the in-process simulator run as written, in order). The rest
// are on the allow-list below, each with its reason. A bare `senseact` (command not found in
// a clone) fails the test.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/cli-io.js';
import { main } from '../../../src/cli/main.js';
import { docCommands, type DocCommand } from '../../helpers/doc-commands.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const documents = ['README.md', ...readdirSync(path.join(repoRoot, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];
const commands = documents.flatMap((file) => docCommands(file, readFileSync(path.join(repoRoot, file), 'utf8')));

/** Commands that cannot run offline here, and why. A script they start must exist. */
const allowList: readonly { readonly match: RegExp; readonly reason: string }[] = [
  { match: /^git clone /, reason: 'clones the repository (network); .ci/run clones it the same way' },
  { match: /^cd senseact$/, reason: 'enters the clone the command before it makes' },
  { match: /^npm ci$/, reason: 'installs the dependencies (network); .ci/run runs it as written' },
  { match: /^npm pack$/, reason: 'builds and packs the package (a minute); the packed-package test (SENSEACT_PACK_TEST=1, run by .ci/run) packs and installs it' },
  { match: /^npm install \.\.\/senseact\/senseact-[\d.]+\.tgz$/, reason: 'installs the packed tarball into another project; the packed-package test does that' },
  { match: /^npm test$/, reason: 'the whole test suite, this test among them; .ci/run runs it as written' },
  { match: /^npx tsx scripts\/start-(appium|grid)\.ts\b/, reason: 'starts servers that run until Ctrl-C (Appium, a Selenium Grid); the script must exist' },
  { match: /^emulator /, reason: 'the Android SDK emulator' },
  { match: /^npx tsx scripts\/generate-androidworld-tasks\.ts\b/, reason: 'writes (or with --check compares) the AndroidWorld suite files; tests/integration/tasks/androidworld-suite.test.ts checks that the committed files are its output' },
  { match: /^npx tsx scripts\/droidbot-to-transitions\.ts\b/, reason: 'converts DroidBot output folders the reader has; tests/integration/droidbot-to-transitions.test.ts runs it on tests/fixtures/droidbot-output' },
  { match: /^adb /, reason: 'the Android platform tools, against a running emulator' },
  { match: /^bash scripts\/setup-emulator\.sh\b/, reason: 'downloads the Android SDK, a system image and (--androidworld) AndroidWorld\'s APKs: network, minutes; the script must exist' },
  { match: /^java -jar /, reason: 'a Selenium Grid hub or node (Java, runs until stopped)' },
  { match: /^export /, reason: 'sets the environment of the commands after it in its block (they get it)' },
];

/** Subcommands that need a device, a server or a model: run with --help (the command and its options exist). On the in-process simulator (`sim`) observe and act run as written. */
const needsDevice = [/^devices check\b/, /^observe (?!sim(\s|$))/, /^act (?!sim(\s|$))/, /^models --check\b/];

/** A bench whose output a later command reads runs for real on these tasks (per document). */
const realBenchTasks: Readonly<Record<string, string>> = { 'docs/skills.md': 'clock-alarm-3pm-meeting', 'docs/skills-measurements.md': 'clock-alarm-3pm-meeting' };

type Outcome = { command: DocCommand; how: string; code?: number; output?: string };

function allowed(command: DocCommand): string | undefined {
  return allowList.find((entry) => entry.match.test(command.argv.join(' ')))?.reason;
}

function outOf(argv: readonly string[]): string | undefined {
  const index = argv.indexOf('--out');
  return index < 0 ? undefined : argv[index + 1];
}

async function runSenseact(command: DocCommand, later: readonly DocCommand[], cwd: string): Promise<Outcome> {
  let argv = command.argv.slice(2);
  let how = 'as written';
  const line = argv.join(' ');
  if (needsDevice.some((pattern) => pattern.test(line))) {
    argv = [...argv.slice(0, argv[0] === 'devices' ? 2 : 1), '--help'];
    how = '--help (needs a device, a server or a model)';
  } else if (argv[0] === 'bench' && !argv.includes('--dry-run')) {
    const out = outOf(argv);
    const read = out !== undefined && later.some((next) => next.argv.includes(out));
    const tasks = realBenchTasks[command.file];
    if (read && tasks !== undefined) {
      argv = [...argv, '--tasks', tasks];
      how = `for real on --tasks ${tasks} (a later command reads ${out})`;
    } else {
      argv = [...argv, '--dry-run'];
      how = '--dry-run';
    }
  }
  let output = '';
  const io: CliIo = { stdout: (text) => { output += text; }, stderr: (text) => { output += text; }, cwd, env: command.env };
  const code = await main(argv, io);
  return { command, how, code, output };
}

describe('docCommands (how the test reads a document)', () => {
  const markdown = [
    'Text with `senseact inline` (not a block).',
    '```sh',
    'export SENSEACT_MODEL=m   # a comment',
    'A=1 npx senseact bench --suite sim \\',
    "  --tasks 'settings-*' && npm test",
    'for t in 1 2; do',
    '  npx senseact bench --gate-threshold $t --out "runs/tau-$t"',
    'done',
    '```',
    '```text',
    'senseact bench (output, not a command)',
    '```',
  ].join('\n');

  it('joins continuations, splits on &&, keeps quotes, assignments, exports and the first loop value', () => {
    const read = docCommands('x.md', markdown);
    expect(read.map((command) => [command.line, command.argv.join(' ')])).toEqual([
      [3, 'export SENSEACT_MODEL=m'],
      [4, 'npx senseact bench --suite sim --tasks settings-*'],
      [4, 'npm test'],
      [7, 'npx senseact bench --gate-threshold 1 --out runs/tau-1'],
    ]);
    expect(read[1]!.env).toEqual({ SENSEACT_MODEL: 'm', A: '1' });
  });

  it('marks what a small shell cannot run (negative control: the commands above are not marked)', () => {
    const read = docCommands('x.md', '```bash\nX=$(npx tsx scripts/a.ts)\nnpx senseact bench --tasks "$Y"\n```\n');
    expect(read.map((command) => command.unsupported)).toEqual(['command substitution $(npx tsx scripts/a.ts)', 'unknown variable(s) Y']);
    expect(docCommands('x.md', markdown).every((command) => command.unsupported === undefined)).toBe(true);
  });

  it('a command that fails as written fails the run (the check can fail)', async () => {
    const cwd = await mkdtemp(path.join(tmpdir(), 'senseact-doc-commands-'));
    try {
      const [broken] = docCommands('x.md', '```sh\nnpx senseact bench --suite sim --mode senseact --device sim --tasks no-such-task\n```\n');
      const outcome = await runSenseact(broken!, [], cwd);
      expect(outcome.how).toBe('--dry-run');
      expect(outcome.code).toBe(2);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});

describe('the shell commands of README.md and docs/*.md', () => {
  const scratch: string[] = [];
  afterAll(async () => {
    for (const folder of scratch) await rm(folder, { recursive: true, force: true });
  });

  it('finds the commands of every document it reads (the extraction is not empty)', () => {
    expect(commands.filter((command) => command.file === 'README.md').length).toBeGreaterThanOrEqual(8);
    expect(new Set(commands.map((command) => command.file))).toContain('docs/skills.md');
  });

  it('never start with a bare senseact (command not found in a clone): npx senseact', () => {
    const bare = commands.filter((command) => command.argv[0] === 'senseact').map((command) => `${command.file}:${command.line}: ${command.text}`);
    expect(bare).toEqual([]);
  });

  it('run offline as written (dry runs, --help, allow-listed with a reason)', async () => {
    const outcomes: Outcome[] = [];
    const blocks = new Map<string, DocCommand[]>();
    for (const command of commands) {
      const key = `${command.file}#${command.block}`;
      blocks.set(key, [...(blocks.get(key) ?? []), command]);
    }
    for (const block of blocks.values()) {
      const cwd = await mkdtemp(path.join(tmpdir(), 'senseact-doc-commands-'));
      scratch.push(cwd);
      let stopped: string | undefined;
      for (const [index, command] of block.entries()) {
        const reason = allowed(command);
        if (reason !== undefined) {
          for (const script of command.argv.filter((word) => word.startsWith('scripts/'))) expect(existsSync(path.join(repoRoot, script)), `${command.file}:${command.line}: ${script} does not exist`).toBe(true);
          outcomes.push({ command, how: `allow-listed: ${reason}` });
          continue;
        }
        if (stopped !== undefined) { outcomes.push({ command, how: `not run: after ${stopped}` }); continue; }
        if (command.unsupported !== undefined) {
          stopped = `${command.file}:${command.line} (${command.unsupported})`;
          outcomes.push({ command, how: `not run: ${command.unsupported}` });
          continue;
        }
        if (command.argv[0] === 'npx' && command.argv[1] === 'senseact') outcomes.push(await runSenseact(command, block.slice(index + 1), cwd));
        else outcomes.push({ command, how: 'no rule: add it to the allow-list with a reason, or make it runnable', code: -1 });
      }
    }
    const failed = outcomes.filter((outcome) => outcome.code !== undefined && outcome.code !== 0);
    expect(failed.map((outcome) => `${outcome.command.file}:${outcome.command.line}: ${outcome.command.text}\n  run ${outcome.how}: exit ${outcome.code}\n  ${(outcome.output ?? '').split('\n').slice(-4).join('\n  ')}`)).toEqual([]);
    // Most documented commands really ran; the allow-list stays an exception.
    expect(outcomes.filter((outcome) => outcome.code === 0).length).toBeGreaterThan(outcomes.length / 2);
  }, 120_000);
});
