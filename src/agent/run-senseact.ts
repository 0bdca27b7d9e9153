import type { CertificateMemory } from '../memory/certificate-memory.js';
import { generateStructured } from '../model/generate-structured.js';
import { describeRepairs } from '../model/reply-repair.js';
import type { ControlUnit, UnitId } from '../perception/control-unit.js';
import { checkCommitment } from '../perception/scg.js';
import type { Task } from '../tasks/task-schema.js';
import { buildCertificate, certificateScope, renderCertificate } from '../verify/certificate.js';
import { computeDelta, type Delta } from '../verify/compute-delta.js';
import { decideSurface } from '../verify/decide-surface.js';
import { extractRequiredValues } from '../verify/extract-required-values.js';
import { parsePredicate } from '../verify/parse-predicate.js';
import { verifyIntent } from '../verify/verify-intent.js';
import { verifyUnitStep } from '../verify/verify-unit-step.js';
import type { VerifyOutcome } from '../verify/verify-outcome.js';
import type { ImageDetail } from '../model/vision-model.js';
import { gateCandidateLine, gateMessages, plannerMessages, unitsTookEffectNote, verifierMessages, type HistoryEntry } from './agent-prompts.js';
import type { AgentSession, Screen } from './agent-session.js';
import { ForegroundGuard } from './foreground-guard.js';
import { commitmentOf, lookForUnit, planReplySchema, verifierReplySchema, visionReplySchema, type CommitmentItem, type PlanReply } from './plan-reply.js';
import { unitActions } from './unit-actions.js';
import { VlmGate, type GateDecision } from './vlm-gate.js';

/** Extra observations after an action that seemed to change nothing, for effects that arrive late. */
export const graceObservations = 2;

/** Plans in a row whose target neither the view nor vision could find before the run gives up. */
export const maxUnresolvedInARow = 3;

/** How many times one plan may be rejected (inadmissible, unknown unit) before the step is given up. */
export const maxPlanRejections = 2;

export interface SenseActOptions {
  readonly task: Task;
  /** `senseact` (vision behind the gate), `senseact-text` (never vision), `open-loop` (no execution feedback). */
  readonly mode: 'senseact' | 'senseact-text' | 'open-loop';
  readonly session: AgentSession;
  readonly memory?: CertificateMemory;
  readonly gateThreshold?: number;
  /** Detail of the gate's screenshot (`low` is cheaper and blurrier); default `defaultGateImageDetail`. */
  readonly gateImageDetail?: ImageDetail;
  /** Keeps the run inside the task's allowed apps; `runTask` passes its own to read what was left. */
  readonly guard?: ForegroundGuard;
}

/** What a run of the loop ends with; success is decided afterwards by the task's check. */
export interface AgentRunEnd {
  readonly finished: boolean;
  readonly answer?: string;
  /** Executed units. */
  readonly steps: number;
  readonly stopReason: string;
  readonly finalScreen: Screen;
  readonly verification: { pass: number; fail: number; inconclusive: number };
  readonly gateReasons: Record<string, number>;
}

interface ExecutedUnit {
  readonly unit: ControlUnit;
  readonly item: CommitmentItem;
  readonly outcome: VerifyOutcome;
  readonly before: Screen;
  readonly after: Screen;
  readonly delta: Delta;
}

function actionKey(unit: ControlUnit, item: CommitmentItem): string {
  return JSON.stringify([unit.members[0]?.resourceId ?? unit.id, unit.label, unit.bounds, item.value, item.checked, item.direction]);
}

/**
 * The SenseAct control loop (DESIGN.md §1): observe → plan one intent with its
 * expectation → admissible commitment → execute and verify unit by unit → VLM gate on
 * repeated failure → certificate → surface decision, until the planner says FINISH or a
 * guard stops it. The agent never decides success. `open-loop` runs the same planner
 * without execution feedback: no contracts, no expectations, no retries, no gate on
 * failures, and the history carries no outcomes.
 */
export async function runSenseAct(options: SenseActOptions): Promise<AgentRunEnd> {
  const { task, mode, session, memory } = options;
  const feedback = mode !== 'open-loop';
  const visionAllowed = mode !== 'senseact-text' && session.vision !== undefined;
  const guard = options.guard ?? new ForegroundGuard(task);
  const gate = new VlmGate(options.gateThreshold === undefined ? {} : { threshold: options.gateThreshold });
  const verification = { pass: 0, fail: 0, inconclusive: 0 };
  const gateReasons: Record<string, number> = {};
  const history: HistoryEntry[] = [];
  const verified = new Set<UnitId>();
  let steps = 0;
  let lastKey = '';
  let sameActionRepeats = 0;
  let previousAction: { bounds: ControlUnit['bounds']; deltaLabel: Delta['label'] } | undefined;
  let changeStrategy = false;
  let unresolvedInARow = 0;
  const maxRounds = task.stepBudget * 3;

  session.step = 0;
  let screen = await session.observe('before.xml');

  const countGate = (decision: GateDecision): void => {
    if (decision.reason) gateReasons[decision.reason] = (gateReasons[decision.reason] ?? 0) + 1;
    session.trace.emit({ type: 'gate-end', step: session.step, opened: decision.open, ...(decision.reason ? { reason: decision.reason } : {}), score: decision.score });
  };

  const askVision = async (question: { intent: string; failure: string; lookFor?: string; target?: ControlUnit }, candidates: readonly ControlUnit[]): Promise<{ unit?: ControlUnit; alreadyDone: boolean }> => {
    if (!session.vision) return { alreadyDone: false };
    const png = await session.screenshot();
    const reply = await generateStructured(session.vision, {
      role: 'vision',
      schema: visionReplySchema,
      schemaName: 'VisionReply',
      messages: gateMessages({
        intent: question.intent,
        failure: question.failure,
        ...(question.lookFor === undefined ? {} : { lookFor: question.lookFor }),
        ...(question.target === undefined ? {} : { target: gateCandidateLine(question.target) }),
        candidates: candidates.map(gateCandidateLine),
        png,
        ...(options.gateImageDetail === undefined ? {} : { detail: options.gateImageDetail }),
      }),
      ...(session.signal ? { signal: session.signal } : {}),
      // The gate prompt states the reply format itself, as the planner prompt does.
      instructJson: false,
    });
    const unit = candidates.find((candidate) => candidate.id === reply.value.unit);
    return unit ? { unit, alreadyDone: false } : { alreadyDone: reply.value.alreadyDone };
  };

  for (let round = 1; round <= maxRounds && steps < task.stepBudget; round++) {
    session.step = round;
    session.trace.emit({ type: 'step-start', step: round });
    session.trace.writeStepArtifact(round, 'view.txt', screen.perception.view);
    session.trace.writeStepArtifact(round, 'scg.json', { units: screen.perception.units.map((unit) => ({ id: unit.id, type: unit.type, label: unit.label, bounds: unit.bounds })), edges: screen.perception.scg.edges });
    const stepStarted = performance.now();
    const latencyBefore = { ...session.latency };

    // A screen outside the allowed apps is never planned on: the guard leaves it first.
    const left = await guard.leaveDisallowed(session, screen);
    if (left) {
      history.push({ intent: `Leave ${left.packageName} (not an allowed app)`, outcome: 'unknown', note: 'guard' });
      screen = left.screen;
      continue;
    }

    if (screen.perception.tree.empty && visionAllowed) countGate(gate.emptyHierarchy());

    // Plan, with admissibility checks; a rejected plan is asked again with the reason.
    const certificates = memory
      ? memory.retrieve({ packageName: screen.perception.tree.packageName, scope: certificateScope(screen.perception.tree), intent: history.at(-1)?.intent ?? task.instruction }, 3).map((hit) => renderCertificate(hit.certificate))
      : [];
    let plan: PlanReply | undefined;
    let rejection: string | undefined;
    let units: ControlUnit[] = [];
    for (let attempt = 0; attempt <= maxPlanRejections; attempt++) {
      const planStarted = performance.now();
      const reply = await generateStructured(session.planner, {
        role: 'planner',
        schema: planReplySchema,
        schemaName: 'PlanReply',
        messages: plannerMessages({
          instruction: task.instruction,
          allowedPackages: task.allowedPackages,
          view: screen.perception.view,
          history: feedback ? history : history.map((entry) => ({ ...entry, outcome: 'unknown' as const, note: '' })),
          certificates,
          ...(rejection ? { rejection } : {}),
          changeStrategy: feedback && changeStrategy,
        }),
        ...(session.signal ? { signal: session.signal } : {}),
        instructJson: false,
      });
      plan = reply.value;
      session.trace.emit({ type: 'plan-end', step: round, latencyMs: performance.now() - planStarted, intent: plan.finish ? 'FINISH' : plan.intent, finish: plan.finish, expectation: plan.expectation, attempts: reply.attempts, ...(reply.repairs.length > 0 ? { repairs: describeRepairs(reply.repairs) } : {}) });
      // A target only vision can name is located first; the whole commitment is checked then.
      if (!plan.finish && commitmentOf(plan).some((item) => item.unit === lookForUnit)) {
        rejection = undefined;
        break;
      }
      const check: Admissibility = plan.finish ? { ok: true, units: [] } : admissible(plan.commitment, screen, verified, guard);
      session.trace.emit({ type: 'commitment-end', step: round, admissible: check.ok, units: plan.commitment, ...(check.ok ? {} : { reason: check.reason }) });
      if (!check.ok && check.guard) guard.traceRefusal(session, screen.perception.tree.packageName, check.reason);
      if (check.ok) {
        units = check.units;
        rejection = undefined;
        break;
      }
      rejection = check.reason;
    }
    if (!plan || rejection !== undefined) {
      history.push({ intent: plan?.intent ?? '(no plan)', outcome: 'rejected', note: rejection ?? '' });
      session.trace.emit({ type: 'step-end', step: round, latencyMs: performance.now() - stepStarted, latency: stepLatency(session, latencyBefore) });
      continue;
    }
    if (plan.finish) {
      session.trace.emit({ type: 'step-end', step: round, latencyMs: performance.now() - stepStarted, latency: stepLatency(session, latencyBefore) });
      return end(true, 'the planner said FINISH', plan.answer);
    }

    let items = plan.commitment;
    let inadmissible: string | undefined;
    // A unit the text view cannot name: a localized question to vision (when allowed). The
    // located unit takes the placeholder's place and the commitment is checked as any other.
    const wanted = commitmentOf(plan);
    if (wanted.some((item) => item.unit === lookForUnit)) {
      items = [];
      const decision = gate.unresolvedTarget();
      const candidates = screen.perception.units.filter((unit) => unit.tap !== null && unit.type !== 'finish');
      if (visionAllowed) {
        countGate(decision);
        const { unit: located, alreadyDone } = await askVision({ intent: plan.intent, failure: 'the target is not identifiable in the text view', ...(plan.lookFor === undefined ? {} : { lookFor: plan.lookFor }) }, candidates);
        if (located) {
          const resolved = wanted.map((item) => (item.unit === lookForUnit ? { ...item, unit: located.id } : item));
          const check = admissible(resolved, screen, verified, guard);
          session.trace.emit({ type: 'commitment-end', step: round, admissible: check.ok, units: resolved, ...(check.ok ? {} : { reason: check.reason }) });
          if (!check.ok && check.guard) guard.traceRefusal(session, screen.perception.tree.packageName, check.reason);
          if (check.ok) {
            items = resolved;
            units = check.units;
          } else {
            inadmissible = check.reason;
          }
        }
        if (!located && alreadyDone) {
          // Vision sees the intent's effect already on screen (e.g. the tab is already open).
          unresolvedInARow = 0;
          history.push({ intent: plan.intent, outcome: 'pass', note: 'already done (seen by vision, low confidence)' });
          session.trace.emit({ type: 'verify-end', step: round, outcome: 'pass', reason: 'vision: the intent is already achieved on screen', by: 'vlm' });
          session.trace.emit({ type: 'step-end', step: round, latencyMs: performance.now() - stepStarted, latency: stepLatency(session, latencyBefore) });
          continue;
        }
      }
      if (items.length === 0) {
        // Without vision the gate reason is still worth counting (countGate counted it when vision was asked).
        if (!visionAllowed) gateReasons['unresolved-target'] = (gateReasons['unresolved-target'] ?? 0) + 1;
        history.push({ intent: plan.intent, outcome: 'fail', note: inadmissible !== undefined ? `vision located the target but the commitment is inadmissible: ${inadmissible}` : visionAllowed ? 'vision could not locate the target either' : 'target not identifiable without vision' });
        unresolvedInARow += 1;
        if (unresolvedInARow >= maxUnresolvedInARow) {
          session.trace.emit({ type: 'step-end', step: round, latencyMs: performance.now() - stepStarted, latency: stepLatency(session, latencyBefore) });
          return end(false, `the target of "${plan.intent}" could not be found ${unresolvedInARow} times in a row`);
        }
        session.trace.emit({ type: 'step-end', step: round, latencyMs: performance.now() - stepStarted, latency: stepLatency(session, latencyBefore) });
        continue;
      }
    }

    unresolvedInARow = 0;
    // Execute and verify unit by unit.
    const start = screen;
    const executed: ExecutedUnit[] = [];
    let stopped = false;
    let unfinished = '';
    for (let index = 0; index < items.length && !stopped; index++) {
      const item = items[index]!;
      // Later units are found again on the screen the earlier ones left (ids are stable);
      // a unit that is gone ends the commitment, and the planner sees the new screen.
      const current = index === 0 ? units[0] : screen.perception.units.find((candidate) => candidate.id === item.unit);
      if (!current) {
        unfinished = `stopped after ${index} of ${items.length} units: ${item.unit} is not on the new screen`;
        break;
      }
      let unit = current;
      const key = actionKey(unit, item);
      sameActionRepeats = key === lastKey ? sameActionRepeats + 1 : 1;
      lastKey = key;
      let result = await executeUnit(session, unit, item, screen, feedback, plan);
      steps += 1;
      if (feedback) {
        const decision = gate.recordOutcome({ fingerprint: unitFingerprint(unit, screen), bounds: unit.bounds }, result.outcome.outcome);
        if (decision.open && visionAllowed) {
          countGate(decision);
          screen = result.after;
          const candidates = result.after.perception.units.filter((candidate) => candidate.tap !== null && candidate.type === unit.type);
          const { unit: located } = await askVision({ intent: plan.intent, failure: result.outcome.reason, target: unit }, candidates);
          // The located unit keeps the plan's arguments and is checked like any commitment.
          const relocated = located ? { ...item, unit: located.id } : undefined;
          const check = relocated ? admissible([relocated], result.after, verified, guard) : undefined;
          if (relocated) session.trace.emit({ type: 'commitment-end', step: round, admissible: check?.ok === true, units: [relocated], ...(check && !check.ok ? { reason: check.reason } : {}) });
          if (check && !check.ok && check.guard) guard.traceRefusal(session, result.after.perception.tree.packageName, check.reason);
          const relocatedUnit = check?.ok ? check.units[0] : undefined;
          if (relocated && relocatedUnit && steps < task.stepBudget) {
            unit = relocatedUnit;
            result = await executeUnit(session, unit, relocated, result.after, feedback, plan);
            steps += 1;
          }
        } else if (decision.open) {
          countGate(decision);
        }
        verification[result.outcome.outcome] += 1;
        if (result.outcome.outcome === 'pass') verified.add(unit.id);
        if (result.outcome.outcome === 'fail') stopped = true;
      }
      executed.push(result);
      screen = result.after;
      if (!guard.allows(screen.perception.tree.packageName)) stopped = true;
      if (steps >= task.stepBudget) stopped = true;
    }

    // The intent's expectation, over the whole commitment.
    const last = executed.at(-1);
    let outcome: HistoryEntry['outcome'] = 'unknown';
    let note = '';
    if (feedback && last) {
      const delta = session.timeVerification(() => computeDelta(start.perception.tree, screen.perception.tree));
      const expectation = plan.expectation.trim() === '' ? undefined : parsePredicate(plan.expectation);
      const intentVerdict = session.timeVerification(() => verifyIntent({ ...(expectation ? { expectation } : {}), before: start.perception.tree, after: screen.perception.tree, delta, unitOutcomes: executed.map((unit) => unit.outcome) }));
      const expectationOutcome = intentVerdict.expectationOutcome;
      let combined = intentVerdict.combined;
      let by = 'contract';
      if (combined.outcome === 'inconclusive' && session.verifier) {
        const verdict = await generateStructured(session.verifier, {
          role: 'verifier',
          schema: verifierReplySchema,
          schemaName: 'VerifierReply',
          messages: verifierMessages({ intent: plan.intent, expectation: plan.expectation, reason: combined.reason, view: screen.perception.view }),
          ...(session.signal ? { signal: session.signal } : {}),
          instructJson: false,
        });
        combined = { outcome: verdict.value.verdict, reason: `verifier: ${verdict.value.reason}`, evidence: [] };
        by = 'llm-verifier';
      }
      session.trace.writeStepArtifact(round, 'predicates.json', { expectation: plan.expectation, expectationOutcome, units: executed.map((unit) => ({ unit: unit.unit.id, outcome: unit.outcome })), combined });
      session.trace.writeStepArtifact(round, 'delta.json', summariseDelta(delta));
      session.trace.emit({ type: 'verify-end', step: round, outcome: combined.outcome, reason: combined.reason, label: delta.label, by });
      outcome = combined.outcome;
      // Units that all had their effect while the expectation did not show: say so, the
      // planner then knows its expectation (not its action) is what to doubt.
      const unitsTookEffect = executed.every((unit) => unit.outcome.outcome === 'pass') && expectationOutcome?.outcome === 'fail';
      note = combined.outcome === 'pass' ? unfinished
        : combined.outcome === 'fail' && unitsTookEffect ? `${unitsTookEffectNote}; ${expectationOutcome.reason}`.slice(0, 160)
        : combined.reason.slice(0, 160);

      // Certificate for the pivot unit (the last executed).
      const certificate = session.timeVerification(() => buildCertificate({
        intent: plan.intent,
        before: last.before.perception.tree,
        after: last.after.perception.tree,
        unit: last.unit,
        args: contractArgs(last.item),
        delta: last.delta,
        outcome: combined.outcome,
        verifiedProgrammatically: by === 'contract',
      }));
      if (memory) await memory.append(certificate);
      session.trace.emit({ type: 'certificate-end', step: round, text: renderCertificate(certificate), confidence: certificate.confidence });

      const surface = session.timeVerification(() => decideSurface({
        delta,
        after: screen.perception.tree,
        requiredValues: extractRequiredValues(plan.intent),
        lastAction: { type: last.unit.type, label: last.unit.label, resourceId: last.unit.members[0]?.resourceId ?? '', bounds: last.unit.bounds },
        ...(previousAction ? { previousAction } : {}),
        stepsTaken: steps,
        stepBudget: task.stepBudget,
        sameActionRepeats,
      }));
      session.trace.emit({ type: 'surface-end', step: round, decision: surface.decision === 'STOP' ? 'stop' : 'continue', rule: surface.rule, flags: Object.keys(surface.flags) });
      previousAction = { bounds: last.unit.bounds, deltaLabel: last.delta.label };
      changeStrategy = surface.flags.changeStrategy === true;
      if (surface.decision === 'STOP' && surface.rule !== 'step-budget') verified.clear();
      if (surface.rule === 'repeated-action') {
        history.push({ intent: plan.intent, outcome, note });
        session.trace.emit({ type: 'step-end', step: round, latencyMs: performance.now() - stepStarted, latency: stepLatency(session, latencyBefore) });
        return end(false, `the same action was repeated ${sameActionRepeats} times`);
      }
    } else if (last) {
      session.trace.emit({ type: 'verify-end', step: round, outcome: 'inconclusive', reason: 'open-loop: execution feedback is off', by: 'none' });
    }
    history.push({ intent: plan.intent, outcome, note });
    session.trace.emit({ type: 'step-end', step: round, latencyMs: performance.now() - stepStarted, latency: stepLatency(session, latencyBefore) });
  }
  return end(false, steps >= task.stepBudget ? `step budget of ${task.stepBudget} used up` : 'too many planning rounds without progress');

  function end(finished: boolean, stopReason: string, answer?: string): AgentRunEnd {
    return { finished, stopReason, steps, finalScreen: screen, verification, gateReasons, ...(answer === undefined ? {} : { answer }) };
  }
}

function unitFingerprint(unit: ControlUnit, screen: Screen): string {
  const member = unit.members[0];
  return member ? (screen.perception.tree.nodes[member.node]?.fingerprint ?? '') : unit.id;
}

function contractArgs(item: CommitmentItem): { value?: string; checked?: boolean; package?: string } {
  return {
    ...(item.value !== undefined && item.unit !== 'nav-launch' ? { value: item.value } : {}),
    ...(item.unit === 'nav-launch' && item.value !== undefined ? { package: item.value } : {}),
    ...(item.checked !== undefined ? { checked: item.checked } : {}),
  };
}

function stepLatency(session: AgentSession, before: AgentSession['latency']): Record<string, number> {
  return {
    device: session.latency.deviceMs - before.deviceMs,
    perception: session.latency.perceptionMs - before.perceptionMs,
    model: session.latency.modelMs - before.modelMs,
    verification: session.latency.verificationMs - before.verificationMs,
  };
}

function summariseDelta(delta: Delta): unknown {
  return {
    label: delta.label,
    rho: delta.rho,
    screenChanged: delta.screenChanged,
    newSurface: delta.newSurface,
    dismissedSurface: delta.dismissedSurface,
    packageChanged: delta.packageChanged,
    activityChanged: delta.activityChanged,
    changes: delta.changes.slice(0, 200),
    errorsOrBlocks: delta.errorsOrBlocks,
  };
}

type Admissibility = { ok: true; units: ControlUnit[] } | { ok: false; reason: string; guard?: true };

/** Unknown units, actions that would leave the allowed apps and SCG violations make a commitment inadmissible. */
function admissible(commitment: readonly CommitmentItem[], screen: Screen, verified: ReadonlySet<UnitId>, guard: ForegroundGuard): Admissibility {
  const units: ControlUnit[] = [];
  for (const item of commitment) {
    const unit = screen.perception.units.find((candidate) => candidate.id === item.unit);
    if (!unit) return { ok: false, reason: `unit "${item.unit}" is not on this screen; use an id from the view` };
    const refusal = guard.refusal(unit, item, screen);
    if (refusal !== undefined) return { ok: false, reason: refusal, guard: true };
    const actions = unitActions(unit, item);
    if ('problem' in actions) return { ok: false, reason: actions.problem };
    units.push(unit);
  }
  const check = checkCommitment(screen.perception.scg, units.map((unit) => unit.id), verified);
  if (!check.admissible) return { ok: false, reason: check.reason };
  return { ok: true, units };
}

/** Acts one unit, observes the settled result and (with feedback) checks the unit's contract. */
async function executeUnit(session: AgentSession, unit: ControlUnit, item: CommitmentItem, before: Screen, feedback: boolean, plan: PlanReply): Promise<ExecutedUnit> {
  const actions = unitActions(unit, item);
  if ('problem' in actions) throw new Error(`unit ${unit.id}: ${actions.problem}`);
  // A refused command fails the unit; the loop observes and recovers.
  const refused = await session.act(actions, unit.id);
  let after = actions.length === 0 ? before : await session.observe('after.xml');
  let delta = session.timeVerification(() => computeDelta(before.perception.tree, after.perception.tree));
  // A stable screen identical to the one before may only be late (a slow app): look again
  // a few times before a contract calls it "no effect" and the agent acts twice.
  for (let grace = 0; feedback && refused === undefined && actions.length > 0 && delta.label === 'no-change' && grace < graceObservations; grace++) {
    after = await session.observe('after.xml');
    delta = session.timeVerification(() => computeDelta(before.perception.tree, after.perception.tree));
  }
  if (!feedback) return { unit, item, outcome: { outcome: 'inconclusive', reason: 'feedback off', evidence: [] }, before, after, delta };
  if (actions.length === 0) {
    return { unit, item, outcome: { outcome: 'pass', reason: `${unit.type} "${unit.label}" already in the wanted state`, evidence: [] }, before, after, delta };
  }
  if (refused !== undefined) {
    const outcome: VerifyOutcome = { outcome: 'fail', reason: `${unit.type} "${unit.label}": the device refused the action (${refused})`, evidence: [] };
    session.trace.emit({ type: 'verify-end', step: session.step, outcome: 'fail', reason: outcome.reason, label: delta.label, by: 'contract' });
    return { unit, item, outcome, before, after, delta };
  }
  // A one-unit commitment's expectation speaks about this unit's effect.
  const expectation = plan.commitment.length === 1 && plan.expectation.trim() !== '' ? parsePredicate(plan.expectation) : undefined;
  const settled = session.timeVerification(() => verifyUnitStep({ unit, args: contractArgs(item), ...(expectation ? { expectation } : {}), before: before.perception.tree, after: after.perception.tree, delta }));
  session.trace.emit({ type: 'verify-end', step: session.step, outcome: settled.outcome, reason: settled.reason, label: delta.label, by: 'contract' });
  return { unit, item, outcome: settled, before, after, delta };
}
