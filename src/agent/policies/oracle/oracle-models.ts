import type { Device, Observation } from '../../../device/device.js';
import type { DeviceProbe } from '../../../device/device-probe.js';
import { WatchedDevice } from '../../../device/watched-device.js';
import type { LanguageModelRequest } from '../../../model/language-model.js';
import { ScriptedLanguageModel, ScriptedVisionModel } from '../../../model/scripted-language-model.js';
import type { VisionModelRequest } from '../../../model/vision-model.js';
import { perceive, type Perception } from '../../../perception/perceive.js';
import type { PerceptionOptions } from '../../../perception/perception-options.js';
import type { Task } from '../../../tasks/task-schema.js';
import { parseHierarchy } from '../../../ui/parse-hierarchy.js';
import { screenFence } from '../../prompts/screen-fence.js';
import type { AgentModels } from '../../agent-session.js';
import { OracleGuide } from './oracle-guide.js';
import { oracleMetaPlan } from './oracle-meta-plan.js';
import { readPrompt } from '../../prompts/read-prompt.js';

/** The model name every oracle reply reports, so traces and results say what answered. */
export const oracleModelName = 'oracle-reference-solution';

/** How many recent observations the oracle keeps to find the screen a prompt shows. */
const keptObservations = 8;

/** The `oracle` policy: its models, and the read-only watch on the device that lets it see the screens. */
export interface OraclePolicy {
  readonly models: Required<Omit<AgentModels, 'certifier' | 'judge'>>;
  /** The device as the loop should drive it: every call unchanged, every observation also seen by the oracle. */
  watch(device: Device): Device;
}

export interface OraclePolicyOptions {
  /** The ReAct baselines ask for one action per call instead of a plan. */
  readonly react: boolean;
  /** The screen as it really is, for the oracle's vision (the simulator's ground truth). */
  readonly probe?: DeviceProbe;
  /** The perception options the loop uses, so the oracle's units carry the loop's ids. */
  readonly perception?: PerceptionOptions;
}

/**
 * The screens the device returned, newest last, perceived on demand: the oracle's copy
 * of what the loop observed, to find the one a prompt's screen block shows.
 */
class SeenScreens {
  private readonly observations: Observation[] = [];
  private readonly perceived = new Map<Observation, Perception>();

  constructor(private readonly options: PerceptionOptions) {}

  add(observation: Observation): void {
    this.observations.push(observation);
    const dropped = this.observations.splice(0, Math.max(0, this.observations.length - keptObservations));
    for (const old of dropped) this.perceived.delete(old);
  }

  private perception(observation: Observation): Perception {
    let perception = this.perceived.get(observation);
    if (!perception) {
      const tree = parseHierarchy(observation.xml, { packageName: observation.packageName, activity: observation.activity, sourceName: 'oracle copy of an observation' });
      perception = perceive(tree, this.options);
      this.perceived.set(observation, perception);
    }
    return perception;
  }

  /** The newest observed screen whose view renders as `block`. Throws when none does (a prompt shows a screen the device never returned: a bug). */
  find(block: string | undefined): Perception {
    if (block === undefined) throw new Error('oracle: the prompt carries no <screen> block to answer from');
    for (let index = this.observations.length - 1; index >= 0; index--) {
      const perception = this.perception(this.observations[index] as Observation);
      if (screenFence(perception.view) === block) return perception;
    }
    throw new Error(`oracle: the prompt shows a screen none of the last ${this.observations.length} observations renders to`);
  }
}

/**
 * The `oracle` policy as models: scripted models whose replies an {@link OracleGuide}
 * computes from the task's reference solution and the request's own messages — the
 * screen block names the observation it answers on, the intent history says what became
 * of its last plan, the gate prompt says what to look for. The loop sends its real
 * prompts (and screenshots) exactly as to a language model, so calls, images and bytes
 * are counted the same way; token counts are local estimates. Results are oracle
 * results and labelled so.
 */
export function createOraclePolicy(task: Task, options: OraclePolicyOptions): OraclePolicy {
  const guide = new OracleGuide(task);
  // The guide moves on with every answer, so a prompt asked again gets the answer it
  // already had, as from a deterministic model: after an invalid reply (the same first
  // turns, a correction appended) a model asked to fix its format repeats its choice, and
  // the samples of a vote (--vote n) ask the very same prompt n times.
  let answered: { readonly prompt: string; readonly whole: string; readonly reply: Promise<string> } | undefined;
  const answerOnce = (messages: readonly { readonly role: string; readonly content: string }[], answer: () => string | Promise<string>): Promise<string> => {
    const retry = messages.some((message) => message.role === 'assistant');
    const prompt = JSON.stringify(messages.filter((message) => message.role !== 'assistant').slice(0, 2).map((message) => message.content));
    const whole = JSON.stringify(messages.map((message) => [message.role, message.content]));
    if (answered !== undefined && (answered.whole === whole || (retry && answered.prompt === prompt))) return answered.reply;
    const reply = Promise.resolve(answer());
    answered = { prompt, whole, reply };
    return reply;
  };
  const screens = new SeenScreens(options.perception ?? {});
  const groundTruth = async (request: VisionModelRequest) => options.probe?.groundTruth(request.signal ? { signal: request.signal } : {});
  const planner = new ScriptedLanguageModel({
    model: oracleModelName,
    replies: (request: LanguageModelRequest) => (request.responseFormat?.name === 'MetaPlan' ? JSON.stringify(oracleMetaPlan(task)) : answerOnce(request.messages, () => {
      const reading = readPrompt(request.messages);
      const perception = screens.find(reading.screenBlock);
      if (request.role === 'verifier') return JSON.stringify(guide.verify(perception, reading.intent));
      if (options.react) return JSON.stringify(guide.react(perception, false, undefined));
      return JSON.stringify(guide.plan(perception, { history: reading.history, skills: reading.skills, ...(reading.rejection === undefined ? {} : { rejection: reading.rejection }), ...(reading.surface === undefined ? {} : { surface: reading.surface }) }));
    })),
  });
  const vision = new ScriptedVisionModel({
    model: oracleModelName,
    replies: async (request: VisionModelRequest) => answerOnce(request.messages, async () => {
      const reading = readPrompt(request.messages);
      const truth = await groundTruth(request);
      if (request.role === 'vision') return JSON.stringify(guide.vision(reading, truth));
      if (options.react) return JSON.stringify(guide.react(screens.find(reading.screenBlock), true, truth));
      // senseact-vlm-always: the planner's prompt with a screenshot, answered as the planner answers it.
      return JSON.stringify(guide.plan(screens.find(reading.screenBlock), { history: reading.history, skills: reading.skills, ...(reading.rejection === undefined ? {} : { rejection: reading.rejection }) }));
    }),
  });
  return {
    models: { planner, verifier: planner, vision },
    watch: (device) => new WatchedDevice(device, (observation) => screens.add(observation)),
  };
}
