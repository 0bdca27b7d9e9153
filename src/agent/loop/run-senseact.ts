import type { AppTrailStep } from '../../memory/app-memory.js';
import type { CertificateStore } from '../../memory/certificate-memory.js';
import type { ImageDetail } from '../../model/vision-model.js';
import type { Task } from '../../tasks/task-schema.js';
import type { AgentMode } from '../task-run-result.js';
import type { HistoryEntry } from '../prompts/agent-prompts.js';
import type { AgentSession, Screen } from '../agent-session.js';
import { trailStep } from './app-trail.js';
import { certifyAndDecide } from './certify-and-decide.js';
import { executeCommitment } from './execute-commitment.js';
import { ForegroundGuard } from './foreground-guard.js';
import { maxRefusedPlansInARow, planIntent } from '../planning/plan-intent.js';
import { planMetaIfDue, refuseFinish, refusalsExhausted, trackProgress } from '../planning/meta-plan-phase.js';
import type { PlanReply } from '../planning/plan-reply.js';
import type { PlanningOptions } from '../planning/planning-options.js';
import type { PlanningUsage } from '../planning/planning-usage.js';
import { resolveByVision } from './resolve-by-vision.js';
import { playCalledSkill, runSkill, type SkillRunEnd } from '../skill-replay/run-skill.js';
import type { SkillCall } from '../planning/skill-menu.js';
import { SenseActAgentError } from '../senseact-agent-error.js';
import { modelStopReason } from '../model-stop-reason.js';
import type { Skill } from '../../skills/skill-schema.js';
import { newSenseActState, recordGate, type IrreversiblePolicy, type SenseActContext, type SenseActState, type VerificationCounts } from './senseact-state.js';
import { verifyCommittedIntent } from './verify-committed-intent.js';
import { VlmGate } from './vlm-gate.js';

/** Plans in a row whose target neither the view nor vision could find before the run gives up. */
export const maxUnresolvedInARow = 3;

/** The modes the SenseAct loop runs (the ReAct baselines run `runReact`). */
export type SenseActMode = 'senseact' | 'senseact-text' | 'senseact-vlm-always' | 'open-loop';

/** The SenseAct modes that learn and replay: certificate memory and skills (open-loop has no verified outcomes to learn from). */
export const verifyingSenseActModes: readonly AgentMode[] = ['senseact', 'senseact-text', 'senseact-vlm-always'];

/** True for a mode the SenseAct loop runs (every mode but the ReAct baselines). */
export function isSenseActMode(mode: AgentMode): mode is SenseActMode {
  return mode === 'open-loop' || verifyingSenseActModes.includes(mode);
}

export interface SenseActOptions {
  readonly task: Task;
  /**
   * `senseact` (vision behind the gate), `senseact-text` (never vision), `senseact-vlm-always`
   * (the same loop, a screenshot with every planner call: the gate's ablation), `open-loop`
   * (no execution feedback).
   */
  readonly mode: SenseActMode;
  readonly session: AgentSession;
  readonly memory?: CertificateStore;
  readonly gateThreshold?: number;
  /** Detail of the gate's screenshot (`low` is cheaper and blurrier); default `defaultGateImageDetail`. */
  readonly gateImageDetail?: ImageDetail;
  /** Keeps the run inside the task's allowed apps; `runTask` passes its own to read what was left. */
  readonly guard?: ForegroundGuard;
  /** Skills to replay without a model before planning (`senseact`/`senseact-text`; open-loop ignores them). */
  readonly skills?: readonly Skill[];
  /** Meta-plans, voting, app-memory hints (each off unless set). */
  readonly planning?: PlanningOptions;
  /** Collects the executed intents for the app memory (`runTask` learns from it once the task is judged). */
  readonly appTrail?: AppTrailStep[];
  /** Actions that cannot be undone are confirmed first (`SenseActAgent`); absent: no such check. */
  readonly irreversible?: IrreversiblePolicy;
}

/** What a run of the loop ends with; success is decided afterwards by the task's check. */
export interface AgentRunEnd {
  readonly finished: boolean;
  readonly answer?: string;
  /** Executed units. */
  readonly steps: number;
  readonly stopReason: string;
  readonly finalScreen: Screen;
  readonly verification: VerificationCounts;
  readonly gateReasons: Record<string, number>;
  /** How the skill replay went, when skills were given. */
  readonly skill?: SkillRunEnd;
  /** The skills the planner called by name later in the run, in order. */
  readonly calledSkills?: readonly SkillRunEnd[];
  /** What meta-plans, voting and hints did and cost (all zero when they are off; absent for the ReAct baselines). */
  readonly planning?: PlanningUsage;
  /** True when the model stopped the run — a spent budget (`budget: …`), no usable reply (`model reply: …`): a failure of the run whatever the screen shows. */
  readonly modelStopped?: boolean;
}

/** How a round ended: the history entry it adds, and the end of the run when it ends it. */
export interface RoundEnd {
  readonly entry?: HistoryEntry;
  /** A skill the planner called by name: it runs once this round has closed, in rounds of its own. */
  readonly call?: SkillCall;
  readonly stop?: { readonly finished: boolean; readonly reason: string; readonly answer?: string };
}

/**
 * The SenseAct control loop (docs/architecture.md §2): observe → plan one intent with its
 * expectation and an admissible commitment → resolve by vision what the text view cannot
 * name → execute and verify unit by unit (the VLM gate on repeated failure) → verify the
 * intent → certify and decide the surface, until the planner says FINISH (or a
 * commitment it said completes the task verified) or a guard stops it. The agent never decides success. `open-loop` runs the same planner without
 * execution feedback: no contracts, no expectations, no retries, no gate on failures, and
 * the history carries no outcomes. Every policy runs this same code: models answer the
 * same messages and nothing else.
 */
export async function runSenseAct(options: SenseActOptions): Promise<AgentRunEnd> {
  const { task, mode, session } = options;
  if (mode === 'senseact-vlm-always' && session.vision === undefined) {
    throw new SenseActAgentError({ code: 'agent-no-vision-model', message: 'senseact-vlm-always sends a screenshot with every planner call and needs a vision model: configure SENSEACT_VISION_MODEL, or use the oracle policy.' });
  }
  const context: SenseActContext = {
    task,
    session,
    feedback: mode !== 'open-loop',
    visionAllowed: mode !== 'senseact-text' && session.vision !== undefined,
    visionEveryPlan: mode === 'senseact-vlm-always',
    guard: options.guard ?? new ForegroundGuard(task),
    gate: new VlmGate(options.gateThreshold === undefined ? {} : { threshold: options.gateThreshold }),
    ...(options.memory ? { memory: options.memory } : {}),
    ...(options.gateImageDetail === undefined ? {} : { gateImageDetail: options.gateImageDetail }),
    ...(options.planning ? { planning: options.planning } : {}),
    ...(options.appTrail ? { appTrail: options.appTrail } : {}),
    ...(options.skills && mode !== 'open-loop' ? { skills: options.skills } : {}),
    ...(options.irreversible ? { irreversible: options.irreversible } : {}),
  };
  session.step = 0;
  const state = newSenseActState(await session.observe('before.xml'));
  // A matching skill plays first, without a model; the planner takes over where it stops.
  const skill = options.skills && context.feedback ? await runSkill(context, state, options.skills) : undefined;
  const called: SkillRunEnd[] = [];
  const end = (finished: boolean, stopReason: string, answer?: string): AgentRunEnd => ({
    finished, stopReason, steps: state.steps, finalScreen: state.screen, verification: state.verification, gateReasons: state.gateReasons, planning: state.planning, ...(answer === undefined ? {} : { answer }), ...(skill ? { skill } : {}), ...(called.length === 0 ? {} : { calledSkills: called }),
  });
  if (skill?.outcome === 'completed') return end(true, `skill ${skill.skill ?? ''} completed: ${skill.reason}`, skill.answer);
  const firstRound = (skill?.rounds ?? 0) + 1;
  try {
    return await playRounds(context, state, firstRound, end, called);
  } catch (error) {
    // A spent model budget or a model with no usable reply ends the run as the model's failure; the task's check still judges the screen it left.
    const stopped = modelStopReason(error);
    if (stopped !== undefined) return { ...end(false, stopped), modelStopped: true };
    throw error;
  }
}

/** The rounds of the loop from `firstRound` on, until a stop, the step budget or the round limit. */
async function playRounds(context: SenseActContext, state: SenseActState, firstRound: number, end: (finished: boolean, stopReason: string, answer?: string) => AgentRunEnd, called: SkillRunEnd[]): Promise<AgentRunEnd> {
  const { task, session } = context;
  for (let round = firstRound; round < firstRound + task.stepBudget * 3 && state.steps < task.stepBudget; round++) {
    session.step = round;
    session.trace.emit({ type: 'step-start', step: round });
    session.trace.writeStepArtifact(round, 'view.txt', state.screen.perception.view);
    session.trace.writeStepArtifact(round, 'scg.json', { units: state.screen.perception.units.map((unit) => ({ id: unit.id, type: unit.type, label: unit.label, bounds: unit.bounds })), edges: state.screen.perception.scg.edges });
    const started = performance.now();
    const latencyBefore = { ...session.latency };
    const ended = await playRound(context, state);
    // The one place a step closes.
    if (ended.entry) state.history.push(ended.entry);
    session.trace.emit({ type: 'step-end', step: round, latencyMs: performance.now() - started, latency: stepLatency(session, latencyBefore) });
    if (ended.stop) return end(ended.stop.finished, ended.stop.reason, ended.stop.answer);
    if (ended.call) {
      const played = await playCalledSkill(context, state, ended.call, round + 1);
      called.push(played);
      round += played.rounds;
    }
  }
  return end(false, state.steps >= task.stepBudget ? `step budget of ${task.stepBudget} used up` : 'too many planning rounds without progress');
}

/**
 * One round of the loop on `state`'s screen: the guard leaves a screen outside the allowed
 * apps, then plan (with meta-plan progress), resolve by vision what the view cannot name,
 * execute, verify the intent, certify and decide the surface. Returns the history entry it
 * adds and, when the round ends the run, why; the caller closes the step.
 */
export async function playRound(context: SenseActContext, state: SenseActState): Promise<RoundEnd> {
  const { session, guard, gate } = context;
  // A screen outside the allowed apps is never planned on: the guard leaves it first.
  const left = await guard.leaveDisallowed(session, state.screen);
  if (left) {
    state.screen = left.screen;
    return { entry: { intent: `Leave ${left.packageName} (not an allowed app)`, outcome: 'unknown', note: 'guard' } };
  }
  if (state.screen.perception.tree.empty && context.visionAllowed) recordGate(context, state, gate.emptyHierarchy());

  trackProgress(context, state);
  await planMetaIfDue(context, state);
  const planned = await planIntent(context, state);
  if (planned.kind === 'rejected') {
    const entry: HistoryEntry = { intent: planned.intent, outcome: 'rejected', note: planned.reason };
    if (state.refusedPlansInARow >= maxRefusedPlansInARow) return { entry, stop: { finished: false, reason: `the model's plans were refused ${state.refusedPlansInARow} times in a row: ${planned.reason}` } };
    return refusalsExhausted(context, state) ? { entry, stop: { finished: false, reason: `FINISH refused ${state.finishRefusedInARow} times in a row and no new meta-plan is left: ${planned.reason}` } } : { entry };
  }
  if (planned.kind === 'finish') return { stop: { finished: true, reason: 'the planner said FINISH', ...(planned.plan.answer === undefined ? {} : { answer: planned.plan.answer }) } };
  if (planned.kind === 'skill') return { call: planned.call };
  const { plan } = planned;
  let items = planned.kind === 'commit' ? planned.items : [];
  let units = planned.kind === 'commit' ? planned.units : [];
  if (planned.kind === 'look-for') {
    const resolution = await resolveByVision(context, state, plan);
    if (resolution.kind === 'already-done') {
      state.unresolvedInARow = 0;
      session.trace.emit({ type: 'verify-end', step: session.step, outcome: 'pass', reason: 'vision: the intent is already achieved on screen', by: 'vlm' });
      return { entry: { intent: plan.intent, outcome: 'pass', note: 'already done (seen by vision, low confidence)' } };
    }
    if (resolution.kind === 'unresolved') {
      state.unresolvedInARow += 1;
      const entry: HistoryEntry = { intent: plan.intent, outcome: 'fail', note: resolution.note };
      if (state.unresolvedInARow < maxUnresolvedInARow) return { entry };
      return { entry, stop: { finished: false, reason: `the target of "${plan.intent}" could not be found ${state.unresolvedInARow} times in a row` } };
    }
    items = resolution.items;
    units = resolution.units;
  }
  state.unresolvedInARow = 0;

  const run = await executeCommitment(context, state, plan, items, units);
  if (run.executed.length === 0) return { entry: { intent: plan.intent, outcome: 'unknown', note: run.unfinished } };
  if (!context.feedback) {
    session.trace.emit({ type: 'verify-end', step: session.step, outcome: 'inconclusive', reason: 'open-loop: execution feedback is off', by: 'none' });
    return { entry: { intent: plan.intent, outcome: 'unknown', note: '' } };
  }
  const judgement = await verifyCommittedIntent(context, plan, run);
  const surface = await certifyAndDecide(context, state, plan, run, judgement);
  trackProgress(context, state, { before: run.start.perception.tree, delta: judgement.delta });
  context.appTrail?.push(trailStep(plan, run, judgement));
  const entry: HistoryEntry = { intent: plan.intent, outcome: judgement.outcome, note: judgement.note };
  if (surface.rule === 'repeated-action') return { entry, stop: { finished: false, reason: `the same action was repeated ${state.sameActionRepeats} times` } };
  return finishedByCommitment(context, state, plan, run.unfinished, judgement.outcome) ? { entry, stop: { finished: true, reason: 'the planner said FINISH with its last commitment, which verified', ...(plan.answer === undefined ? {} : { answer: plan.answer }) } } : { entry };
}

/**
 * A commitment the planner said completes the task ends the run once every unit of it ran
 * and it verified, as its FINISH would one call later; a sub-task whose check has not held
 * refuses it as it refuses FINISH, and the loop goes on. A commitment cut short (its next
 * unit gone from the new screen) ends nothing, whatever its expectation shows: the
 * planner is asked again. Open-loop never gets here: it verifies nothing, and its planner
 * says FINISH.
 */
function finishedByCommitment(context: SenseActContext, state: SenseActState, plan: PlanReply, unfinished: string, outcome: string): boolean {
  if (plan.completesTask !== true || unfinished !== '' || outcome !== 'pass') return false;
  return refuseFinish(context, state) === undefined;
}

function stepLatency(session: AgentSession, before: AgentSession['latency']): Record<string, number> {
  return {
    device: session.latency.deviceMs - before.deviceMs,
    perception: session.latency.perceptionMs - before.perceptionMs,
    model: session.latency.modelMs - before.modelMs,
    verification: session.latency.verificationMs - before.verificationMs,
  };
}
