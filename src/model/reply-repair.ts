import { z } from 'zod';
import { modelRoleSchema, type ModelRole } from './model-role.js';

/**
 * The repairs the tolerant reader makes to a model's reply: each only changes how the
 * answer is written, never what it says. Anything else (an extra key, a wrong type, a
 * bad predicate) is left to validation, and the model is asked again.
 *
 * - `think-block`: a `<think>…</think>` block before the answer was dropped.
 * - `fence`: the JSON was taken from a ```` ```json ```` fence.
 * - `surrounding-text`: prose before or after the JSON object (or around its fence) was ignored.
 * - `comment`, `trailing-comma`: JavaScript-style comments or trailing commas were removed.
 * - `single-quotes`: 'single-quoted' strings and keys were written with double quotes.
 * - `python-literals`: `True`, `False`, `None` outside strings became `true`, `false`, `null`.
 * - `key-case`: a key spelled in another case or separator style (`Intent`, `look_for`)
 *   was renamed to the one schema key it can only mean.
 * - `null-optional`: a `null` given for an optional key that does not take null (what
 *   strict structured output sends for "absent") was dropped.
 */
export const replyRepairKindSchema = z.enum(['think-block', 'fence', 'surrounding-text', 'comment', 'trailing-comma', 'single-quotes', 'python-literals', 'key-case', 'null-optional']);
export type ReplyRepairKind = z.infer<typeof replyRepairKindSchema>;

/** One repair the tolerant reader made, with what it touched (e.g. `Intent → intent`). */
export const replyRepairSchema = z.object({
  kind: replyRepairKindSchema,
  detail: z.string().optional(),
});
export type ReplyRepair = z.infer<typeof replyRepairSchema>;

/** One line per repair, for logs and trace events: `key-case (Intent → intent)`. */
export function describeRepairs(repairs: readonly ReplyRepair[]): string[] {
  return repairs.map((repair) => (repair.detail === undefined ? repair.kind : `${repair.kind} (${repair.detail})`));
}

const count = z.number().int().nonnegative();

/**
 * How one role's structured replies were read: `replies` validated, `repaired` of them only
 * after a repair (a reply that follows the schema as it was requested is none: under a
 * strict json_schema request the nulls of absent optional keys are no repair), `invalid`
 * did not validate (the model was asked again or failed), and the repaired replies per
 * kind (a reply that took two kinds counts under each, once).
 */
export const replyReadTallySchema = z.object({
  replies: count,
  repaired: count,
  invalid: count,
  kinds: z.partialRecord(replyRepairKindSchema, count),
});
export type ReplyReadTally = z.infer<typeof replyReadTallySchema>;

/** {@link ReplyReadTally} per model role (roles that read no structured reply are absent). */
export const replyRepairsByRoleSchema = z.partialRecord(modelRoleSchema, replyReadTallySchema);
export type ReplyRepairsByRole = z.infer<typeof replyRepairsByRoleSchema>;

/** One structured reply as it was read: valid with the repairs it took (none: as written), or invalid. */
export type ReplyRead = { readonly valid: true; readonly repairs: readonly ReplyRepair[] } | { readonly valid: false };

/** `tally` with one more reply read. */
export function tallyReplyRead(tally: ReplyReadTally | undefined, read: ReplyRead): ReplyReadTally {
  const base = tally ?? { replies: 0, repaired: 0, invalid: 0, kinds: {} };
  if (!read.valid) return { ...base, invalid: base.invalid + 1 };
  const kinds = { ...base.kinds };
  for (const kind of new Set(read.repairs.map((repair) => repair.kind))) kinds[kind] = (kinds[kind] ?? 0) + 1;
  return { replies: base.replies + 1, repaired: base.repaired + (read.repairs.length > 0 ? 1 : 0), invalid: base.invalid, kinds };
}

/** Two per-role tallies added (runs into a mode, modes into a bench). */
export function addReplyRepairs(a: ReplyRepairsByRole, b: ReplyRepairsByRole): ReplyRepairsByRole {
  const result: Partial<Record<ModelRole, ReplyReadTally>> = { ...a };
  for (const [role, tally] of Object.entries(b) as [ModelRole, ReplyReadTally | undefined][]) {
    if (tally === undefined) continue;
    const mine = result[role];
    if (mine === undefined) {
      result[role] = tally;
      continue;
    }
    const kinds = { ...mine.kinds };
    for (const [kind, value] of Object.entries(tally.kinds) as [ReplyRepairKind, number | undefined][]) kinds[kind] = (kinds[kind] ?? 0) + (value ?? 0);
    result[role] = { replies: mine.replies + tally.replies, repaired: mine.repaired + tally.repaired, invalid: mine.invalid + tally.invalid, kinds };
  }
  return result;
}
