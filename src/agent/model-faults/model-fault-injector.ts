import type { LanguageModel, ModelReply, ModelRequest, TextMessage } from '../../model/language-model.js';
import type { ModelRole } from '../../model/model-role.js';
import type { VisionMessage, VisionModel } from '../../model/vision-model.js';
import { SeededRandom } from '../../util/seeded-random.js';
import type { AgentModels } from '../agent-session.js';
import { modelFaultKinds, type ModelFaultConfig, type ModelFaultKind } from './model-fault-profile.js';
import { lookForUnit } from '../planning/plan-reply.js';
import { readPrompt } from '../prompts/read-prompt.js';

/** One injected model error. */
export interface ModelFault {
  readonly kind: ModelFaultKind;
  readonly role: ModelRole;
  /** What was changed, e.g. `unit n3f2a → n9c1e`. */
  readonly detail: string;
}

/** Unit ids on the screen block of a prompt (`[n3f2a] toggle "Wi-Fi"`), in order. */
const unitLinePattern = /^\s*\[([^\]\s,]+)\] /gm;

/** Pseudo units a plan may name that are on every screen. */
const pseudoUnits = new Set(['nav-back', 'nav-home', 'nav-launch', 'finish', lookForUnit]);

/** Told of every fault as it is injected (the run's trace records it); it cannot change the reply. */
export type ModelFaultListener = (fault: ModelFault) => void;

/** Replies that are not JSON: what a model writes when it forgets the format or is cut off. */
const garbage = [
  'I will tap the button that matches the task.',
  '{"intent": "Open the next screen", "commitment": [{"unit": ',
  'Sorry, I cannot see the screen clearly. Could you describe it?',
];

type Json = Record<string, unknown>;

/** The unit a reply names, and how to give it another: a plan's first real item, a ReAct action, a gate answer. */
function namedUnit(reply: Json): { readonly unit: string; set(unit: string): Json } | undefined {
  const commitment = reply['commitment'];
  if (Array.isArray(commitment)) {
    const index = commitment.findIndex((item: unknown) => typeof (item as Json | null)?.['unit'] === 'string' && !pseudoUnits.has((item as Json)['unit'] as string));
    if (reply['finish'] === true || index < 0) return undefined;
    const item = commitment[index] as Json;
    return { unit: item['unit'] as string, set: (unit) => ({ ...reply, commitment: commitment.map((other: unknown, at) => (at === index ? { ...item, unit } : other)) }) };
  }
  const action = reply['action'] as Json | null | undefined;
  if (action && typeof action['unit'] === 'string' && !pseudoUnits.has(action['unit'])) {
    return { unit: action['unit'], set: (unit) => ({ ...reply, action: { ...action, unit } }) };
  }
  if ('alreadyDone' in reply && typeof reply['unit'] === 'string') {
    return { unit: reply['unit'], set: (unit) => ({ ...reply, unit }) };
  }
  return undefined;
}

function parseObject(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    // Not a reply the injector can edit (the policy answered in prose): only invalid-json applies.
    return undefined;
  }
}

/**
 * Model errors, injected and labelled (`--model-faults`): wraps a policy's models and,
 * seeded, turns some replies into the mistakes real models make — prose instead of JSON,
 * a unit id on no screen, another unit of the screen, the previous plan's expectation, no
 * expectation. Each kind draws from its own stream (so one kind's rate never moves when
 * another fires) and at most one fires per reply, the first in {@link modelFaultKinds}
 * order that applies to the reply. Every fault is logged and passed to the listener (the
 * run gives one that writes a `model-fault-injected` trace event). It changes only
 * replies; the loop around the models is the one every policy runs.
 */
export class ModelFaultInjector {
  private readonly streams: ReadonlyMap<ModelFaultKind, SeededRandom>;
  private readonly faults: ModelFault[] = [];
  private lastExpectation: string | undefined;

  constructor(private readonly config: ModelFaultConfig, seed: number, private readonly listener?: ModelFaultListener) {
    this.streams = new Map(modelFaultKinds.map((kind) => [kind, new SeededRandom(seed, `model-fault:${kind}`)]));
  }

  /** The faults injected so far, in order. */
  log(): readonly ModelFault[] {
    return [...this.faults];
  }

  /** The same models, their replies passed through the injector. */
  wrap(models: AgentModels): AgentModels {
    const planner = this.wrapModel(models.planner);
    // The same object in two roles stays one (the oracle answers both from one guide).
    const verifier = models.verifier === undefined ? undefined : models.verifier === models.planner ? planner : this.wrapModel(models.verifier);
    // The certifier's summaries are checked against the map they compress; its faults are not the planner's.
    return { planner, ...(verifier ? { verifier } : {}), ...(models.vision ? { vision: this.wrapModel(models.vision) } : {}), ...(models.certifier ? { certifier: models.certifier } : {}) };
  }

  private wrapModel<Model extends LanguageModel | VisionModel>(model: Model): Model {
    const generate = async (request: ModelRequest<TextMessage | VisionMessage>): Promise<ModelReply> => {
      const reply = await (model.generate as (request: ModelRequest<TextMessage | VisionMessage>) => Promise<ModelReply>)(request);
      return { ...reply, text: this.corrupt(request, reply.text) };
    };
    return { provider: `${model.provider} with model faults`, modelName: (role: ModelRole) => model.modelName(role), generate } as Model;
  }

  /** The reply text after the injector's draw: unchanged, or with one fault. */
  corrupt(request: ModelRequest<TextMessage | VisionMessage>, text: string): string {
    const draws = new Map(modelFaultKinds.map((kind) => [kind, (this.streams.get(kind) as SeededRandom).next()]));
    const reply = parseObject(text);
    const expectation = typeof reply?.['expectation'] === 'string' ? reply['expectation'] : undefined;
    let corrupted: { text: string; detail: string } | undefined;
    for (const kind of modelFaultKinds) {
      if ((draws.get(kind) ?? 1) >= (this.config[kind] ?? 0)) continue;
      corrupted = this.apply(kind, request, text, reply, (draws.get(kind) ?? 0) / (this.config[kind] ?? 1));
      if (corrupted) {
        const fault: ModelFault = { kind, role: request.role, detail: corrupted.detail };
        this.faults.push(fault);
        this.listener?.(fault);
        break;
      }
    }
    // What the policy meant to expect, not what the fault made of it: a stale expectation is the last one meant.
    if (expectation !== undefined && expectation.trim() !== '') this.lastExpectation = expectation;
    return corrupted?.text ?? text;
  }

  /** One fault on one reply; undefined when the kind does not apply to it. `pick` is a number in [0, 1) for choices. */
  private apply(kind: ModelFaultKind, request: ModelRequest<TextMessage | VisionMessage>, text: string, reply: Json | undefined, pick: number): { text: string; detail: string } | undefined {
    if (kind === 'invalid-json') {
      const replacement = garbage[Math.floor(pick * garbage.length)] ?? garbage[0] ?? '';
      return { text: replacement, detail: `reply replaced by ${JSON.stringify(replacement)}` };
    }
    if (!reply) return undefined;
    if (kind === 'missing-expectation' || kind === 'stale-expectation') {
      const expectation = reply['expectation'];
      if (typeof expectation !== 'string' || reply['finish'] === true) return undefined;
      if (kind === 'missing-expectation') return expectation.trim() === '' ? undefined : { text: JSON.stringify({ ...reply, expectation: '' }), detail: `expectation ${JSON.stringify(expectation)} dropped` };
      const stale = this.lastExpectation;
      if (stale === undefined || stale === expectation) return undefined;
      return { text: JSON.stringify({ ...reply, expectation: stale }), detail: `expectation ${JSON.stringify(expectation)} → ${JSON.stringify(stale)}` };
    }
    const named = namedUnit(reply);
    if (!named) return undefined;
    const onScreen = screenUnits(request.messages);
    let unit: string | undefined;
    if (kind === 'wrong-unit') {
      const others = onScreen.filter((candidate) => candidate !== named.unit && !pseudoUnits.has(candidate));
      unit = others[Math.floor(pick * others.length)];
    } else {
      // An id shaped like ours that no unit of this screen has.
      for (let salt = 0; unit === undefined || onScreen.includes(unit); salt++) unit = `n${((Math.floor(pick * 0xffff) + salt * 7919) & 0xffff).toString(16).padStart(4, '0')}`;
    }
    if (unit === undefined) return undefined;
    return { text: JSON.stringify(named.set(unit)), detail: `unit ${named.unit} → ${unit}` };
  }
}

/** The unit ids a prompt shows: the gate's candidate regions, else the units of its screen block. */
function screenUnits(messages: readonly (TextMessage | VisionMessage)[]): string[] {
  const reading = readPrompt(messages);
  if (reading.candidates.length > 0) return reading.candidates.map((candidate) => candidate.id);
  return [...(reading.screenBlock ?? '').matchAll(unitLinePattern)].map((match) => match[1] ?? '').filter((id) => id !== '');
}
