import type { UiTree } from '../ui/ui-tree.js';
import { evaluatePredicate } from '../verify/evaluate-predicate.js';
import { parsePredicate } from '../verify/parse-predicate.js';
import type { Outcome } from '../verify/verify-outcome.js';
import type { AnswerJudge } from './answer-judge.js';
import { evaluateStateCondition } from './evaluate-state-check.js';
import { ExactMatchAnswerJudge } from './exact-match-answer-judge.js';
import type { AdbCheck, Task } from './task-schema.js';
import { linearRegex } from '../util/linear-regex.js';

/** What the run left behind for the success check. */
export interface SuccessEvidence {
  /** The final screen. */
  readonly finalTree: UiTree;
  /** The simulator's per-app state (`sim.appState(pkg)`); undefined for an app without state. */
  readonly appState?: (packageName: string) => unknown;
  /** The agent's answer (the `finish` unit's argument), for query tasks. */
  readonly answer?: string;
  /** Outputs of the adb commands the task names, keyed by the command exactly as written in the task. */
  readonly adbOutputs?: Readonly<Record<string, string>>;
  /** Judges by kind; `exact` defaults to `ExactMatchAnswerJudge`. A `model` task without a model judge falls back to exact. */
  readonly judges?: { readonly exact?: AnswerJudge; readonly model?: AnswerJudge };
  readonly signal?: AbortSignal;
}

/** One part of the success check and its outcome. */
export interface SuccessCheckResult {
  readonly kind: 'screen' | 'state' | 'adb' | 'answer' | 'judge';
  /** The check as written (predicate text, `app path op value`, command, or expected answers). */
  readonly check: string;
  readonly outcome: Outcome;
  readonly reason: string;
  /** For answers: which judge decided. */
  readonly judge?: string;
}

/** The task's verdict: `success` only when every check passes. */
export interface SuccessResult {
  readonly success: boolean;
  /** `fail` if any check fails, else `inconclusive` if any is, else `pass`. */
  readonly outcome: Outcome;
  readonly reason: string;
  readonly checks: readonly SuccessCheckResult[];
}

function adbHolds(check: AdbCheck, output: string): boolean {
  const { equals, contains, matches, notMatches } = check.expect;
  if (equals !== undefined) return output.trim() === equals;
  if (contains !== undefined) return output.includes(contains);
  if (notMatches !== undefined) return !linearRegex(notMatches).test(output);
  return linearRegex(matches ?? '').test(output);
}

function combine(checks: readonly SuccessCheckResult[]): Outcome {
  if (checks.some((check) => check.outcome === 'fail')) return 'fail';
  if (checks.some((check) => check.outcome === 'inconclusive')) return 'inconclusive';
  return 'pass';
}

async function answerCheck(task: Task, evidence: SuccessEvidence): Promise<SuccessCheckResult | undefined> {
  const answer = task.answer;
  if (answer === undefined) return undefined;
  const expected = answer.expected === undefined ? [] : typeof answer.expected === 'string' ? [answer.expected] : [...answer.expected];
  if (answer.fromAdb !== undefined) {
    const output = evidence.adbOutputs?.[answer.fromAdb.command];
    if (output === undefined && expected.length === 0) {
      return { kind: 'answer', check: `answer from ${answer.fromAdb.command}`, outcome: 'inconclusive', reason: `the expected answer comes from "${answer.fromAdb.command}", whose output was not captured` };
    }
    if (output !== undefined) expected.push(answer.fromAdb.map?.[output.trim()] ?? output.trim());
  }
  const check = `answer in ${JSON.stringify(expected)}`;
  if (evidence.answer === undefined || evidence.answer.trim() === '') {
    return { kind: 'answer', check, outcome: 'fail', reason: 'the task asks a question and the agent gave no answer' };
  }
  const modelJudge = answer.judge === 'model' ? evidence.judges?.model : undefined;
  const judge = modelJudge ?? evidence.judges?.exact ?? new ExactMatchAnswerJudge();
  const verdict = await judge.judge({ instruction: task.instruction, expected, answer: evidence.answer, ...(evidence.signal ? { signal: evidence.signal } : {}) });
  const fallback = answer.judge === 'model' && modelJudge === undefined ? ' (model judge not configured: exact-match fallback)' : '';
  return { kind: 'answer', check, outcome: verdict.correct ? 'pass' : 'fail', reason: `${verdict.reason}${fallback}`, judge: verdict.judge };
}

/**
 * Decides whether a task succeeded (docs/architecture.md §2.10: the agent never decides). Evaluates
 * every part of the task's check — the screen predicate on the final tree, the state
 * checks on the simulator's app state, the adb expectations, the answer — and combines
 * them: any failure fails, missing evidence (no app state, an adb output not captured, an
 * ambiguous screen) is inconclusive. Predicates were validated when the task was loaded;
 * a judge's infrastructure failure throws.
 */
export async function evaluateSuccess(task: Task, evidence: SuccessEvidence): Promise<SuccessResult> {
  const checks: SuccessCheckResult[] = [];
  const success = task.success;
  if (success?.screen !== undefined) {
    const outcome = evaluatePredicate(parsePredicate(success.screen), { after: evidence.finalTree });
    checks.push({ kind: 'screen', check: success.screen, outcome: outcome.outcome, reason: outcome.reason });
  }
  for (const stateCheck of success?.state ?? []) {
    const { app, ...condition } = stateCheck;
    const label = `${app} ${condition.path} ${condition.op}${condition.value === undefined ? '' : ` ${JSON.stringify(condition.value)}`}`;
    const state = evidence.appState?.(app);
    if (state === undefined) {
      checks.push({ kind: 'state', check: label, outcome: 'inconclusive', reason: evidence.appState === undefined ? 'no app state available (state checks need the simulator)' : `the simulator has no state for ${app}` });
      continue;
    }
    const result = evaluateStateCondition(state, condition);
    // The condition's reason starts with the condition, which the check's label already names.
    const named = label.slice(app.length + 1);
    const reason = result.reason.startsWith(`${named}: `) ? result.reason.slice(named.length + 2) : result.reason;
    checks.push({ kind: 'state', check: label, outcome: result.outcome, reason });
  }
  for (const adbCheck of success?.adb ?? []) {
    const output = evidence.adbOutputs?.[adbCheck.command];
    const label = `${adbCheck.command} → ${JSON.stringify(adbCheck.expect)}`;
    if (output === undefined) {
      checks.push({ kind: 'adb', check: label, outcome: 'inconclusive', reason: `the output of "${adbCheck.command}" was not captured` });
      continue;
    }
    const holds = adbHolds(adbCheck, output);
    checks.push({ kind: 'adb', check: label, outcome: holds ? 'pass' : 'fail', reason: `output ${JSON.stringify(output.trim())} ${holds ? 'meets' : 'does not meet'} ${JSON.stringify(adbCheck.expect)}` });
  }
  if (success?.judge === 'model') {
    checks.push({ kind: 'judge', check: success.criterion ?? task.instruction, outcome: 'inconclusive', reason: 'this outcome is left to a model judge of the final screen (judge: model), which does not run yet: not counted as a success' });
  }
  const answer = await answerCheck(task, evidence);
  if (answer !== undefined) checks.push(answer);
  // A task built in code may carry no check at all: nothing then says it succeeded.
  if (checks.length === 0) return { success: false, outcome: 'inconclusive', reason: 'the task has no success check (success: or answer:), so success is not decided', checks };
  const outcome = combine(checks);
  const deciding = checks.filter((check) => check.outcome === outcome);
  const reason = outcome === 'pass' ? `all ${checks.length} check(s) pass` : deciding.map((check) => `${check.kind} ${check.check}: ${check.reason}`).join('; ');
  return { success: outcome === 'pass', outcome, reason, checks };
}
