import { z } from 'zod';
import { SeededRandom } from '../util/seeded-random.js';
import { SimulatorError } from './simulator-error.js';

/** The kinds of fault the simulator can inject. */
export const faultKinds = ['dropped-tap', 'delayed-effect', 'interstitial', 'icon-only', 'shuffle', 'slow-settle', 'relabel', 'swap-labels'] as const;
export type FaultKind = (typeof faultKinds)[number];

/**
 * How often one fault kind fires: a probability per opportunity (`rate`), and/or an
 * explicit schedule of step numbers (`atSteps`, the simulator's step counter at the
 * opportunity). `observations` sets how long delayed effects and slow settles last.
 */
export const faultRuleSchema = z.object({
  rate: z.number().min(0).max(1).optional(),
  atSteps: z.array(z.number().int().nonnegative()).optional(),
  observations: z.number().int().min(1).max(20).optional(),
});
export type FaultRule = z.infer<typeof faultRuleSchema>;

/** Per-kind rules; kinds left out never fire. */
export const faultConfigSchema = z.object({
  'dropped-tap': faultRuleSchema.optional(),
  'delayed-effect': faultRuleSchema.optional(),
  interstitial: faultRuleSchema.optional(),
  'icon-only': faultRuleSchema.optional(),
  shuffle: faultRuleSchema.optional(),
  'slow-settle': faultRuleSchema.optional(),
  relabel: faultRuleSchema.optional(),
  'swap-labels': faultRuleSchema.optional(),
});
export type FaultConfig = z.infer<typeof faultConfigSchema>;

/** Named fault mixes. */
export type FaultProfileName = 'none' | 'standard' | 'drift';

/**
 * The profiles: `standard` is a moderate mix of the kinds every run meets; `drift` renames
 * controls (`relabel`) and swaps the labels of sibling buttons (`swap-labels`) as an app
 * update might, for testing what learnt flows do when labels move.
 */
export const faultProfiles: Readonly<Record<FaultProfileName, FaultConfig>> = {
  none: {},
  standard: {
    'dropped-tap': { rate: 0.05 },
    'delayed-effect': { rate: 0.05, observations: 2 },
    interstitial: { rate: 0.03 },
    'icon-only': { rate: 0.1 },
    shuffle: { rate: 0.1 },
    'slow-settle': { rate: 0.1, observations: 3 },
  },
  drift: {
    relabel: { rate: 0.5 },
    'swap-labels': { rate: 0.2 },
  },
};

/**
 * The words the `relabel` fault renames, as an app update might (whole words, matched
 * without case; the first letter's case is kept). None of the new words is a label the
 * simulated apps show elsewhere, so a renamed control never takes another's name.
 */
export const relabelWords: Readonly<Record<string, string>> = {
  ok: 'confirm',
  save: 'done',
  edit: 'change',
  search: 'find',
  settings: 'preferences',
};

/** A label in the words of `relabelWords`, or undefined when it holds none of them. */
export function relabelled(label: string): string | undefined {
  let changed = false;
  const renamed = label.replace(/[A-Za-z]+/g, (word) => {
    const other = relabelWords[word.toLowerCase()];
    if (other === undefined) return word;
    changed = true;
    if (word.length > 2 && word === word.toUpperCase()) return other.toUpperCase();
    return word[0] === word[0]?.toUpperCase() ? `${other[0]?.toUpperCase() ?? ''}${other.slice(1)}` : other;
  });
  return changed ? renamed : undefined;
}

/** One fault occurrence. `step` is the simulator's step counter when it fired. */
export interface FaultEvent {
  readonly kind: FaultKind;
  readonly step: number;
  readonly detail: string;
}

/** Resolves a profile name or checks a config; throws `SimulatorError` on a bad one. */
export function resolveFaultConfig(faults: FaultConfig | FaultProfileName | undefined): FaultConfig {
  if (faults === undefined) return {};
  if (typeof faults === 'string') {
    const profile = (faultProfiles as Record<string, FaultConfig | undefined>)[faults];
    if (profile === undefined) {
      throw new SimulatorError({ message: `Simulator option faults: unknown profile "${faults}"; use one of ${Object.keys(faultProfiles).join(', ')} or a FaultConfig object.` });
    }
    return profile;
  }
  const parsed = faultConfigSchema.strict().safeParse(faults);
  if (!parsed.success) {
    throw new SimulatorError({ message: `Simulator option faults is not a valid FaultConfig: ${parsed.error.message}`, cause: parsed.error });
  }
  return parsed.data;
}

/**
 * Decides, deterministically from the seed, whether each fault kind fires at an
 * opportunity, and records every occurrence. Each kind draws from its own random
 * stream, so enabling one kind never changes when another fires.
 */
export class FaultInjector {
  private readonly config: FaultConfig;
  private readonly streams = new Map<FaultKind, SeededRandom>();
  private readonly events: FaultEvent[] = [];

  constructor(config: FaultConfig, private readonly seed: number) {
    this.config = config;
    for (const kind of faultKinds) this.streams.set(kind, new SeededRandom(seed, `fault:${kind}`));
  }

  /** True when this kind fires now; does not log (call `record`). */
  fires(kind: FaultKind, step: number): boolean {
    const rule = this.config[kind];
    if (rule === undefined) return false;
    if (rule.atSteps?.includes(step) === true) return true;
    if (rule.rate === undefined || rule.rate <= 0) return false;
    const stream = this.streams.get(kind) as SeededRandom;
    return stream.next() < rule.rate;
  }

  /** A stable yes/no for a named target (icon-only, shuffle, relabel): same seed + key → same answer. */
  firesFor(kind: FaultKind, key: string): boolean {
    const rule = this.config[kind];
    if (rule?.rate === undefined || rule.rate <= 0) return false;
    return new SeededRandom(this.seed, `fault:${kind}:${key}`).next() < rule.rate;
  }

  /** A seeded stream for a target (e.g. the permutation of a shuffled list). */
  streamFor(kind: FaultKind, key: string): SeededRandom {
    return new SeededRandom(this.seed, `fault:${kind}:${key}:stream`);
  }

  /** How many observations a delayed effect or slow settle lasts. */
  observations(kind: 'delayed-effect' | 'slow-settle'): number {
    return this.config[kind]?.observations ?? 2;
  }

  record(kind: FaultKind, step: number, detail: string): void {
    this.events.push({ kind, step, detail });
  }

  log(): FaultEvent[] {
    return this.events.map((event) => ({ ...event }));
  }

  isEnabled(kind: FaultKind): boolean {
    return this.config[kind] !== undefined;
  }
}
