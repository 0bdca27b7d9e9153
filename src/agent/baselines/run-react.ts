import { generateStructured } from '../../model/generate-structured.js';
import { modelStopReason } from '../model-stop-reason.js';
import { describeRepairs } from '../../model/reply-repair.js';
import type { Task } from '../../tasks/task-schema.js';
import { reactMessages } from '../prompts/agent-prompts.js';
import type { AgentSession } from '../agent-session.js';
import { reactReplySchema } from '../planning/plan-reply.js';
import { ForegroundGuard } from '../loop/foreground-guard.js';
import type { AgentRunEnd } from '../loop/run-senseact.js';
import { unitActions } from '../loop/unit-actions.js';
import { SenseActAgentError } from '../senseact-agent-error.js';
import { maxRefusedPlansInARow } from '../planning/plan-intent.js';

export interface ReactOptions {
  readonly task: Task;
  /** `react-vlm`: a screenshot and the tree to the vision model every step; `react-text`: the tree only. */
  readonly mode: 'react-vlm' | 'react-text';
  readonly session: AgentSession;
  /** Keeps the run inside the task's allowed apps; `runTask` passes its own to read what was left. */
  readonly guard?: ForegroundGuard;
}

/**
 * The ReAct baselines (docs/architecture.md §6): one action per step, chosen from the current screen,
 * with no declared effects, no verification and no gate. `react-vlm` is the
 * screenshot-every-step agent the VLM reduction rate is measured against.
 */
export async function runReact(options: ReactOptions): Promise<AgentRunEnd> {
  const { task, mode, session } = options;
  const model = mode === 'react-vlm' ? session.vision : session.planner;
  if (!model) throw new SenseActAgentError({ code: 'agent-no-vision-model', message: `${mode} needs a vision model: configure SENSEACT_VISION_MODEL, or use the oracle policy.` });
  const guard = options.guard ?? new ForegroundGuard(task);
  const previous: string[] = [];
  let steps = 0;
  let refusedInARow = 0;
  session.step = 0;
  let screen = await session.observe('before.xml');
  const ended = (finished: boolean, stopReason: string, answer?: string): AgentRunEnd => ({ finished, stopReason, steps, finalScreen: screen, verification: { pass: 0, fail: 0, inconclusive: 0 }, gateReasons: {}, ...(answer === undefined ? {} : { answer }) });
  try {
    for (let round = 1; round <= task.stepBudget * 2 && steps < task.stepBudget; round++) {
      session.step = round;
      session.trace.emit({ type: 'step-start', step: round });
      // The baselines get no screen outside the allowed apps either: the guard leaves it first.
      const left = await guard.leaveDisallowed(session, screen);
      if (left) {
        previous.push(`(left ${left.packageName}: not an allowed app)`);
        screen = left.screen;
        continue;
      }
      session.trace.writeStepArtifact(round, 'view.txt', screen.perception.view);
      const started = performance.now();
      const png = mode === 'react-vlm' ? await session.screenshot() : undefined;
      const reply = await generateStructured(model, {
        role: 'planner',
        schema: reactReplySchema,
        schemaName: 'ReactReply',
        messages: reactMessages({ instruction: task.instruction, allowedPackages: task.allowedPackages, view: screen.perception.view, previous, ...(png ? { png } : {}) }),
        ...(session.signal ? { signal: session.signal } : {}),
        instructJson: false,
      });
      const { action, finish, answer, thought } = reply.value;
      session.trace.emit({ type: 'plan-end', step: round, latencyMs: performance.now() - started, intent: finish ? 'FINISH' : thought || 'act', finish, attempts: reply.attempts, ...(reply.repairs.length > 0 ? { repairs: describeRepairs(reply.repairs) } : {}) });
      if (finish || action === null) {
        return ended(true, 'the model said FINISH', answer);
      }
      const unit = screen.perception.units.find((candidate) => candidate.id === action.unit);
      const refusal = unit ? guard.refusal(unit, action, screen) : undefined;
      if (refusal !== undefined) guard.traceRefusal(session, screen.perception.tree.packageName, refusal);
      const mapped = unit ? unitActions(unit, action) : { problem: `unit "${action.unit}" is not on this screen` };
      if (!unit || refusal !== undefined || 'problem' in mapped) {
        const problem = refusal ?? ('problem' in mapped ? mapped.problem : 'invalid action');
        previous.push(`${JSON.stringify(action)} → refused: ${problem}`);
        session.trace.emit({ type: 'commitment-end', step: round, admissible: false, units: [action], reason: problem });
        refusedInARow += 1;
        if (refusedInARow >= maxRefusedPlansInARow) return ended(false, `the model's plans were refused ${refusedInARow} times in a row: ${problem}`);
        continue;
      }
      refusedInARow = 0;
      session.trace.emit({ type: 'commitment-end', step: round, admissible: true, units: [action] });
      const refused = await session.act(mapped, unit.id);
      steps += 1;
      previous.push(`${unit.type} ${JSON.stringify(unit.label)}${action.value !== undefined ? ` value=${JSON.stringify(action.value)}` : ''}${refused === undefined ? '' : ` → refused by the device: ${refused}`}`);
      screen = await session.observe('after.xml');
      session.trace.emit({ type: 'step-end', step: round, latencyMs: performance.now() - started });
    }
  } catch (error) {
    // A spent model budget or a model with no usable reply ends the run as the model's failure; the task's check still judges the screen it left.
    const stopped = modelStopReason(error);
    if (stopped !== undefined) return { ...ended(false, stopped), modelStopped: true };
    throw error;
  }
  return ended(false, steps >= task.stepBudget ? `step budget of ${task.stepBudget} used up` : `${task.stepBudget * 2} rounds used up with ${steps} step(s) taken (the others refused or left a disallowed app)`);
}
