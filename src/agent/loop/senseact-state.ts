import type { Skill } from '../../skills/skill-schema.js';
import type { AppTrailStep } from '../../memory/app-memory.js';
import type { CertificateStore } from '../../memory/certificate-memory.js';
import type { ImageDetail } from '../../model/vision-model.js';
import { defaultScrollDirection } from '../../device/scroll-swipe.js';
import type { ControlUnit, ScgEdge, UnitId } from '../../perception/control-unit.js';
import type { Task } from '../../tasks/task-schema.js';
import type { Delta } from '../../verify/compute-delta.js';
import type { ContractArgs } from '../../verify/unit-contract.js';
import type { VerifyOutcome } from '../../verify/verify-outcome.js';
import type { HistoryEntry } from '../prompts/agent-prompts.js';
import type { IrreversibleAction } from './irreversible-action.js';
import type { AgentSession, Screen } from '../agent-session.js';
import type { ForegroundGuard } from './foreground-guard.js';
import type { MetaPlanProgress } from '../planning/meta-plan-progress.js';
import type { PlanningOptions } from '../planning/planning-options.js';
import { newFeedbackMemory, type FeedbackMemory, type PlannerFeedback } from './planner-feedback.js';
import { emptyPlanningUsage, type PlanningUsage } from '../planning/planning-usage.js';
import type { CommitmentItem } from '../planning/plan-reply.js';
import type { GateDecision, VlmGate } from './vlm-gate.js';

/** What every phase of one SenseAct run reads and never replaces. */
export interface SenseActContext {
  readonly task: Task;
  readonly session: AgentSession;
  /** Execution feedback on: contracts, expectations, gate on failures, outcomes in the history (off for `open-loop`). */
  readonly feedback: boolean;
  /** Vision may be asked (not `senseact-text`, and a vision model is configured). */
  readonly visionAllowed: boolean;
  /** Every planner call goes to the vision model with a screenshot of the screen it plans on (`senseact-vlm-always`). */
  readonly visionEveryPlan: boolean;
  readonly guard: ForegroundGuard;
  readonly gate: VlmGate;
  readonly memory?: CertificateStore;
  readonly gateImageDetail?: ImageDetail;
  /** Meta-plans, voting and app-memory hints (docs/planning.md); all off when absent. */
  readonly planning?: PlanningOptions;
  /** Where executed intents are noted for the app memory to learn from once the run is judged. */
  readonly appTrail?: AppTrailStep[];
  /** Skills the planner may call by name (listed in its prompt for the app in the foreground). */
  readonly skills?: readonly Skill[];
  /** Actions that cannot be undone are confirmed by a person first (absent: no such check, as in the benchmark). */
  readonly irreversible?: IrreversiblePolicy;
}

/**
 * What happens to an action that cannot be undone (`irreversibleAction`): `allow` runs it,
 * else `confirm` asks a person (true runs it), else it is refused. `words` adds to the
 * built-in ones (a device profile's `irreversible` list).
 */
export interface IrreversiblePolicy {
  readonly allow: boolean;
  readonly confirm?: (action: IrreversibleAction) => Promise<boolean>;
  readonly words?: readonly string[];
}

/** Verification outcomes counted over a run. */
export interface VerificationCounts {
  pass: number;
  fail: number;
  inconclusive: number;
}

/** The last executed action, for the surface rules' repeated-region guard. */
export interface PreviousAction {
  readonly bounds: ControlUnit['bounds'];
  readonly deltaLabel: Delta['label'];
}

/** What the loop carries from one round to the next; the phases read and update it. */
export interface SenseActState {
  /** The screen the next phase acts on (the last observation). */
  screen: Screen;
  /** Executed units, against the task's step budget. */
  steps: number;
  readonly history: HistoryEntry[];
  /** Units verified on the current surface (the SCG's done set); cleared when the surface is left. */
  readonly verified: Set<UnitId>;
  /** SCG edges the planner proposed (`dependsOn`) and `addEdges` accepted; they apply on any screen that shows both units. */
  readonly learnedEdges: ScgEdge[];
  /** Why the last proposed edges were refused, for the next planner prompt (then cleared). */
  edgeRejections: string[];
  readonly verification: VerificationCounts;
  readonly gateReasons: Record<string, number>;
  /** The last action's key and how many times in a row it was issued (the loop guard). */
  lastActionKey: string;
  sameActionRepeats: number;
  previousAction: PreviousAction | undefined;
  /** Plans in a row whose target could not be found. */
  unresolvedInARow: number;
  /** What the last executed intent taught the next plan (surface decision, missing values, no-repeat regions, change strategy); cleared once a plan is made on it. */
  plannerFeedback: PlannerFeedback | undefined;
  /** What the feedback carries across intents: failures per target, regions not to repeat on this surface. */
  feedbackMemory: FeedbackMemory;
  /** Ids of the certificates this run wrote: the history already says what they say. */
  readonly writtenCertificates: Set<string>;
  /** The current meta-plan and its progress vector, when meta-plans are on and one was given. */
  metaPlan: MetaPlanProgress | undefined;
  /** FINISH requests refused in a row because a sub-task's check had not held. */
  finishRefusedInARow: number;
  /** Planner replies refused in a row (inadmissible commitments, skill calls that do not bind); an accepted plan resets it. */
  refusedPlansInARow: number;
  /** What meta-plans, voting and hints did and cost so far. */
  readonly planning: PlanningUsage;
}

/** A fresh state on the first screen. */
export function newSenseActState(screen: Screen): SenseActState {
  return {
    screen,
    steps: 0,
    history: [],
    verified: new Set(),
    learnedEdges: [],
    edgeRejections: [],
    verification: { pass: 0, fail: 0, inconclusive: 0 },
    gateReasons: {},
    lastActionKey: '',
    sameActionRepeats: 0,
    previousAction: undefined,
    unresolvedInARow: 0,
    plannerFeedback: undefined,
    feedbackMemory: newFeedbackMemory(),
    writtenCertificates: new Set(),
    metaPlan: undefined,
    finishRefusedInARow: 0,
    refusedPlansInARow: 0,
    planning: emptyPlanningUsage(),
  };
}

/** One executed unit with the screens around it and its verdict. */
export interface ExecutedUnit {
  readonly unit: ControlUnit;
  readonly item: CommitmentItem;
  readonly outcome: VerifyOutcome;
  readonly before: Screen;
  readonly after: Screen;
  readonly delta: Delta;
}

/** Counts a gate decision's reason and traces it (`gate-end`). */
export function recordGate(context: SenseActContext, state: SenseActState, decision: GateDecision, detail?: string): void {
  if (decision.reason) state.gateReasons[decision.reason] = (state.gateReasons[decision.reason] ?? 0) + 1;
  context.session.trace.emit({ type: 'gate-end', step: context.session.step, opened: decision.open, ...(decision.reason ? { reason: decision.reason } : {}), score: decision.score, ...(detail === undefined ? {} : { detail }) });
}

/** Counts an executed unit's verdict; a unit that passed is verified (admissibility may rely on it). */
export function recordUnitVerdict(state: SenseActState, executed: ExecutedUnit): void {
  state.verification[executed.outcome.outcome] += 1;
  if (executed.outcome.outcome === 'pass') state.verified.add(executed.unit.id);
}

/**
 * The contract arguments of a commitment item on its unit (`nav-launch`'s value is the
 * package to reach; a scroll goes the item's way, down when it names none, as it is sent).
 */
export function contractArgs(item: CommitmentItem, unit: ControlUnit): ContractArgs {
  return {
    ...(unit.type === 'scroll' ? { direction: item.direction ?? defaultScrollDirection } : {}),
    ...(item.value !== undefined && item.unit !== 'nav-launch' ? { value: item.value } : {}),
    ...(item.unit === 'nav-launch' && item.value !== undefined ? { package: item.value } : {}),
    ...(item.checked !== undefined ? { checked: item.checked } : {}),
    ...(item.longPress === true ? { longPress: true } : {}),
  };
}

/** The stable fingerprint of a unit's first member (its id for pseudo units): the gate's "same target". */
export function unitFingerprint(unit: ControlUnit, screen: Screen): string {
  const member = unit.members[0];
  return member ? (screen.perception.tree.nodes[member.node]?.fingerprint ?? '') : unit.id;
}
