import { z } from 'zod';

/**
 * The model errors `--model-faults` injects, the counterpart of the simulator's device
 * faults: a reply that is no JSON at all, a unit id that is on no screen, another unit of
 * the screen than the one meant, the expectation of the previous plan, no expectation.
 */
export const modelFaultKinds = ['invalid-json', 'hallucinated-unit', 'wrong-unit', 'stale-expectation', 'missing-expectation'] as const;
export type ModelFaultKind = (typeof modelFaultKinds)[number];

const rate = z.number().min(0).max(1);

/** A probability per reply for each kind; kinds left out never fire. At most one fault per reply. */
export const modelFaultConfigSchema = z.strictObject({
  'invalid-json': rate.optional(),
  'hallucinated-unit': rate.optional(),
  'wrong-unit': rate.optional(),
  'stale-expectation': rate.optional(),
  'missing-expectation': rate.optional(),
});
export type ModelFaultConfig = z.infer<typeof modelFaultConfigSchema>;

/** Named mixes of model errors. */
export type ModelFaultProfileName = 'none' | 'standard';

/**
 * The profiles. `standard` turns roughly one reply in five into a mistake a real model
 * makes (wrong or invented unit ids, expectations left out or copied from the last plan,
 * prose instead of JSON); each kind has its own rate.
 */
export const modelFaultProfiles: Readonly<Record<ModelFaultProfileName, ModelFaultConfig>> = {
  none: {},
  standard: {
    'invalid-json': 0.05,
    'hallucinated-unit': 0.04,
    'wrong-unit': 0.06,
    'stale-expectation': 0.04,
    'missing-expectation': 0.04,
  },
};

/** The config of a profile name, or undefined for a name that is none of {@link modelFaultProfiles}. */
export function modelFaultProfile(name: string): ModelFaultConfig | undefined {
  return Object.hasOwn(modelFaultProfiles, name) ? modelFaultProfiles[name as ModelFaultProfileName] : undefined;
}
