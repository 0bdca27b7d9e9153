import type { ControlUnit, UnitType } from '../../perception/control-unit.js';
import type { Perception } from '../../perception/perceive.js';
import { fillPlaceholders, placeholderNames, type Bindings } from '../../skills/skill-parameters.js';
import { parseAnswerRule, readAnswer } from '../../skills/answer-rule.js';
import { holdsOn, matchSkill } from '../../skills/match-skill.js';
import { isBranchPoint, type Skill, type SkillAction, type SkillAnswer, type SkillStep } from '../../skills/skill-schema.js';
import { computeDelta } from '../../verify/compute-delta.js';
import { findNodes, subtreeEnd } from '../../verify/find-nodes.js';
import { parsePredicate, parseQuery } from '../../verify/parse-predicate.js';
import { PredicateParseError } from '../../verify/predicate-parse-error.js';
import { resolveUnit } from '../../verify/resolve-unit.js';
import { verifyIntent } from '../../verify/verify-intent.js';
import { expectationFailedCode, isPixelOnlyUnit, pixelOnlyCode } from '../../verify/verify-unit-step.js';
import type { VerifyOutcome } from '../../verify/verify-outcome.js';
import { admissibleCommitment } from '../loop/admissible-commitment.js';
import { certifyAndDecide } from '../loop/certify-and-decide.js';
import { executeCommitment, type CommitmentRun } from '../loop/execute-commitment.js';
import { relocateByVision } from '../loop/relocate-by-vision.js';
import { resolveByVision } from '../loop/resolve-by-vision.js';
import { recordGate, recordUnitVerdict } from '../loop/senseact-state.js';
import { refusedCode } from '../loop/execute-unit.js';
import { lookForUnit, type CommitmentItem, type PlanReply } from '../planning/plan-reply.js';
import type { SenseActContext, SenseActState } from '../loop/senseact-state.js';
import type { SkillCall } from '../planning/skill-menu.js';
import { maxNoteLength, verifyCommittedIntent, type IntentJudgement } from '../loop/verify-committed-intent.js';

/** How a skill replay ended. */
export interface SkillRunEnd {
  /** `completed`: every step verified; `handed-over`: a step failed or could not be grounded, the planner goes on; `no-match`: no skill fits. */
  readonly outcome: 'completed' | 'handed-over' | 'no-match';
  readonly skill?: string;
  readonly reason: string;
  /** Steps replayed and verified. */
  readonly steps: number;
  /** Rounds (step folders) the replay used: the loop numbers its own after them. */
  readonly rounds: number;
  /** For a question skill that completed: the answer read from the live screen by its rule. */
  readonly answer?: string;
}

/** The note every history entry of a skill step starts with, so the planner (and the oracle) can tell them. */
export const skillNotePrefix = 'skill';

/** Extra tries of a step whose unit changed nothing at all (a tap the device dropped): nothing happened, so trying again is safe. */
export const skillStepRetries = 1;

/** Unexpected dialogs dismissed per step at most (one may appear after the dismissal's own tap). */
export const skillDialogDismissals = 2;

/** Labels of the button that dismisses an unexpected dialog (rate this app, update available). Never Cancel: that may be the flow's own dialog. */
const dismissLabel = /^(not now|later|no,? thanks|maybe later|remind me later|skip)$/i;

/** The unit types a recorded tap-like action may find now: perception may type the same button click, commit or select by its context. */
const tapLike: ReadonlySet<UnitType> = new Set(['click', 'commit', 'select']);

function sameKind(recorded: UnitType, found: UnitType): boolean {
  return recorded === found || (tapLike.has(recorded) && tapLike.has(found));
}

/**
 * A step grounded on the screen, or why not. `lookFor`: the one action whose target is
 * not on the screen (everything else grounded): its item holds the look-for placeholder,
 * and `query` is what vision may be asked to locate.
 */
type Grounded = { readonly ok: true; readonly items: CommitmentItem[] } | { readonly ok: false; readonly reason: string; readonly lookFor?: { readonly items: CommitmentItem[]; readonly action: SkillAction; readonly query: string } };

function filled(text: string, bindings: Bindings, where: string): string {
  const result = fillPlaceholders(text, bindings);
  if ('missing' in result) throw new Error(`skill ${where}: ${result.missing.join(', ')} has no value (a checked skill fills every placeholder: this is a bug)`);
  return result.text;
}

/**
 * Re-grounds a step on the live screen: each action's query (filled with the
 * instruction's values) must find exactly one unit, of the recorded kind. None, several,
 * or another kind is a mismatch: the skill never guesses.
 */
function groundStep(step: SkillStep, bindings: Bindings, perception: Perception, resolve: (query: string) => readonly ControlUnit[], examples: Readonly<Record<string, string>>): Grounded {
  const { units } = perception;
  const items: CommitmentItem[] = [];
  let missing: { readonly action: SkillAction; readonly query: string; readonly reason: string } | undefined;
  for (const action of step.actions) {
    const args = argumentsOf(action, bindings);
    if (action.unit === 'navigate') {
      const id = `nav-${action.navigate ?? 'back'}`;
      if (!units.some((unit) => unit.id === id)) return { ok: false, reason: `no ${id} unit on this screen` };
      items.push({ unit: id, ...args });
      continue;
    }
    const query = filled(action.target ?? '', bindings, 'target');
    let found = resolve(query);
    if (found.length === 0 && action.fallback !== undefined && fallbackApplies(action, bindings, examples)) {
      // The label may be gone (an icon drawn without its description): the unit's id still names it, if it shows no other label.
      const fallback = filled(action.fallback, bindings, 'fallback');
      if (nodeWithoutLabel(fallback, perception)) found = resolve(fallback);
    }
    const unit = found[0];
    if (!unit) {
      // Not on the screen by its query: vision may locate it (one such target per step).
      if (missing) return { ok: false, reason: missing.reason };
      missing = { action, query, reason: `${action.unit} target ${query} is not on the screen` };
      items.push({ unit: lookForUnit, ...args });
      continue;
    }
    if (found.length > 1) return { ok: false, reason: `${action.unit} target ${query} is ambiguous (${found.length} units)` };
    const wrong = wrongControl(action, unit, query, bindings, perception, examples);
    if (wrong !== undefined) return { ok: false, reason: wrong };
    items.push({ unit: unit.id, ...args });
  }
  if (missing) return { ok: false, reason: missing.reason, lookFor: { items, action: missing.action, query: missing.query } };
  return { ok: true, items };
}

/**
 * Why a unit found for a recorded action is not the recorded control: another kind, or
 * a label that is a parameter now names another control (AM, not the recorded PM: the
 * recorded id is on another node). Undefined when it may be the one.
 */
function wrongControl(action: SkillAction, unit: ControlUnit, query: string, bindings: Bindings, perception: Perception, examples: Readonly<Record<string, string>>): string | undefined {
  if (!sameKind(action.unit, unit.type)) return `${action.unit} target ${query} is now a ${unit.type} ("${unit.label}")`;
  const elsewhere = action.fallback === undefined || !recordedValue(action.target ?? '', bindings, examples) ? undefined : idElsewhere(filled(action.fallback, bindings, 'fallback'), unit, perception);
  if (elsewhere !== undefined) return `${action.unit} target ${query} now names another control ("${unit.label}"): the recorded ${elsewhere} is on another node`;
  return undefined;
}

/**
 * A recorded fallback names the control the skill was recorded on. It stands for the
 * target only while every placeholder of the target it does not carry itself holds the
 * value it was recorded with: `id="day_button_6"` was Saturday's box, so it says nothing
 * about Sunday's.
 */
function fallbackApplies(action: SkillAction, bindings: Bindings, examples: Readonly<Record<string, string>>): boolean {
  const own = placeholderNames(action.fallback ?? '');
  return [...placeholderNames(action.target ?? '')].every((name) => own.has(name) || atRecordedValue(name, bindings, examples));
}

/** True when parameter `name` is bound to the value the skill was recorded with (its example). */
function atRecordedValue(name: string, bindings: Bindings, examples: Readonly<Record<string, string>>): boolean {
  return bindings[name]?.value.toLowerCase() === examples[name]?.toLowerCase();
}

/** True when a target's placeholders (if any) are bound to the values the skill was recorded with (its parameters' examples). */
function recordedValue(target: string, bindings: Bindings, examples: Readonly<Record<string, string>>): boolean {
  return [...placeholderNames(target)].every((name) => atRecordedValue(name, bindings, examples));
}

/**
 * The recorded control's resource-id (a fallback that is an id alone, e.g. `id="button1"`,
 * checked only while the target's placeholders hold the recorded values) when the screen shows it on nodes outside the unit the label found: the label moved to
 * another control (labels swapped or reused by an update). Undefined when the fallback is
 * no bare id, or the id is on the unit, or nowhere on the screen (nothing to compare).
 */
function idElsewhere(fallback: string, unit: ControlUnit, perception: Perception): string | undefined {
  let query;
  try {
    query = parseQuery(fallback);
  } catch (error) {
    if (PredicateParseError.isInstance(error)) return undefined;
    throw error;
  }
  if (Object.entries(query).some(([key, value]) => key !== 'id' && value !== undefined) || query.id === undefined) return undefined;
  const matches = findNodes(query, perception.tree).matches;
  if (matches.length === 0) return undefined;
  const own = new Set<number>();
  for (const member of unit.members) {
    for (let index = member.node; index < subtreeEnd(perception.tree, member.node); index++) own.add(index);
  }
  return matches.some((index) => own.has(index)) ? undefined : fallback;
}

/** True when a fallback query finds exactly one node and that node shows no text or description: a label gone missing, not a label changed. */
function nodeWithoutLabel(query: string, perception: Perception): boolean {
  let matches: readonly number[];
  try {
    matches = findNodes(parseQuery(query), perception.tree).matches;
  } catch (error) {
    if (PredicateParseError.isInstance(error)) return false;
    throw error;
  }
  const node = matches.length === 1 ? perception.tree.nodes[matches[0] as number] : undefined;
  return node !== undefined && node.text.trim() === '' && node.contentDesc.trim() === '';
}

function argumentsOf(action: SkillAction, bindings: Bindings): Omit<CommitmentItem, 'unit'> {
  return {
    ...(action.value === undefined ? {} : { value: filled(action.value, bindings, 'value') }),
    ...(action.checked === undefined ? {} : { checked: action.checked }),
    ...(action.direction === undefined ? {} : { direction: action.direction }),
    ...(action.longPress === undefined ? {} : { longPress: action.longPress }),
  };
}

/** The history note of a skill step. */
function noteOf(skill: Skill, index: number, total: number, reason: string): string {
  return `${skillNotePrefix} ${skill.name} step ${index + 1}/${total}${reason === '' ? '' : `: ${reason}`}`.slice(0, maxNoteLength);
}

/**
 * Replays a skill without a model (NesyProAct/NSI, docs/skills.md): the task's
 * instruction is matched to one skill (`matchSkill`: template, typed values,
 * precondition on the start screen; none or several → no match), then each step is
 * re-grounded on the live screen by its queries, run through the loop's own
 * `executeCommitment` (each unit verified by `verifyUnitStep`: its contract, and the
 * step's expectation for a one-unit step) and judged as an intent by `verifyIntent`,
 * then certified like a planned intent. Guarded steps run only when their guard holds;
 * at a branch point the first alternative whose guard holds and whose targets are all on
 * the screen runs. A step whose unit changed nothing is tried once more (a dropped tap);
 * an unexpected dialog the step's targets hide is dismissed, also between two units of a
 * step. Where the tree does not show what the step needs, the loop's own vision phases
 * run (when the mode allows vision; no planner is asked): a target its query does not
 * find is located by vision from the recorded query (`resolveByVision`; the located unit
 * must be admissible, of the recorded kind and not the recorded id's rival), a dropped
 * tap on an icon goes to the gate as in the loop, and a step whose units acted while its
 * expectation did not show asks vision whether it shows (`relocateByVision`, `confirm`).
 * Anything else — a target not found by either, ambiguous or of another kind, a found
 * unit whose recorded id sits on another node, a failed or inconclusive verdict vision
 * does not confirm, an unmet postcondition — hands over to the planner from that state,
 * with the skill's progress in the history. No model is called, except the loop's verifier
 * at an inconclusive verdict of a step whose recorded check needed it (`verifier: model`).
 * A password parameter is a secret of the run from the match on.
 */
export async function runSkill(context: SenseActContext, state: SenseActState, skills: readonly Skill[]): Promise<SkillRunEnd> {
  const { session, task } = context;
  const matched = matchSkill(skills, task.instruction, { app: task.app, screen: state.screen.perception.tree });
  if (matched.kind === 'none') {
    session.trace.emit({ type: 'skill-end', step: null, outcome: 'no-match', reason: matched.reason, steps: 0 });
    return { outcome: 'no-match', reason: matched.reason, steps: 0, rounds: 0 };
  }
  const { skill, bindings } = matched.match;
  return replaySkill(context, state, skill, bindings, 1);
}

async function replaySkill(context: SenseActContext, state: SenseActState, skill: Skill, bindings: Bindings, firstRound: number): Promise<SkillRunEnd> {
  // A password the instruction gives is a secret in every file from the start (the loop learns it only when typed): the bindings in the trace, the instruction, the screens.
  for (const binding of Object.values(bindings)) if (binding.type === 'password') context.session.trace.redactor.addPassword(binding.value);
  const replay = new SkillReplay(context, state, skill, bindings, firstRound);
  const end = await replay.run();
  context.session.trace.emit({ type: 'skill-end', step: null, skill: skill.name, outcome: end.outcome, reason: end.reason, steps: end.steps, bindings: Object.fromEntries(Object.entries(bindings).map(([name, binding]) => [name, binding.value])) });
  return end;
}

/**
 * Runs a skill the planner called by name mid-run (`resolveSkillCall` checked the name,
 * the arguments and the precondition), through the same verified replay as a skill
 * matched at the start; its rounds are numbered from `firstRound`. Its steps go into the
 * history as they are verified; a completed replay adds a line saying so (with the answer
 * it read, for a question), a hand-over the line saying where and why. The planner goes
 * on either way.
 */
export async function playCalledSkill(context: SenseActContext, state: SenseActState, call: SkillCall, firstRound: number): Promise<SkillRunEnd> {
  const end = await replaySkill(context, state, call.skill, call.bindings, firstRound);
  if (end.outcome === 'completed') {
    const answer = end.answer === undefined ? '' : `; answer: ${JSON.stringify(end.answer)}`;
    state.history.push({ intent: `Replay skill ${call.skill.name}`, outcome: 'pass', note: `${skillNotePrefix} ${call.skill.name}: all ${end.steps} steps verified${answer}`.slice(0, maxNoteLength) });
  }
  return end;
}

type StepVerdict = { readonly outcome: 'pass' } | { readonly outcome: 'fail' | 'inconclusive' | 'ungrounded'; readonly reason: string };

/**
 * A round's verdict, with what the step may do next: try again (`retry`) from its unit
 * `retryFrom` (the units before it verified), it acted on nothing (`noEffect`), a dialog
 * stopped it after that many units (`haltedAfter`).
 */
type RoundVerdict = StepVerdict & { readonly retry?: true; readonly retryFrom?: number; readonly noEffect?: true; readonly haltedAfter?: number };

interface ExecuteResult {
  readonly outcome: VerifyOutcome;
  readonly retry: boolean;
  /** With `retry`: the units before this one verified and are not played again (a digit typed twice is another number). */
  readonly retryFrom?: number;
  readonly noEffect: boolean;
  readonly haltedAfter?: number;
}

/** An icon (no text, no checkable or editable state) whose description is gone too: nothing in the tree names it or shows its effect. */
function unlabelledIcon(unit: ControlUnit, tree: Perception['tree']): boolean {
  return isPixelOnlyUnit(unit, tree) && unit.members.every((member) => tree.nodes[member.node]?.contentDesc.trim() === '');
}

/**
 * True when the fills of a failed round changed the text of an editable field that is
 * none of their own: the typed value went elsewhere (a lost focusing tap), so playing
 * the fills again would leave that field wrong.
 */
function typedElsewhere(run: CommitmentRun, delta: IntentJudgement['delta']): boolean {
  const tree = run.start.perception.tree;
  const own = new Set<number>();
  for (const executed of run.executed) {
    const unit = run.start.perception.units.find((candidate) => candidate.id === executed.unit.id);
    for (const member of unit?.members ?? []) {
      for (let node = member.node; node < subtreeEnd(tree, member.node); node++) own.add(node);
    }
  }
  return delta.changes.some((change) => change.kind === 'text' && change.field === 'text' && tree.nodes[change.before]?.editable === true && !own.has(change.before));
}

/** One replay of one skill over the loop's state. */
class SkillReplay {
  private rounds = 0;
  private verifiedSteps = 0;
  private readonly total: number;
  /** The values the skill's parameters were recorded with. */
  private readonly examples: Readonly<Record<string, string>>;

  constructor(
    private readonly context: SenseActContext,
    private readonly state: SenseActState,
    private readonly skill: Skill,
    private readonly bindings: Bindings,
    /** The loop's round number of the replay's first round (1 at the start of a run). */
    private readonly firstRound: number,
  ) {
    this.total = skill.steps.length;
    this.examples = Object.fromEntries(Object.entries(skill.parameters).map(([name, parameter]) => [name, parameter.example]));
  }

  private end(outcome: SkillRunEnd['outcome'], reason: string, answer?: string): SkillRunEnd {
    return { outcome, skill: this.skill.name, reason, steps: this.verifiedSteps, rounds: this.rounds, ...(answer === undefined ? {} : { answer }) };
  }

  private holds(text: string): boolean {
    return holdsOn(text, this.bindings, this.state.screen.perception.tree).holds;
  }

  private resolve = (query: string): readonly ControlUnit[] => {
    try {
      return resolveUnit(parseQuery(query), this.state.screen.perception).units;
    } catch (error) {
      if (PredicateParseError.isInstance(error)) return [];
      throw error;
    }
  };

  /**
   * A guard holds on the live screen; a guard induction made from the step's own first
   * target (`exists(<target>)`, "this step's control is here") also holds when that target
   * grounds as the step would ground it: by its fallback when its label is gone (an icon
   * drawn without its description), under the same rule — the one node the fallback finds
   * shows no label at all.
   */
  private guardHolds(when: string, step: SkillStep): boolean {
    if (this.holds(when)) return true;
    const first = step.actions.find((action) => action.target !== undefined);
    if (first?.target === undefined || first.fallback === undefined || when !== `exists(${first.target})`) return false;
    return groundStep({ ...step, actions: [first] }, this.bindings, this.state.screen.perception, this.resolve, this.examples).ok;
  }

  async run(): Promise<SkillRunEnd> {
    for (const [index, entry] of this.skill.steps.entries()) {
      let steps: readonly SkillStep[];
      if (isBranchPoint(entry)) {
        const chosen = entry.branches.find((branch) => this.guardHolds(branch.when, branch.steps[0] as SkillStep) && groundStep(branch.steps[0] as SkillStep, this.bindings, this.state.screen.perception, this.resolve, this.examples).ok);
        if (!chosen) return this.handOver(index, `no alternative of branch point ${index + 1} fits this screen`);
        steps = chosen.steps;
      } else {
        if (entry.when !== undefined && !this.guardHolds(entry.when, entry)) continue;
        steps = [entry];
      }
      for (const step of steps) {
        const verdict = await this.playStep(step, index);
        if (verdict.outcome !== 'pass') return this.handOver(index, `step ${index + 1} "${filled(step.intent, this.bindings, 'intent')}": ${verdict.reason}`);
      }
    }
    if (this.skill.postcondition !== undefined && !this.holds(this.skill.postcondition)) return this.handOver(this.total, `the postcondition ${this.skill.postcondition} does not hold`);
    if (this.skill.answer === undefined) return this.end('completed', `all ${this.verifiedSteps} steps verified`);
    const read = this.readAnswer(this.skill.answer);
    if ('problem' in read) return this.handOver(this.total, `the answer cannot be read: ${read.problem}`);
    return this.end('completed', `all ${this.verifiedSteps} steps verified; answer read from the ${this.skill.answer.from} of ${read.target}`, read.answer);
  }

  /** Reads the answer on the live screen by the skill's rule: one node (or a count), never a guess. */
  private readAnswer(rule: SkillAnswer): { answer: string; target: string } | { problem: string } {
    const target = filled(rule.target, this.bindings, 'answer target');
    let parsed;
    try {
      parsed = parseAnswerRule(rule, (text) => filled(text, this.bindings, 'answer target'));
    } catch (error) {
      if (PredicateParseError.isInstance(error)) return { problem: `the answer target ${target} does not parse: ${error.message}` };
      throw error;
    }
    const read = readAnswer(parsed, this.state.screen.perception.tree);
    return 'problem' in read ? read : { answer: read.answer, target };
  }

  private handOver(index: number, reason: string): SkillRunEnd {
    // The planner goes on from this state; the history already holds the verified steps and the failed one.
    if (this.state.history.at(-1)?.outcome === 'pass' || this.state.history.length === 0) {
      this.state.history.push({ intent: `Replay skill ${this.skill.name}`, outcome: 'fail', note: noteOf(this.skill, Math.min(index, this.total - 1), this.total, reason) });
    }
    return this.end('handed-over', reason);
  }

  /**
   * Plays one step as one round, with a retry after a dropped tap and a dismissal of an
   * unexpected dialog: before each round (a dialog the last step's tap raised over the
   * screen takes the next tap), after a round that acted on nothing (its tap fell on
   * the dialog), then the step is played again, and between two units of the step (the
   * units before it verified: the rest of the step is played after the dismissal).
   */
  private async playStep(step: SkillStep, index: number): Promise<StepVerdict> {
    let retries = 0;
    let from = 0;
    for (let dismissals = 0; ;) {
      if (dismissals < skillDialogDismissals) {
        const dismissed = await this.dismissDialog(step);
        if (dismissed === 'failed') return { outcome: 'fail', reason: 'an unexpected dialog over the screen could not be dismissed' };
        if (dismissed === 'dismissed') dismissals += 1;
      }
      const played = await this.round(step, index, from);
      if (played.outcome === 'pass') return played;
      // A dialog came up between two units: the ones before it verified, the rest is played once it is dismissed.
      if (played.haltedAfter !== undefined && dismissals < skillDialogDismissals) {
        from += played.haltedAfter;
        continue;
      }
      // Nothing acted: a dialog that appeared meanwhile took the tap; it is dismissed at the top of the loop.
      if (played.noEffect === true && dismissals < skillDialogDismissals && this.dismissableDialog(step) !== undefined) continue;
      if (played.retry === true && retries < skillStepRetries) {
        retries += 1;
        from += played.retryFrom ?? 0;
        continue;
      }
      return played;
    }
  }

  /** Counts a round and opens its step in the trace (numbered after the loop's rounds before the replay). */
  private startRound(): void {
    const { session } = this.context;
    this.rounds += 1;
    session.step = this.firstRound - 1 + this.rounds;
    session.trace.emit({ type: 'step-start', step: session.step });
  }

  /**
   * One round: ground (a target its query does not find goes to vision, as in the loop's
   * resolve-by-vision phase), execute through the loop's phase, verify the intent,
   * certify. `from` skips the step's units already played and verified.
   */
  private async round(whole: SkillStep, index: number, from: number): Promise<RoundVerdict> {
    const { context, state } = this;
    const { session } = context;
    const step = from === 0 ? whole : { ...whole, actions: whole.actions.slice(from) };
    const intent = filled(step.intent, this.bindings, 'intent');
    const expectation = step.expect === undefined ? '' : filled(step.expect, this.bindings, 'expect');
    const grounded = groundStep(step, this.bindings, state.screen.perception, this.resolve, this.examples);
    if (!grounded.ok && (grounded.lookFor === undefined || !context.visionAllowed)) return { outcome: 'ungrounded', reason: grounded.reason, noEffect: true };
    const items = grounded.ok ? grounded.items : grounded.lookFor?.items ?? [];
    if (state.steps + items.length > context.task.stepBudget) return { outcome: 'ungrounded', reason: 'the step budget would run out' };
    this.startRound();
    session.trace.writeStepArtifact(session.step, 'view.txt', state.screen.perception.view);
    const started = performance.now();
    const located = grounded.ok ? { items } : await this.locateByVision(intent, expectation, grounded);
    const result = 'problem' in located
      ? { outcome: { outcome: 'fail' as const, reason: located.problem, evidence: [] }, retry: false, noEffect: true }
      : await this.execute(intent, expectation, located.items, step);
    const verdict: RoundVerdict = result.outcome.outcome === 'pass'
      ? { outcome: 'pass' }
      : { outcome: 'problem' in located ? 'ungrounded' : result.outcome.outcome, reason: result.outcome.reason, ...(result.retry ? { retry: true as const, ...(result.retryFrom ? { retryFrom: result.retryFrom } : {}) } : {}), ...(result.noEffect ? { noEffect: true as const } : {}), ...(result.haltedAfter === undefined ? {} : { haltedAfter: result.haltedAfter }) };
    if (verdict.outcome === 'pass') this.verifiedSteps += 1;
    state.history.push({ intent, outcome: result.outcome.outcome, note: noteOf(this.skill, index, this.total, verdict.outcome === 'pass' ? '' : verdict.reason) });
    session.trace.emit({ type: 'skill-step-end', step: session.step, skill: this.skill.name, index, intent, ...(expectation === '' ? {} : { expectation }), outcome: result.outcome.outcome, reason: result.outcome.reason });
    session.trace.emit({ type: 'step-end', step: session.step, latencyMs: performance.now() - started });
    return verdict;
  }

  /**
   * The loop's resolve-by-vision phase for the one target of a step its query does not
   * find (a label the screen lost): vision is asked for the step's recorded target
   * (`lookFor`: its query), the located unit takes the placeholder's place and the
   * commitment is checked for admissibility. The located unit must be of the recorded
   * kind and not the recorded id's rival (the id on another node); vision answering
   * "already done" acts on nothing and is no verified step.
   */
  private async locateByVision(intent: string, expectation: string, grounded: Extract<Grounded, { ok: false }>): Promise<{ items: CommitmentItem[] } | { problem: string }> {
    const lookFor = grounded.lookFor;
    if (!lookFor) return { problem: grounded.reason };
    const plan: PlanReply = { intent, expectation, commitment: lookFor.items, finish: false, lookFor: lookFor.query };
    const resolution = await resolveByVision(this.context, this.state, plan);
    if (resolution.kind !== 'resolved') return { problem: `${grounded.reason}; vision: ${resolution.kind === 'already-done' ? 'it looks already done, which verifies nothing' : resolution.note}` };
    const position = lookFor.items.findIndex((item) => item.unit === lookForUnit);
    const unit = resolution.units[position];
    if (!unit) return { problem: `${grounded.reason}; vision located nothing usable` };
    if (lookFor.items.some((item, other) => other !== position && item.unit === unit.id)) return { problem: `${grounded.reason}; vision located a unit the step already acts on` };
    const wrong = wrongControl(lookFor.action, unit, lookFor.query, this.bindings, this.state.screen.perception, this.examples);
    if (wrong !== undefined) return { problem: `${grounded.reason}; vision located ${unit.type} "${unit.label}", but ${wrong}` };
    return { items: [...resolution.items] };
  }

  private async execute(intent: string, expectation: string, items: readonly CommitmentItem[], step?: SkillStep): Promise<ExecuteResult> {
    const { context, state } = this;
    const check = admissibleCommitment(context, items, state.screen, state.verified, state.learnedEdges);
    if (!check.ok) return { outcome: { outcome: 'fail', reason: `not admissible: ${check.reason}`, evidence: [] }, retry: false, noEffect: true };
    // A one-action step names its target for vision, should the gate open on it.
    const target = step?.actions.length === 1 ? step.actions[0]?.target : undefined;
    const plan: PlanReply = { intent, expectation, commitment: [...items], finish: false, ...(target === undefined ? {} : { lookFor: filled(target, this.bindings, 'target') }) };
    // A dialog the app raised between two units of the step would take the next tap: stop there.
    const halt = step === undefined ? undefined : (): string | undefined => (this.dismissableDialog(step) === undefined ? undefined : 'an unexpected dialog came up over the screen');
    let run = await executeCommitment(context, state, plan, items, check.units, halt ? { halt } : {});
    // No unit ran (the device refused the first, e.g. a fill whose focusing tap was lost): nothing acted, trying again is safe.
    if (run.executed.length === 0) return { outcome: { outcome: 'fail', reason: run.unfinished || 'no unit ran', evidence: [] }, retry: true, noEffect: true };
    if (run.haltedAfter !== undefined && run.executed.every((unit) => unit.outcome.outcome === 'pass')) {
      return { outcome: { outcome: 'fail', reason: run.unfinished, evidence: [] }, retry: false, noEffect: false, haltedAfter: run.haltedAfter };
    }
    // A step whose recorded check needed the loop's model verifier asks it at an inconclusive verdict, as the loop did; its word stands (vision confirms only what no verifier judged).
    let judgement = step?.verifier === 'model' ? await verifyCommittedIntent(context, plan, run) : this.judge(plan, run);
    let last = run.executed.at(-1);
    // An icon with no label left (text and description gone) whose tap changed nothing: its
    // effect may show in pixels only, and so may the expectation's label: tapping it again is
    // not safe (a star would be undone), so the gate opens at once, as in the loop.
    const blindTap = judgement.outcome === 'fail' && last !== undefined && last.delta.label === 'no-change' && last.outcome.outcome === 'fail' && last.outcome.code !== pixelOnlyCode && unlabelledIcon(last.unit, last.before.perception.tree);
    let askedVision = false;
    if (blindTap && step !== undefined && context.visionAllowed && last !== undefined) {
      askedVision = true;
      recordGate(context, state, context.gate.pixelOnly());
      const seen = await relocateByVision(context, state, plan, last, items.length === 1 && expectation !== '' ? parsePredicate(expectation) : undefined, 'pixel-only');
      if (seen.after === last.after && seen.outcome.outcome === 'pass') {
        // Vision saw the effect: a weak pass by vision.
        judgement = { ...judgement, outcome: 'pass', reason: seen.outcome.reason, note: 'seen by vision, low confidence', by: 'vlm', strength: 'weak' };
      } else if (seen !== last) {
        // Vision located the icon again and it was tapped again: the step is judged on that, on the screen it left.
        state.screen = seen.after;
        recordUnitVerdict(state, seen);
        run = { ...run, executed: [...run.executed.slice(0, -1), seen] };
        judgement = this.judge(plan, run);
      }
      last = seen;
    } else if (judgement.outcome !== 'pass' && judgement.by !== 'llm-verifier' && step !== undefined && this.visionMayConfirm(plan, items, run)) {
      askedVision = true;
      judgement = await this.confirmByVision(plan, run, judgement);
    }
    await certifyAndDecide(context, state, plan, run, judgement);
    // Nothing changed at all: the tap was lost and trying again is safe — unless the unit is an
    // icon whose effect may be pixels only and nothing but the unit speaks for the step. A
    // one-unit step with an expectation is judged by it: the recorded run saw that expectation
    // come true on the tree, so a tree where nothing changed is a lost tap, not a pixel effect
    // (not so for an icon whose labels are gone: see blindTap).
    const nothingChanged = judgement.outcome === 'fail' && last !== undefined && last.delta.label === 'no-change' && last.outcome.outcome === 'fail';
    // The first unit's command was refused (a fill with no field focused: its focusing tap did not reach the field): nothing acted.
    const refusedFirst = judgement.outcome === 'fail' && run.executed.length === 1 && last?.outcome.code === refusedCode;
    const lostTap = nothingChanged && !blindTap && !askedVision && (last?.outcome.code !== pixelOnlyCode || (expectation !== '' && items.length === 1));
    // A step of fills only sets each field to its value: played again, it ends in the same state
    // (a typed value a lost tap sent into one of them is overwritten) — not when the text went into another field.
    const settable = items.every((item) => item.value !== undefined && run.start.perception.units.find((unit) => unit.id === item.unit)?.type === 'fill') && !typedElsewhere(run, judgement.delta);
    const outcome: VerifyOutcome = { outcome: judgement.outcome, reason: run.unfinished === '' ? judgement.reason : `${judgement.reason}; ${run.unfinished}`, evidence: [] };
    // A lost tap after units that verified: only the lost one is played again (the units
    // before it acted: a digit or a step of a counter would be entered twice). Fills are
    // played again whole (a value the lost tap sent elsewhere is overwritten).
    const retryFrom = lostTap && !settable && run.executed.slice(0, -1).every((unit) => unit.outcome.outcome === 'pass') ? run.executed.length - 1 : 0;
    // A commitment cut short is not the step done.
    return { outcome: run.unfinished !== '' && outcome.outcome === 'pass' ? { ...outcome, outcome: 'fail' } : outcome, retry: judgement.outcome === 'fail' && (lostTap || settable || refusedFirst), retryFrom, noEffect: refusedFirst || (nothingChanged && run.executed.length === 1) };
  }

  /**
   * True when a failed or inconclusive step may be a matter of what the tree cannot show:
   * vision is allowed, the step states an expectation, every unit ran and changed the
   * screen, and only the expectation did not show (the last unit's own check failed on it
   * or was inconclusive; the others passed).
   */
  private visionMayConfirm(plan: PlanReply, items: readonly CommitmentItem[], run: CommitmentRun): boolean {
    if (!this.context.visionAllowed || plan.expectation.trim() === '' || run.unfinished !== '' || run.executed.length !== items.length) return false;
    return run.executed.every((unit, position) => {
      if (unit.delta.label === 'no-change' && unit.outcome.outcome !== 'pass') return false;
      if (unit.outcome.outcome === 'pass') return true;
      return position === run.executed.length - 1 && (unit.outcome.outcome === 'inconclusive' || unit.outcome.code === expectationFailedCode);
    });
  }

  /**
   * The loop's vision phase on a failed check (`relocateByVision`, kind `confirm`): vision
   * is asked, on the screen the step left, whether its expectation shows; seen → a weak
   * pass by vision (the certificate is low-confidence), not seen → the verdict stands and
   * the skill hands over. Nothing is acted on again.
   */
  private async confirmByVision(plan: PlanReply, run: CommitmentRun, judgement: IntentJudgement): Promise<IntentJudgement> {
    const { context, state } = this;
    const last = run.executed.at(-1);
    if (!last) return judgement;
    recordGate(context, state, context.gate.skillCheck());
    const failed = { ...last, outcome: { outcome: 'fail' as const, reason: judgement.reason, evidence: [] } };
    const seen = await relocateByVision(context, state, plan, failed, undefined, 'confirm');
    if (seen.outcome.outcome !== 'pass') return judgement;
    return { outcome: 'pass', reason: seen.outcome.reason, note: 'seen by vision, low confidence', by: 'vlm', delta: judgement.delta, strength: 'weak' };
  }

  /** The intent's verdict by the loop's own pure step; inconclusive stays inconclusive (no language model is asked). */
  private judge(plan: PlanReply, run: CommitmentRun): IntentJudgement {
    const { session } = this.context;
    const after = run.executed.at(-1)?.after ?? run.start;
    const delta = session.timeVerification(() => computeDelta(run.start.perception.tree, after.perception.tree));
    const expectation = plan.expectation === '' ? undefined : parsePredicate(plan.expectation);
    const { combined } = session.timeVerification(() => verifyIntent({ ...(expectation ? { expectation } : {}), before: run.start.perception.tree, after: after.perception.tree, delta, unitOutcomes: run.executed.map((unit) => unit.outcome) }));
    session.trace.emit({ type: 'verify-end', step: session.step, outcome: combined.outcome, reason: combined.reason, label: delta.label, by: 'contract', ...(combined.strength ? { strength: combined.strength } : {}), ...(combined.tie ? { tie: combined.tie } : {}) });
    return { outcome: combined.outcome, reason: combined.reason, note: '', by: 'contract', delta, ...(combined.strength ? { strength: combined.strength } : {}) };
  }

  /**
   * The dismiss button of a dialog the app raised on its own (rate this app, update
   * available) that the step does not act on: a surface showing Not now / Later / No thanks
   * / Skip, none of whose units the step's targets name. A step whose targets are on that
   * dialog is the flow's own use of it.
   */
  private dismissableDialog(step: SkillStep): ControlUnit | undefined {
    const perception = this.state.screen.perception;
    const grounded = groundStep(step, this.bindings, perception, this.resolve, this.examples);
    const targets = new Set(grounded.ok ? grounded.items.map((item) => item.unit) : []);
    for (const block of perception.blocks) {
      if (!block.surface || block.units.some((unit) => targets.has(unit))) continue;
      const members = new Set(block.units);
      const dismiss = perception.units.find((unit) => members.has(unit.id) && dismissLabel.test(unit.label.trim()));
      if (dismiss) return dismiss;
    }
    return undefined;
  }

  /** Dismisses such a dialog as a verified round of its own. */
  private async dismissDialog(step: SkillStep): Promise<'none' | 'dismissed' | 'failed'> {
    for (let attempt = 0; attempt <= skillStepRetries; attempt++) {
      const dismiss = this.dismissableDialog(step);
      if (!dismiss) return attempt === 0 ? 'none' : 'failed';
      const { session } = this.context;
      this.startRound();
      const intent = `Dismiss the unexpected dialog ("${dismiss.label}")`;
      const result = await this.execute(intent, 'dismissedSurface', [{ unit: dismiss.id }]);
      this.state.history.push({ intent, outcome: result.outcome.outcome, note: `${skillNotePrefix} ${this.skill.name}: not part of the skill` });
      session.trace.emit({ type: 'step-end', step: session.step });
      if (result.outcome.outcome === 'pass') return 'dismissed';
      if (!result.retry) return 'failed';
    }
    return 'failed';
  }
}
