import type { PolicyName } from '../agent/task-run-result.js';
import type { ModelConfig } from '../model/model-config-from-env.js';
import { BenchError } from './bench-error.js';

/** What decides the policy of a bench or a debug run. */
export type PolicyChoiceInput = {
  /** `--policy`: `auto` (the default), `llm` or `oracle`. */
  readonly wanted: PolicyName | 'auto';
  /** The device is the simulator (in process, or behind Appium with its driver). */
  readonly simulated: boolean;
  readonly config: ModelConfig;
  readonly cassette: { readonly mode: 'record' | 'replay'; readonly path: string } | undefined;
  readonly dryRun: boolean;
  readonly temperature: number | undefined;
};

/** The policy and one plain line that says which and why. */
export type PolicyChoice = { readonly policy: PolicyName; readonly notice: string };

/** What the oracle does, said after each reason: the line stays within 120 columns. */
const oracleTail = 'reference solutions, no model is called';
/** The width a policy line fits when the model's name is short enough to keep it there. */
const lineWidth = 120;

/**
 * Chooses the policy. `auto` never turns a simulator bench into model calls: on the
 * simulator it is the oracle whatever the environment holds (a key, a base URL, a
 * cassette); `--policy llm` asks for the model. On a real device `auto` is the model when
 * one is configured (or a cassette replays one), else the oracle. Throws `BenchError` for
 * `--policy llm` without a model (except in a dry run, which calls none).
 */
export function choosePolicy(input: PolicyChoiceInput): PolicyChoice {
  const { wanted, simulated, config, cassette } = input;
  const llm = llmNotice(input);
  if (wanted === 'oracle') return { policy: 'oracle', notice: `policy: oracle, because --policy oracle was given: ${oracleTail}.` };
  if (wanted === 'auto' && simulated) return { policy: 'oracle', notice: simulatorNotice(config) };
  if (cassette?.mode === 'replay' || config.ready) return { policy: 'llm', notice: `policy: llm, because ${wanted === 'llm' ? '--policy llm was given' : 'a model is configured and the device is not the simulator'}: ${llm}` };
  if (input.dryRun && wanted === 'llm') return { policy: 'llm', notice: 'policy: llm, because --policy llm was given: checked without a model in this dry run (nothing is run).' };
  // A dry run on a real device checks what a model would run there; the oracle could play only tasks with reference solutions.
  if (input.dryRun && wanted === 'auto') return { policy: 'llm', notice: 'policy: llm, checked without a model in this dry run; with none configured a run plays the oracle (needs solution:).' };
  if (wanted === 'auto') return { policy: 'oracle', notice: `policy: oracle, because no model is configured (npx senseact models --check): ${oracleTail}.` };
  throw new BenchError({ code: 'bench-no-model', message: `--policy llm needs a model: ${config.problems.map((problem) => problem.replace(/\.$/, '')).join('; ')}. Or run with --policy oracle.` });
}

/**
 * The simulator's `auto` line: the oracle, why, and that the configured model (named when
 * the line still fits 120 columns) is called only with `--policy llm`.
 */
function simulatorNotice(config: ModelConfig): string {
  const head = 'policy: oracle, because the device is the simulator: no model is called; --policy llm';
  if (!config.ready) return `${head} needs a model.`;
  const named = `${head} would call ${config.models.planner}.`;
  return named.length <= lineWidth ? named : `${head} would call the configured model.`;
}

function llmNotice(input: PolicyChoiceInput): string {
  const { config, cassette, temperature } = input;
  if (cassette?.mode === 'replay') return `replaying the recorded model calls in ${cassette.path} (no endpoint is called)`;
  const recording = cassette === undefined ? '' : `, recording to ${cassette.path}`;
  return `planner ${config.models.planner}, vision ${config.models.vision} at ${config.baseUrl}${temperature === undefined ? '' : `, temperature ${temperature}`}${recording}; every call is a model call.`;
}
