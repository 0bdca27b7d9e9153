import * as path from 'node:path';
import { explainReplaySteps, type StepExplanations } from '../../bench/explain-replay-steps.js';
import { formatReplayReport } from '../../bench/format-replay-report.js';
import { replayProgressLines } from '../../bench/replay-progress.js';
import { writeReplayExplanations } from '../../bench/write-replay-explanations.js';
import { selectReplayApps, type ReplayAppSelection } from '../../bench/select-replay-apps.js';
import { splitList } from '../../bench/select-tasks.js';
import { replayVerification, type StepReplay, type VerifyReplayReport } from '../../bench/verify-replay.js';
import { loadReplaySource } from '../../tasks/replay/load-replay-source.js';
import type { VerifyOutcome } from '../../verify/verify-outcome.js';
import { exitCodes } from '../cli-io.js';
import type { CommandRegistration } from '../command-registration.js';

interface VerifyReplayOptions {
  json?: boolean;
  apps?: string;
  half?: string;
  reasons: string;
  threshold?: string;
  /** false with `--no-memory`. */
  memory: boolean;
  explain?: string;
  falsePasses?: boolean;
  html?: string;
}

/** A verdict without its evidence nodes: the JSON stays readable for a corpus of thousands of steps. */
function brief(verdict: VerifyOutcome | undefined): Omit<VerifyOutcome, 'evidence'> | undefined {
  if (!verdict) return undefined;
  const { evidence: _evidence, ...rest } = verdict;
  return rest;
}

function jsonStep(step: StepReplay): Record<string, unknown> {
  return {
    ...step,
    verdict: brief(step.verdict),
    noOp: brief(step.noOp),
    wrongEffect: step.wrongEffect ? { donor: step.wrongEffect.donor, verdict: brief(step.wrongEffect.verdict) } : undefined,
  };
}

/** What `--explain` / `--false-passes` print for one source: the count of false passes by kind when asked, then the explained steps. */
function explanationText(explained: StepExplanations, falsePasses: boolean): string {
  if (!falsePasses) return explained.text;
  const counts = explained.falsePasses;
  const total = counts['wrong-effect'] + counts['no-op'] + counts['no-effect'];
  const tally = `false passes: ${total} (wrong-effect control strong ${counts['wrong-effect']}, no-op control ${counts['no-op']}, recorded as changing nothing ${counts['no-effect']})\n`;
  return explained.matched > 0 ? `${tally}\n${explained.text}` : tally;
}

/** The JSON `verify-replay --json` prints: the report with evidence-free verdicts per step. */
export function replayJson(report: VerifyReplayReport): Record<string, unknown> {
  return { ...report, perStep: report.perStep.map(jsonStep) };
}

/**
 * `senseact verify-replay <source...> [--json]`: replays recorded transitions (a
 * transitions JSONL, DroidTask `user_tasks/<app>/` folders, DroidBot output folders) through the verifier the
 * control loop uses — no model, no device — and prints pass / fail / inconclusive per
 * unit type with the top reasons, the negative controls, per-task verification and the
 * implied vision calls. Exit 0, or 2 for a source that cannot be loaded.
 */
export const verifyReplayCommand: CommandRegistration = (program, io, setExitCode) => {
  program
    .command('verify-replay')
    .description('Replay recorded transitions (before, action, after) through the verifier: pass/fail/inconclusive per unit type, negative controls, implied vision calls.')
    .argument('<source...>', 'a transitions JSONL (or a folder holding transitions.jsonl), DroidTask user_tasks/<app>/ folders, or DroidBot output folders (events/, states/)')
    .option('--json', 'print the report as JSON (every step with its verdicts)')
    .option('--apps <globs>', 'replay only these app packages (comma-separated globs, e.g. "com.android.*,org.*")')
    .option('--half <a|b>', 'replay only the apps of one fixed half (by a hash of the package): build rules on a, check them on b')
    .option('--reasons <n>', 'how many top reasons each table lists', '8')
    .option('--threshold <n>', 'the gate threshold τ for the implied vision calls (default 2)')
    .option('--no-memory', 'judge every step alone: no strong pass from an earlier step that went from the same page to the same page (known-transition)')
    .option('--explain <globs>', 'instead of the report, explain the steps whose ids match (comma-separated globs over the whole id, e.g. "*event_2023-10-19_0945*"): the action, the unit, what changed and each verdict')
    .option('--false-passes', 'instead of the report, explain every false pass: a step the wrong-effect control passed strong, the no-op control passed, or recorded as changing nothing that passed')
    .option('--html <dir>', 'with --explain or --false-passes: also write the explained steps as a page with their screens drawn (<dir>/index.html)')
    .action(async (sources: string[], options: VerifyReplayOptions) => {
      const threshold = options.threshold === undefined ? undefined : Number.parseInt(options.threshold, 10);
      if (threshold !== undefined && !(Number.isInteger(threshold) && threshold >= 1)) {
        io.stderr(`senseact verify-replay: --threshold must be a whole number ≥ 1, got ${JSON.stringify(options.threshold)}\n`);
        setExitCode(exitCodes.badInput);
        return;
      }
      if (options.half !== undefined && options.half !== 'a' && options.half !== 'b') {
        io.stderr(`senseact verify-replay: --half must be a or b, got ${JSON.stringify(options.half)}\n`);
        setExitCode(exitCodes.badInput);
        return;
      }
      if ((options.explain !== undefined || options.falsePasses === true) && options.json === true) {
        io.stderr(`senseact verify-replay: ${options.explain === undefined ? '--false-passes' : '--explain'} prints text; leave out --json (its perStep already lists every step with its verdicts)\n`);
        setExitCode(exitCodes.badInput);
        return;
      }
      if (options.html !== undefined && options.explain === undefined && options.falsePasses !== true) {
        io.stderr('senseact verify-replay: --html writes the explained steps; add --explain <ids> or --false-passes\n');
        setExitCode(exitCodes.badInput);
        return;
      }
      const explain = options.explain === undefined ? undefined : splitList(options.explain);
      if (explain !== undefined && explain.length === 0) {
        io.stderr('senseact verify-replay: --explain needs at least one step id or glob\n');
        setExitCode(exitCodes.badInput);
        return;
      }
      const half = options.half;
      // Id patterns no source matched, and an id to show as an example when some did not.
      const unmatched = new Set(explain);
      let firstId: string | undefined;
      const selection: ReplayAppSelection = { ...(options.apps === undefined ? {} : { apps: splitList(options.apps) }), ...(half === undefined ? {} : { half }) };
      const reasons = Number.parseInt(options.reasons, 10);
      for (const source of sources) {
        const progress = replayProgressLines((line) => io.stderr(line), source);
        const ticker = setInterval(() => progress.loading(), 1000);
        ticker.unref();
        const loaded = await loadReplaySource(path.resolve(io.cwd, source))
          .then((read) => selectReplayApps(read, selection))
          .finally(() => clearInterval(ticker));
        if (loaded.tasks.length === 0 && (selection.apps !== undefined || selection.half !== undefined)) {
          io.stderr(`senseact verify-replay: no step of ${source} is in the selected apps (${[selection.apps?.join(',') ?? '', selection.half ? `half ${selection.half}` : ''].filter(Boolean).join(', ')}); check --apps and --half\n`);
          setExitCode(exitCodes.badInput);
          return;
        }
        const report = replayVerification(loaded, { ...(threshold === undefined ? {} : { gateThreshold: threshold }), memory: options.memory, onProgress: (done, total) => progress.replayed(done, total) });
        if (explain !== undefined || options.falsePasses === true) {
          const explained = explainReplaySteps(loaded, report, { ...(explain === undefined ? {} : { ids: explain }), falsePasses: options.falsePasses === true });
          for (const pattern of explain ?? []) if (!explained.unmatched.includes(pattern)) unmatched.delete(pattern);
          firstId ??= report.perStep[0]?.id;
          const text = explanationText(explained, options.falsePasses === true);
          if (text !== '') io.stdout(`${sources.length > 1 ? `== ${source}\n` : ''}${text}`);
          if (options.html !== undefined) {
            // One page per source: a second source writes beside the first, in a folder of its own.
            const dir = path.resolve(io.cwd, sources.length > 1 ? path.join(options.html, String(sources.indexOf(source) + 1)) : options.html);
            const written = await writeReplayExplanations(dir, `verify-replay: ${source}`, explained);
            io.stderr(`verify-replay: wrote ${written.page} (${written.steps} step(s), ${written.screensDrawn} screen(s) drawn)\n`);
          }
          continue;
        }
        io.stdout(options.json ? `${JSON.stringify(replayJson(report), null, 2)}\n` : formatReplayReport(report, { reasons: Number.isFinite(reasons) && reasons >= 0 ? reasons : 8 }));
      }
      if (unmatched.size > 0) {
        const example = firstId === undefined ? '' : `; ids look like ${JSON.stringify(firstId)}`;
        io.stderr(`senseact verify-replay: no step id matches ${[...unmatched.keys()].map((pattern) => JSON.stringify(pattern)).join(', ')}${example}. A glob matches the whole id: put * for any part\n`);
        if (unmatched.size === explain?.length) {
          setExitCode(exitCodes.badInput);
          return;
        }
      }
      setExitCode(exitCodes.ok);
    });
};
