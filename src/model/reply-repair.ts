import { z } from 'zod';

/**
 * The repairs the tolerant reader makes to a model's reply: each only changes how the
 * answer is written, never what it says. Anything else (an extra key, a wrong type, a
 * bad predicate) is left to validation, and the model is asked again.
 *
 * - `think-block`: a `<think>…</think>` block before the answer was dropped.
 * - `fence`: the JSON was taken from a ```` ```json ```` fence.
 * - `surrounding-text`: prose before or after the JSON object was ignored.
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
