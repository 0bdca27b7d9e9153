import { z } from 'zod';

/**
 * What a model call is for. Each role can be served by a different model (docs/architecture.md §2.4):
 * `planner` (intent, expectation, commitment), `verifier` (inconclusive checks), `vision`
 * (the VLM gate and the react-vlm baseline), `certifier` (compressing certificates),
 * `judge` (answers of query tasks), `extractor` (required values from an intent).
 */
export const modelRoleSchema = z.enum(['planner', 'verifier', 'vision', 'certifier', 'judge', 'extractor']);
export type ModelRole = z.infer<typeof modelRoleSchema>;

/** Every role, in a stable order (for reports and config listings). */
export const modelRoles: readonly ModelRole[] = modelRoleSchema.options;
