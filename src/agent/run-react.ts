import { generateStructured } from '../model/generate-structured.js';
import type { Task } from '../tasks/task-schema.js';
import { reactMessages } from './agent-prompts.js';
import type { AgentSession } from './agent-session.js';
import type { OracleGuide } from './oracle-guide.js';
import { reactReplySchema } from './plan-reply.js';
import type { AgentRunEnd } from './run-senseact.js';
import { systemPackages } from './run-senseact.js';
import { unitActions } from './unit-actions.js';

export interface ReactOptions {
  readonly task: Task;
  /** `react-vlm`: a screenshot and the tree to the vision model every step; `react-text`: the tree only. */
  readonly mode: 'react-vlm' | 'react-text';
  readonly session: AgentSession;
  readonly oracle?: OracleGuide;
}

/**
 * The ReAct baselines (DESIGN.md §7): one action per step, chosen from the current screen,
 * with no declared effects, no verification and no gate. `react-vlm` is the
 * screenshot-every-step agent the VLM reduction rate is measured against.
 */
export async function runReact(options: ReactOptions): Promise<AgentRunEnd> {
  const { task, mode, session, oracle } = options;
  const model = mode === 'react-vlm' ? session.vision : session.planner;
  if (!model) throw new Error('react-vlm needs a vision model: configure SENSEACT_VISION_MODEL or use the oracle policy.');
  const allowed = new Set([...task.allowedPackages, ...systemPackages]);
  const previous: string[] = [];
  let steps = 0;
  session.step = 0;
  let screen = await session.observe('before.xml');
  for (let round = 1; round <= task.stepBudget * 2 && steps < task.stepBudget; round++) {
    session.step = round;
    session.trace.emit({ type: 'step-start', step: round });
    session.trace.writeStepArtifact(round, 'view.txt', screen.perception.view);
    const started = performance.now();
    const png = mode === 'react-vlm' ? await session.screenshot() : undefined;
    oracle?.setScreen(screen.perception);
    const reply = await generateStructured(model, {
      role: 'planner',
      schema: reactReplySchema,
      schemaName: 'ReactReply',
      messages: reactMessages({ instruction: task.instruction, allowedPackages: task.allowedPackages, view: screen.perception.view, previous, ...(png ? { png } : {}) }),
      ...(session.signal ? { signal: session.signal } : {}),
      instructJson: false,
    });
    const { action, finish, answer, thought } = reply.value;
    session.trace.emit({ type: 'plan-end', step: round, latencyMs: performance.now() - started, intent: finish ? 'FINISH' : thought || 'act', finish, attempts: reply.attempts });
    if (finish || action === null) {
      return { finished: true, stopReason: 'the model said FINISH', steps, finalScreen: screen, verification: { pass: 0, fail: 0, inconclusive: 0 }, gateReasons: {}, ...(answer === undefined ? {} : { answer }) };
    }
    const unit = screen.perception.units.find((candidate) => candidate.id === action.unit);
    const launchRefused = action.unit === 'nav-launch' && action.value !== undefined && !allowed.has(action.value);
    const mapped = unit ? unitActions(unit, action) : { problem: `unit "${action.unit}" is not on this screen` };
    if (!unit || launchRefused || 'problem' in mapped) {
      const problem = launchRefused ? `launching ${action.value} is outside the allowed apps` : 'problem' in mapped ? mapped.problem : 'invalid action';
      previous.push(`${JSON.stringify(action)} → refused: ${problem}`);
      session.trace.emit({ type: 'commitment-end', step: round, admissible: false, units: [action], reason: problem });
      continue;
    }
    session.trace.emit({ type: 'commitment-end', step: round, admissible: true, units: [action] });
    const refused = await session.act(mapped, unit.id);
    steps += 1;
    previous.push(`${unit.type} ${JSON.stringify(unit.label)}${action.value !== undefined ? ` value=${JSON.stringify(action.value)}` : ''}${refused === undefined ? '' : ` → refused by the device: ${refused}`}`);
    screen = await session.observe('after.xml');
    session.trace.emit({ type: 'step-end', step: round, latencyMs: performance.now() - started });
  }
  return { finished: false, stopReason: `step budget of ${task.stepBudget} used up`, steps, finalScreen: screen, verification: { pass: 0, fail: 0, inconclusive: 0 }, gateReasons: {} };
}
