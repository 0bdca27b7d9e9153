import { TransitionMemory } from '../verify/transition-memory.js';
import { PageTrail } from '../verify/page-trail.js';
import type { DeviceAction } from '../device/device-action.js';
import { DeviceError } from '../device/device-error.js';
import type { Device } from '../device/device.js';
import type { LanguageModel } from '../model/language-model.js';
import { MeteredLanguageModel, MeteredVisionModel } from '../model/metered-language-model.js';
import type { ModelCallRecord } from '../model/model-call-record.js';
import type { ModelRole } from '../model/model-role.js';
import { describeRepairs, type ReplyRead } from '../model/reply-repair.js';
import type { UsageLedger } from '../model/usage-ledger.js';
import type { VisionModel } from '../model/vision-model.js';
import { perceive, type Perception } from '../perception/perceive.js';
import type { PerceptionOptions } from '../perception/perception-options.js';
import { join } from 'node:path';
import { stepFolder, type TraceWriter } from '../trace/trace-writer.js';
import { parseHierarchy } from '../ui/parse-hierarchy.js';
import { passwordPlaceholder } from '../util/redactor.js';
import { OperationCounter } from './operation-counter.js';

/** Latency buckets of docs/architecture.md §6, in milliseconds. */
export interface LatencyTotals {
  deviceMs: number;
  perceptionMs: number;
  modelMs: number;
  verificationMs: number;
}

/** One observed screen as the agent holds it. */
export interface Screen {
  readonly xml: string;
  readonly perception: Perception;
}

/** The models a run may use; each is wrapped for accounting and tracing by the session. */
export interface AgentModels {
  readonly planner: LanguageModel;
  readonly verifier?: LanguageModel;
  readonly vision?: VisionModel;
  /** Compresses what the memories learned (the app map); without it the deterministic map is used as it is. */
  readonly certifier?: LanguageModel;
  /** Judges a query task's answer once the run ends (`ModelAnswerJudge`); metered with the run, never refused by its budget. */
  readonly judge?: LanguageModel;
}

/**
 * What every agent mode shares within one task run: the device, the metered models, the
 * trace, the latency buckets and the current step. Observing goes through `observe`, so
 * the device time and the perception time are always accounted and the XML written.
 */
export class AgentSession {
  readonly latency: LatencyTotals = { deviceMs: 0, perceptionMs: 0, modelMs: 0, verificationMs: 0 };
  readonly planner: LanguageModel;
  readonly verifier: LanguageModel | undefined;
  readonly vision: VisionModel | undefined;
  readonly certifier: LanguageModel | undefined;
  /** The answer judge's model, metered (its calls count in the run's usage and trace) but outside the run's budget: the task's check must run. */
  readonly judge: LanguageModel | undefined;
  step = 0;
  llmCalls = 0;
  /** Calls of the planner role (inside `llmCalls`, or `vlmCalls` when the planner gets a screenshot). */
  plannerCalls = 0;
  private readonly lastWritten = new Map<string, string>();
  /** The screen last observed: the one the next action's unit comes from. */
  private lastScreen: Screen | undefined;
  /** The step whose `after.xml` was observed last (a screenshot then shows that step's after screen). */
  private afterObservedAt: number | undefined;
  vlmCalls = 0;
  /** The agent's own operations and how many changed the screen (the guard's recoveries are not the agent's). */
  readonly operations = new OperationCounter();
  /** The run's verified transitions: a weak pass on a control that led from the same page to the same page before is strong. */
  readonly transitions = new TransitionMemory();
  /** The last whole page a unit was acted on: the page under a dialog that the device dumps alone. */
  readonly pages = new PageTrail();

  constructor(
    readonly device: Device,
    models: AgentModels,
    readonly ledger: UsageLedger,
    readonly trace: TraceWriter,
    private readonly perceptionOptions: PerceptionOptions = {},
    readonly signal?: AbortSignal,
    /** Runs before every model call and may refuse it by throwing (the run's budget, `ModelBudgetError`). */
    beforeModelCall?: () => void,
  ) {
    const onCall = (record: ModelCallRecord): void => this.recordCall(record);
    const onReplyRead = (role: ModelRole, read: ReplyRead): void => {
      if (read.valid && read.repairs.length > 0) this.trace.emit({ type: 'reply-repaired', step: this.step, role, repairs: describeRepairs(read.repairs) });
    };
    const metering = { ledger, onCall, onReplyRead, ...(beforeModelCall ? { beforeCall: beforeModelCall } : {}) };
    this.planner = this.timed(new MeteredLanguageModel(models.planner, metering));
    this.verifier = models.verifier ? this.timed(new MeteredLanguageModel(models.verifier, metering)) : undefined;
    this.vision = models.vision ? this.timed(new MeteredVisionModel(models.vision, metering)) : undefined;
    this.certifier = models.certifier ? this.timed(new MeteredLanguageModel(models.certifier, metering)) : undefined;
    this.judge = models.judge ? new MeteredLanguageModel(models.judge, { ledger, onCall, onReplyRead }) : undefined;
  }

  /**
   * Counts the wall time of every model call as model time: what a remote model reports,
   * and what a local stand-in (scripted, oracle) spends computing its reply.
   */
  private timed<Model extends LanguageModel | VisionModel>(model: Model): Model {
    const generate = model.generate.bind(model) as (request: never) => Promise<unknown>;
    const latency = this.latency;
    return Object.assign(Object.create(model) as Model, {
      async generate(request: never) {
        const started = performance.now();
        try {
          return await generate(request);
        } finally {
          latency.modelMs += performance.now() - started;
        }
      },
    });
  }

  private recordCall(record: ModelCallRecord): void {
    const artifact = this.trace.writeModelCall(this.step, record);
    const isVision = record.images > 0;
    if (isVision) this.vlmCalls += 1;
    else this.llmCalls += 1;
    if (record.role === 'planner') this.plannerCalls += 1;
    // The metered model entered this call in the ledger just before calling us.
    const last = this.ledger.entries.at(-1);
    if (!last) throw new Error('AgentSession: a model call was reported before the ledger entered it');
    const { estimated: _estimated, failed: _failed, ...entry } = last;
    const payload = { step: this.step, ...entry, artifact, ...(record.error === undefined ? {} : { error: record.error.message }) };
    this.trace.emit(isVision ? { type: 'vlm-call-end', ...payload } : { type: 'model-call-end', ...payload });
  }

  /** Observes the device (after it settles), parses and perceives; writes `<name>.xml` and the view. */
  async observe(artifact: 'before.xml' | 'after.xml'): Promise<Screen> {
    const observation = await this.device.observe(this.signal ? { signal: this.signal } : {});
    this.latency.deviceMs += observation.latencyMs;
    const started = performance.now();
    const tree = parseHierarchy(observation.xml, { packageName: observation.packageName, activity: observation.activity, ...(observation.activityStack ? { activityStack: observation.activityStack } : {}), sourceName: `step ${this.step} ${artifact}` });
    const perception = perceive(tree, this.perceptionOptions);
    const perceptionMs = performance.now() - started;
    this.latency.perceptionMs += perceptionMs;
    // Re-observing an unchanged screen (settle, a late effect) need not rewrite the same file.
    const key = `${this.step}/${artifact}`;
    const path = this.lastWritten.get(key) === observation.xml ? join(stepFolder(this.step), artifact) : this.trace.writeStepArtifact(this.step, artifact, observation.xml);
    this.lastWritten.clear();
    this.lastWritten.set(key, observation.xml);
    this.afterObservedAt = artifact === 'after.xml' ? this.step : undefined;
    this.trace.emit({ type: 'observe-end', step: this.step, packageName: observation.packageName, activity: observation.activity, ...(observation.activityStack ? { activityStack: [...observation.activityStack] } : {}), latencyMs: observation.latencyMs, polls: observation.polls, settled: observation.settled, artifact: path });
    this.trace.emit({ type: 'perceive-end', step: this.step, latencyMs: perceptionMs, nodes: tree.nodes.length, keptNodes: perception.nodes.length, units: perception.units.length, blocks: perception.blocks.length });
    this.lastScreen = { xml: observation.xml, perception };
    this.operations.observed(tree);
    return this.lastScreen;
  }

  /**
   * Performs device actions in order, accounting device time and tracing each. Stops at a
   * command the device refuses in this UI state (typing with no field focused after a lost
   * tap): that is the action failing, not the infrastructure, so it returns the refusal
   * instead of throwing. Every other failure throws.
   */
  async act(actions: readonly DeviceAction[], unitId?: string): Promise<string | undefined> {
    // Text typed into a password field is a secret from here on, in every file of the run
    // (the planner's reply that held it is rewritten too); the device still gets the value.
    const password = unitId !== undefined && this.lastScreen?.perception.units.find((unit) => unit.id === unitId)?.state.password === true;
    if (password) for (const action of actions) if (action.type === 'type') this.trace.redactor.addPassword(action.text);
    // An action on a unit is the agent's operation; actions without one are the guard's.
    if (unitId !== undefined && actions.length > 0 && this.lastScreen) this.operations.acted(this.lastScreen.perception.tree);
    for (const action of actions) {
      try {
        const result = await this.device.act(action, this.signal ? { signal: this.signal } : {});
        this.latency.deviceMs += result.latencyMs;
        const recorded = password && action.type === 'type' ? { ...action, text: passwordPlaceholder } : action;
        this.trace.emit({ type: 'act-end', step: this.step, action: recorded as unknown as Record<string, unknown>, ...(unitId ? { unitId } : {}), latencyMs: result.latencyMs });
      } catch (error) {
        if (!(DeviceError.isInstance(error) && error.reason === 'command-failed')) throw error;
        this.trace.emit({ type: 'error', step: this.step, message: error.message, name: error.name, code: error.code, where: 'act', infrastructure: false });
        return error.message;
      }
    }
    return undefined;
  }

  /** Takes a screenshot (for the VLM), accounting its device time and writing it to the step folder. */
  async screenshot(): Promise<Uint8Array> {
    const shot = await this.device.screenshot(this.signal ? { signal: this.signal } : {});
    this.latency.deviceMs += shot.latencyMs;
    const artifact = this.trace.writeStepArtifact(this.step, 'screenshot.png', shot.png);
    const of = this.afterObservedAt === this.step ? 'after' : 'before';
    this.trace.emit({ type: 'screenshot-end', step: this.step, artifact, of, width: shot.width, height: shot.height, bytes: shot.png.byteLength, latencyMs: shot.latencyMs });
    return shot.png;
  }

  /** Times a piece of verification work into the verification bucket. */
  timeVerification<T>(work: () => T): T {
    const started = performance.now();
    try {
      return work();
    } finally {
      this.latency.verificationMs += performance.now() - started;
    }
  }
}
