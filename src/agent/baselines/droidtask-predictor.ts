import type { LanguageModel } from '../../model/language-model.js';
import { generateStructured } from '../../model/generate-structured.js';
import type { UnitId } from '../../perception/control-unit.js';
import type { DroidTaskPredictor } from '../../tasks/droidtask/score-droidtask.js';
import { plannerMessages, type HistoryEntry } from '../prompts/agent-prompts.js';
import { planReplySchema } from '../planning/plan-reply.js';

/**
 * DroidTask's offline step mode with the SenseAct planner: for each recorded step the
 * planner sees the step's screen (perceived from the DroidBot state), the task and the
 * recorded history, and its first committed unit is the prediction — `nav-back` is Back,
 * a `fill` with a value is an input, `finish` ends the task. A step without a recorded
 * screen gets no prediction (scored wrong, as DroidTask does).
 */
export function createDroidTaskPredictor(model: LanguageModel, options: { readonly signal?: AbortSignal } = {}): DroidTaskPredictor {
  return async (episode, stepIndex) => {
    const step = episode.steps[stepIndex];
    const perception = step?.screen?.perception;
    if (!step || !perception) return undefined;
    const history: HistoryEntry[] = episode.steps.slice(0, stepIndex).map((done) => ({ intent: done.choiceHtml ?? (done.choice === -1 ? 'finish' : `choice ${done.choice}`), outcome: 'pass', note: done.input ?? '' }));
    const reply = await generateStructured(model, {
      role: 'planner',
      schema: planReplySchema,
      schemaName: 'PlanReply',
      messages: plannerMessages({ instruction: episode.taskName, allowedPackages: [perception.tree.packageName || episode.app], view: perception.view, history, certificates: [] }),
      ...(options.signal ? { signal: options.signal } : {}),
      instructJson: false,
    });
    const plan = reply.value;
    const first = plan.commitment[0];
    if (plan.finish || !first) return { kind: 'finish' };
    if (first.unit === 'nav-back') return { kind: 'back' };
    const unit = perception.units.find((candidate) => candidate.id === first.unit);
    if (!unit) return undefined;
    if (unit.type === 'fill' && first.value !== undefined) return { kind: 'input', unitId: unit.id as UnitId, text: first.value };
    return { kind: 'tap', unitId: unit.id as UnitId };
  };
}
