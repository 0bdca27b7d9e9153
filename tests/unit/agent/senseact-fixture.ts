// A SenseAct context and state on the in-process simulator with scripted models, for the
// phase tests: one task, one device, one trace folder; events read back from the trace.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { AgentSession } from '../../../src/agent/agent-session.js';
import { certifyAndDecide } from '../../../src/agent/loop/certify-and-decide.js';
import { executeCommitment } from '../../../src/agent/loop/execute-commitment.js';
import { planReplySchema } from '../../../src/agent/planning/plan-reply.js';
import { verifyCommittedIntent } from '../../../src/agent/loop/verify-committed-intent.js';
import { ForegroundGuard } from '../../../src/agent/loop/foreground-guard.js';
import { newSenseActState, type SenseActContext, type SenseActState } from '../../../src/agent/loop/senseact-state.js';
import { VlmGate } from '../../../src/agent/loop/vlm-gate.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import type { CertificateMemory } from '../../../src/memory/certificate-memory.js';
import type { LanguageModelRequest } from '../../../src/model/language-model.js';
import type { ScriptedVisionModel } from '../../../src/model/scripted-language-model.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import { UsageLedger } from '../../../src/model/usage-ledger.js';
import type { FaultConfig, Simulator } from '../../../src/sim/index.js';
import type { Task } from '../../../src/tasks/task-schema.js';
import { TraceWriter } from '../../../src/trace/trace-writer.js';
import { scratchFolder } from '../../helpers/scratch-folder.js';

/** A task of the sim suite by id. */
export { simSuiteTask as suiteTask } from '../../helpers/sim-suite.js';

/** The fixtures' trace writers: their artifact writes finish before the folder is removed. */
const writers: TraceWriter[] = [];
const root = scratchFolder('senseact-phases-', () => Promise.allSettled(writers.map((writer) => writer.settled())));

export interface PhaseFixture {
  readonly context: SenseActContext;
  readonly state: SenseActState;
  readonly simulator: Simulator;
  readonly device: SimDevice;
  /** The trace events written so far. */
  events(): Array<Record<string, unknown> & { type: string }>;
}

/** Scripted models that fail the test when called without a script. */
export interface FixtureModels {
  readonly planner?: ScriptedLanguageModel;
  readonly vision?: ScriptedVisionModel;
  readonly verifier?: ScriptedLanguageModel;
}

let runs = 0;

/** A context and a fresh state on the task's first screen (observed through the session, step 1). */
export async function phaseFixture(task: Task, options: { models?: FixtureModels; faults?: FaultConfig; feedback?: boolean; visionAllowed?: boolean; memory?: CertificateMemory; seed?: number } = {}): Promise<PhaseFixture> {
  const simulator = simulatorForTask(task, { seed: options.seed ?? 7, ...(options.faults ? { faults: options.faults } : {}) });
  const device = new SimDevice(simulator);
  const trace = new TraceWriter({ root, suite: 'phases', task: task.id, runId: `run-${runs++}` });
  writers.push(trace);
  const planner = options.models?.planner ?? new ScriptedLanguageModel({ replies: [] });
  const models = { planner, ...(options.models?.verifier ? { verifier: options.models.verifier } : {}), ...(options.models?.vision ? { vision: options.models.vision } : {}) };
  const session = new AgentSession(device, models, new UsageLedger(), trace);
  session.step = 1;
  const state = newSenseActState(await session.observe('before.xml'));
  const context: SenseActContext = {
    task,
    session,
    feedback: options.feedback ?? true,
    visionAllowed: options.visionAllowed ?? options.models?.vision !== undefined,
    visionEveryPlan: false,
    guard: new ForegroundGuard(task),
    gate: new VlmGate(),
    ...(options.memory ? { memory: options.memory } : {}),
  };
  // The writer batches events until a step ends: flush before reading mid-run.
  const events = () => {
    trace.flush();
    return readFileSync(path.join(trace.dir, 'trace.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown> & { type: string });
  };
  return { context, state, simulator, device, events };
}

/** The unit id the view gives a label (`[n3a5d] click "Display"`), from a request's messages. */
export function unitIdIn(request: { messages: readonly { content: string }[] } | LanguageModelRequest, label: string): string {
  const text = request.messages.map((message) => message.content).join('\n');
  const match = new RegExp(`\\[(n[0-9a-f]+)\\] [a-z-]+ "${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`).exec(text);
  if (!match?.[1]) throw new Error(`no unit labelled "${label}" in:\n${text}`);
  return match[1];
}

/** The unit on the state's screen with this label. */
export function unitLabelled(state: SenseActState, label: string) {
  const unit = state.screen.perception.units.find((candidate) => candidate.label === label);
  if (!unit) throw new Error(`no unit labelled "${label}" on the screen:\n${state.screen.perception.view}`);
  return unit;
}

/** Taps `label` as the intent `Open <label>` (or `intent`) and runs verify, certify and decide on it. */
export async function tapAndDecide(fixture: PhaseFixture, label: string, intent = `Open ${label}`) {
  const unit = unitLabelled(fixture.state, label);
  const plan = planReplySchema.parse({ intent, expectation: '', commitment: [{ unit: unit.id }] });
  const run = await executeCommitment(fixture.context, fixture.state, plan, plan.commitment, [unit]);
  const judgement = await verifyCommittedIntent(fixture.context, plan, run);
  const surface = await certifyAndDecide(fixture.context, fixture.state, plan, run, judgement);
  return { unit, surface, judgement };
}
