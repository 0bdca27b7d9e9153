import { AgentSession, type AgentModels, type Screen } from '../agent/agent-session.js';
import { admissibleCommitment } from '../agent/loop/admissible-commitment.js';
import { certifyAndDecide } from '../agent/loop/certify-and-decide.js';
import { executeCommitment } from '../agent/loop/execute-commitment.js';
import { ForegroundGuard } from '../agent/loop/foreground-guard.js';
import { irreversibleAction, type IrreversibleAction } from '../agent/loop/irreversible-action.js';
import type { CommitmentItem, PlanReply } from '../agent/planning/plan-reply.js';
import { newSenseActState, type SenseActContext, type SenseActState } from '../agent/loop/senseact-state.js';
import { verifyCommittedIntent } from '../agent/loop/verify-committed-intent.js';
import { VlmGate } from '../agent/loop/vlm-gate.js';
import type { Device } from '../device/device.js';
import { runSkill, type SkillRunEnd } from '../agent/skill-replay/run-skill.js';
import type { Skill } from '../skills/skill-schema.js';
import type { UiTree } from '../ui/ui-tree.js';
import { pngSize } from '../device/png-size.js';
import type { LanguageModel } from '../model/language-model.js';
import { UsageLedger } from '../model/usage-ledger.js';
import type { ControlUnit } from '../perception/control-unit.js';
import type { PerceptionOptions } from '../perception/perception-options.js';
import { unitPrecondition } from '../perception/unit-precondition.js';
import { describeChanges } from '../report/describe-changes.js';
import type { Task } from '../tasks/task-schema.js';
import { TraceWriter } from '../trace/trace-writer.js';
import { stableHashHex } from '../util/stable-hash.js';
import type { Delta } from '../verify/compute-delta.js';
import { evaluatePredicate } from '../verify/evaluate-predicate.js';
import { pageTitle } from '../verify/page-title.js';
import { parseQuery, safeParsePredicate } from '../verify/parse-predicate.js';
import { PredicateParseError } from '../verify/predicate-parse-error.js';
import { resolveUnit } from '../verify/resolve-unit.js';
import { describeNode } from '../verify/verify-outcome.js';
import type { ActInput, ActOutput, CommitmentItemInput } from './mcp-tool-schemas.js';
import { parsePredicateInput } from './parse-predicate-input.js';
import { screenData, type ScreenData } from './screen-data.js';

export type { ScreenData } from './screen-data.js';

/** How a session is set up (`senseact mcp`'s options). */
export interface McpDeviceSessionOptions {
  readonly device: Device;
  /** Apps the session may act in (`--allow`); empty: any app. */
  readonly allow: readonly string[];
  /** Where the session's run folder goes: `<traceRoot>/mcp/session/<run-id>/`. */
  readonly traceRoot: string;
  readonly perception?: PerceptionOptions;
  /** Words besides the built-in ones that mark an action as one that cannot be undone (a profile's `irreversible`). */
  readonly irreversibleWords?: readonly string[];
  /** Run actions that cannot be undone without asking (`--allow-irreversible`). */
  readonly allowIrreversible?: boolean;
  /** A vision model for the gate, when one is configured (acts never call a planner). */
  readonly vision?: AgentModels['vision'];
}


/** Asks a person to confirm actions that cannot be undone: true runs them, false declines; undefined when nobody can be asked. */
export type ConfirmActions = ((actions: readonly IrreversibleAction[]) => Promise<boolean>) | undefined;

/** Acts never plan: a planner call would be a bug, and says so. */
const noPlanner: LanguageModel = {
  provider: 'none (senseact mcp: the calling agent plans)',
  modelName: () => 'none',
  generate: () => Promise.reject(new Error('senseact mcp: a device tool asked for a planner; acts are planned by the calling agent (this is a bug)')),
};

/** A session-long budget: the step budget of the loop's rules never ends an MCP session. */
const sessionStepBudget = 1_000_000;

/**
 * One device session behind the MCP tools: it stays open across calls (the simulator keeps
 * its state), and every act runs the loop's own phases on the last observed screen —
 * admissibility, the foreground guard, execute and verify unit by unit (`executeCommitment`),
 * the intent's verdict (`verifyCommittedIntent`) and the surface rules (`certifyAndDecide`) —
 * so its verdict is the loop's for the same commitment. Writes one run folder.
 */
export class McpDeviceSession {
  readonly trace: TraceWriter;
  private readonly session: AgentSession;
  private readonly context: SenseActContext;
  private state: SenseActState | undefined;
  private screenshots = 0;
  private previous: Screen | undefined;

  constructor(private readonly options: McpDeviceSessionOptions) {
    this.trace = new TraceWriter({ root: options.traceRoot, suite: 'mcp', task: 'session' });
    this.session = new AgentSession(options.device, { planner: noPlanner, ...(options.vision ? { vision: options.vision } : {}) }, new UsageLedger(), this.trace, options.perception ?? {});
    const app = options.allow[0] ?? 'android';
    const task: Task = {
      id: 'mcp-session', app, instruction: 'actions of an MCP client', source: { benchmark: 'senseact' }, start: {},
      allowedPackages: options.allow.length > 0 ? [...options.allow] : [app], stepBudget: sessionStepBudget, tags: ['mcp'], difficulty: 'medium',
    };
    this.context = {
      task,
      session: this.session,
      feedback: true,
      visionAllowed: options.vision !== undefined,
      visionEveryPlan: false,
      guard: new ForegroundGuard(task, { anyApp: options.allow.length === 0 }),
      gate: new VlmGate(),
    };
  }

  /** The device, for a run or a skill on the same session. */
  get device(): Device {
    return this.options.device;
  }

  /** The allowed apps (empty: any). */
  get allow(): readonly string[] {
    return this.options.allow;
  }

  /** Observes the device now and makes that the screen the next act works on. */
  async observe(options: { units?: boolean; xml?: boolean } = {}): Promise<ScreenData> {
    this.session.step += 1;
    const screen = await this.session.observe('before.xml');
    if (this.state) this.state.screen = screen;
    else this.state = newSenseActState(screen);
    return this.describe(screen, options);
  }

  /** The last observed screen (observing first when nothing was yet). */
  private async current(): Promise<SenseActState> {
    if (!this.state) await this.observe();
    return this.state!;
  }

  /** The screen as the observe tool returns it. */
  describe(screen: Screen, options: { units?: boolean; xml?: boolean } = {}): ScreenData {
    return screenData(screen, this.screenshots, options);
  }

  /** A screenshot of the device now, written to the session's run folder and counted. */
  async screenshot(): Promise<{ png: Uint8Array; width: number; height: number; screenshots: number }> {
    const png = await this.session.screenshot();
    this.screenshots += 1;
    return { png, ...pngSize(png), screenshots: this.screenshots };
  }

  /** Evaluates a predicate on the last observed screen (`screenChanged` and the like against the screen before the last act). */
  async check(text: string): Promise<{ holds: 'true' | 'false' | 'unknown'; reason: string; evidence: string[]; screen: string }> {
    const state = await this.current();
    const predicate = parsePredicateInput(text);
    if (!predicate.success) throw predicate.error;
    const after = state.screen.perception.tree;
    const before = this.previous?.perception.tree;
    const result = evaluatePredicate(predicate.value, before ? { before, after } : { after });
    const holds = result.outcome === 'pass' ? 'true' : result.outcome === 'fail' ? 'false' : 'unknown';
    const evidence = result.evidence.slice(0, 8).map((ref) => {
      const tree = ref.screen === 'before' && before ? before : after;
      const node = tree.nodes[ref.index];
      return `${ref.screen} ${node ? describeNode(node) : `#${ref.index}`}`;
    });
    return { holds, reason: result.reason, evidence, screen: stableHashHex(state.screen.xml) };
  }

  /**
   * Runs one commitment on the last observed screen, the loop's way: targets resolved,
   * admissibility and the guard checked, actions that cannot be undone confirmed through
   * `confirm` (or refused), then execute, verify and decide the surface. A refusal runs
   * nothing. Throws only for device failures.
   */
  async act(input: ActInput, confirm: ConfirmActions): Promise<ActOutput> {
    const state = await this.current();
    const screen = state.screen;
    const refuse = (refusal: NonNullable<ActOutput['refusal']>, reason: string): ActOutput => ({ verdict: 'refused', refusal, reason, units: [], change: [], after: this.describe(screen) });
    if (input.expect !== undefined && input.expect.trim() !== '') {
      const parsed = safeParsePredicate(input.expect);
      if (!parsed.success) return refuse('bad-expectation', `expect is not a predicate (docs/predicates.md): ${parsed.error.message}`);
    }
    const resolved = resolveItems(input.commitment, screen);
    if ('problem' in resolved) return refuse('unknown-target', resolved.problem);
    const items = resolved.items;
    const packageName = screen.perception.tree.packageName;
    if (!this.context.guard.allows(packageName) && items.some((item) => !item.unit.startsWith('nav-'))) {
      return refuse('outside-allowed-apps', `the foreground app ${packageName} is outside the allowed apps (${this.options.allow.join(', ')}): use nav-back, nav-home or nav-launch with an allowed package`);
    }
    this.session.step += 1;
    this.trace.emit({ type: 'step-start', step: this.session.step });
    try {
      const admitted = admissibleCommitment(this.context, items, screen, state.verified, state.learnedEdges);
      if (!admitted.ok) return refuse(admitted.guard ? 'outside-allowed-apps' : 'inadmissible', admitted.reason);
      const irreversible = admitted.units.flatMap((unit) => irreversibleAction(unit, screen.perception, this.options.irreversibleWords) ?? []);
      if (irreversible.length > 0 && this.options.allowIrreversible !== true) {
        const what = irreversible.map((action) => `${action.type} "${action.label}" (${action.reason})`).join(', ');
        if (!confirm) return refuse('irreversible', `${what} cannot be undone; the client cannot ask a person (no elicitation): refused. Start the server with --allow-irreversible to allow such actions.`);
        if (!(await confirm(irreversible))) return refuse('declined', `${what}: the person declined; nothing was done`);
      }
      return await this.execute(state, input, items, admitted.units);
    } finally {
      this.trace.emit({ type: 'step-end', step: this.session.step });
    }
  }

  private async execute(state: SenseActState, input: ActInput, items: CommitmentItem[], units: ControlUnit[]): Promise<ActOutput> {
    const plan: PlanReply = { intent: input.intent ?? describeCommitment(units), expectation: input.expect ?? '', commitment: items, finish: false };
    this.trace.writeStepArtifact(this.session.step, 'view.txt', state.screen.perception.view);
    const run = await executeCommitment(this.context, state, plan, items, units);
    this.previous = run.start;
    const executed = run.executed.map((unit) => ({
      unit: unit.unit.id as string, type: unit.unit.type, label: unit.unit.label, verdict: unit.outcome.outcome, reason: unit.outcome.reason,
      ...(unit.outcome.strength ? { strength: unit.outcome.strength } : {}),
    }));
    if (run.executed.length === 0) {
      return { verdict: 'refused', refusal: 'inadmissible', reason: run.unfinished || 'nothing ran', units: [], change: [], after: this.describe(state.screen) };
    }
    const judgement = await verifyCommittedIntent(this.context, plan, run);
    const surface = await certifyAndDecide(this.context, state, plan, run, judgement);
    const after = state.screen;
    const left = this.context.guard.allows(after.perception.tree.packageName) ? '' : `; the foreground left the allowed apps (${after.perception.tree.packageName})`;
    const { delta } = judgement;
    return {
      verdict: judgement.outcome,
      reason: `${judgement.reason}${left}`,
      ...(judgement.strength ? { strength: judgement.strength } : {}),
      units: executed,
      change: changeInWords(delta, run.start.perception.tree, after.perception.tree),
      delta: { label: delta.label, screenChanged: delta.screenChanged, newSurface: delta.newSurface, dismissedSurface: delta.dismissedSurface },
      surface: { decision: surface.decision, rule: surface.rule },
      ...(run.unfinished ? { unfinished: run.unfinished } : {}),
      after: this.describe(after),
    };
  }

  /** The tree of the last observed screen, if any. */
  lastTree(): UiTree | undefined {
    return this.state?.screen.perception.tree;
  }

  /**
   * Matches `instruction` to a skill on the current screen and replays it with the loop's
   * verified replay (`runSkill`), no model; the foreground app is the skill's app.
   */
  async runSkill(skills: readonly Skill[], instruction: string): Promise<SkillRunEnd> {
    const state = await this.current();
    const app = state.screen.perception.tree.packageName;
    const context: SenseActContext = { ...this.context, task: { ...this.context.task, instruction, app } };
    const end = await runSkill(context, state, skills);
    this.session.step += end.rounds;
    return end;
  }

  /** Closes the session's run folder (the device is the caller's). */
  async close(): Promise<void> {
    await this.trace.close();
  }
}

/** Lines of the change shown at most. */
const maxChangeLines = 12;

/** The change in words: a new page by its title (the removed rows of the old one say nothing), else the delta's changes, state flips first. */
function changeInWords(delta: Delta, before: UiTree, after: UiTree): string[] {
  if (delta.label === 'new-page') {
    const title = pageTitle(after);
    return [`new page${title ? ` "${title}"` : ''} (${after.packageName} ${after.activity})`.replace(/ \)$/, ')')];
  }
  return describeChanges(delta.changes, before, after).slice(0, maxChangeLines).map((line) => line.text);
}

/** `click "Save", fill "Title"`: an intent in words when the client gave none. */
function describeCommitment(units: readonly ControlUnit[]): string {
  return units.map((unit) => `${unit.type} "${unit.label}"`).join(', ');
}

/**
 * The commitment with every target query resolved to a unit id on `screen`, as the oracle
 * resolves reference targets: units the view's row budget hides are left out, and the
 * first item prefers a unit whose typed preconditions hold (enabled, uncovered, on screen).
 */
export function resolveItems(inputs: readonly CommitmentItemInput[], screen: Screen): { items: CommitmentItem[] } | { problem: string } {
  const { perception } = screen;
  const hidden = new Set(perception.plannerView.hiddenUnits);
  const items: CommitmentItem[] = [];
  for (const [index, input] of inputs.entries()) {
    const { unit, target, select, ...args } = input;
    let id = unit;
    if (id === undefined) {
      if (target === undefined) return { problem: `commitment[${index}] names neither a unit nor a target: give "unit" (an id from the view) or "target" (a query)` };
      let query;
      try {
        query = parseQuery(target);
      } catch (error) {
        if (!PredicateParseError.isInstance(error)) throw error;
        return { problem: `commitment[${index}].target is not a query (docs/predicates.md): ${error.message}` };
      }
      const found = resolveUnit(query, perception);
      const shown = found.units.filter((candidate) => !hidden.has(candidate.id));
      const wanted = input.direction !== undefined ? shown.find((candidate) => candidate.type === 'scroll') : undefined;
      const chosen = wanted ?? (index === 0 ? shown.find((candidate) => unitPrecondition(candidate) === undefined) : undefined) ?? shown[0];
      if (!chosen) return { problem: `commitment[${index}].target ${target} names no unit on this screen (${found.problem ?? 'its units are not in the view'})` };
      id = chosen.id;
    }
    // Choosing an option that perception typed as a toggle (AM / PM) means: checked, never unchecked.
    const chosenToggle = select === true && args.checked === undefined && perception.units.find((candidate) => candidate.id === id)?.type === 'toggle';
    items.push({ unit: id, ...Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined)), ...(chosenToggle ? { checked: true } : {}) });
  }
  return { items };
}
