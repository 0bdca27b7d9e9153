import { z } from 'zod';

/**
 * How one role's structured replies were read, as results.json and a run's `run-end`
 * usage carry it (`replyRepairs`): replies read, those read only after a repair, those
 * that did not validate, and the repaired replies per kind of repair.
 */
export interface ReplyReadCounts {
  readonly replies: number;
  readonly repaired: number;
  readonly invalid: number;
  readonly kinds: Readonly<Partial<Record<string, number>>>;
}

const count = z.number().int().nonnegative();
const replyRepairsSchema = z.record(z.string(), z.object({ replies: count, repaired: count, invalid: count, kinds: z.record(z.string(), count) }));

/** The `replyRepairs` of a run's `run-end` usage, or undefined when it has none (older traces, or no structured reply read). */
export function replyRepairsOf(usage: Readonly<Record<string, unknown>> | undefined): Record<string, ReplyReadCounts> | undefined {
  const parsed = replyRepairsSchema.safeParse(usage?.['replyRepairs']);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The roles' reply repairs in one line, roles in the given order:
 * `planner 12/24 (fence 12, surrounding-text 4), verifier 0/3, judge 0/1 (1 invalid)`
 * (repaired/read).
 * Kinds by count, most first. Empty when no role read a reply.
 */
export function describeReplyRepairs(byRole: Readonly<Partial<Record<string, ReplyReadCounts>>>): string {
  const parts: string[] = [];
  for (const [role, counts] of Object.entries(byRole)) {
    if (counts === undefined || counts.replies + counts.invalid === 0) continue;
    const kinds = Object.entries(counts.kinds)
      .flatMap(([kind, count]) => (count === undefined || count === 0 ? [] : [[kind, count] as const]))
      .sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : 1))
      .map(([kind, count]) => `${kind} ${count}`);
    const details = [...kinds, ...(counts.invalid === 0 ? [] : [`${counts.invalid} invalid`])];
    parts.push(`${role} ${counts.repaired}/${counts.replies}${details.length === 0 ? '' : ` (${details.join(', ')})`}`);
  }
  return parts.join(', ');
}
