import { z } from 'zod';

/**
 * Sampling and length settings of a model call, configurable per role (docs/architecture.md §2.4).
 * Unset fields are left to the server's defaults.
 */
export const generationSettingsSchema = z.strictObject({
  /** 0–2; 0 for the most repeatable answers. */
  temperature: z.number().min(0).max(2).optional(),
  /** Nucleus sampling, (0, 1]. */
  topP: z.number().gt(0).max(1).optional(),
  /** Asks the server for repeatable sampling (best effort: not every server honours it). */
  seed: z.number().int().optional(),
  /** Upper bound of completion tokens (`max_tokens`, or `max_completion_tokens` where required). */
  maxTokens: z.number().int().positive().optional(),
});
export type GenerationSettings = z.infer<typeof generationSettingsSchema>;

/** The environment variable suffix of each setting: `SENSEACT_TEMPERATURE`, `SENSEACT_PLANNER_TEMPERATURE`, ... */
export const generationEnvSuffixes: Readonly<Record<keyof GenerationSettings, string>> = {
  temperature: 'TEMPERATURE',
  topP: 'TOP_P',
  seed: 'SEED',
  maxTokens: 'MAX_TOKENS',
};
