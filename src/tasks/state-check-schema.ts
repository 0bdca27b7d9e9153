import { z } from 'zod';
import { linearRegexProblem } from '../util/linear-regex.js';

/**
 * Checks over a simulated app's state (plain JSON, `sim.appState(pkg)`).
 *
 * A `path` selects values: dot-separated keys, `[n]` for an array index (negative counts
 * from the end), `[*]` for every element, `["key"]` for a key with dots or spaces —
 * e.g. `alarms[*].hour`, `alarms[0].label`, `prefs["display.dark"]`. A path resolves to a
 * list of values: wildcards fan out, a missing key yields nothing.
 *
 * Ops:
 * - `equals`, `not-equals`, `contains`, `matches` compare every resolved value with
 *   `value` and need at least one value (so `alarms[*].enabled equals false` means "all
 *   alarms are off, and there is at least one"). `contains` is substring for strings and
 *   membership for arrays; `matches` takes a regex source. `ignoreCase` applies to text.
 * - `exists` / `absent`: some / no resolved value other than null.
 * - `count>=`, `count<=`, `count=`: how many elements — the items of the array when the
 *   path resolves to one array, otherwise the resolved values — optionally only those
 *   satisfying every `where` condition (paths relative to the element).
 * - `some`, `every`, `none`: whether some / every (at least one element) / no element
 *   satisfies all `where` conditions. This is the "some element matches" form.
 */
export const stateOpSchema = z.enum(['equals', 'not-equals', 'contains', 'matches', 'exists', 'absent', 'count>=', 'count<=', 'count=', 'some', 'every', 'none']);
export type StateOp = z.infer<typeof stateOpSchema>;

/** A condition over a JSON value (the app state, or one element inside a `where`). */
export interface StateCondition {
  path: string;
  op: StateOp;
  value?: unknown;
  ignoreCase?: boolean | undefined;
  where?: StateCondition[] | undefined;
}

/** The grammar of a path; kept beside the schema so that the loader rejects bad paths early. */
export const statePathPattern = /^(?:[A-Za-z_$][\w$-]*|\[(?:-?\d+|\*|"[^"\]]+")\])(?:\.[A-Za-z_$][\w$-]*|\[(?:-?\d+|\*|"[^"\]]+")\])*$/;

const valueOps = new Set<StateOp>(['equals', 'not-equals', 'contains', 'matches']);
const countOps = new Set<StateOp>(['count>=', 'count<=', 'count=']);
const whereOps = new Set<StateOp>(['some', 'every', 'none']);

const conditionShape = {
  path: z.string().regex(statePathPattern, 'expected a state path such as alarms[*].hour or settings["wifi.enabled"]'),
  op: stateOpSchema,
  value: z.unknown().optional(),
  ignoreCase: z.boolean().optional(),
  get where(): z.ZodOptional<z.ZodArray<typeof stateConditionSchema>> {
    return z.array(stateConditionSchema).min(1).optional();
  },
};

function checkOperands(condition: StateCondition, context: z.RefinementCtx): void {
  if (valueOps.has(condition.op) && condition.value === undefined) {
    context.addIssue({ code: 'custom', path: ['value'], message: `op "${condition.op}" needs a value` });
  }
  if (condition.op === 'matches' && condition.value !== undefined) {
    const problem = linearRegexProblem(String(condition.value), condition.ignoreCase === true ? 'i' : '');
    if (problem !== undefined) context.addIssue({ code: 'custom', path: ['value'], message: `op "matches" needs a valid regex: ${problem}` });
  }
  if (countOps.has(condition.op) && !(typeof condition.value === 'number' && Number.isInteger(condition.value) && condition.value >= 0)) {
    context.addIssue({ code: 'custom', path: ['value'], message: `op "${condition.op}" needs a non-negative integer value` });
  }
  if (whereOps.has(condition.op) && condition.where === undefined) {
    context.addIssue({ code: 'custom', path: ['where'], message: `op "${condition.op}" needs where: a list of conditions on each element` });
  }
  if (condition.where !== undefined && !whereOps.has(condition.op) && !countOps.has(condition.op)) {
    context.addIssue({ code: 'custom', path: ['where'], message: `where applies only to some, every, none and count ops, not "${condition.op}"` });
  }
  if ((condition.op === 'exists' || condition.op === 'absent' || whereOps.has(condition.op)) && condition.value !== undefined) {
    context.addIssue({ code: 'custom', path: ['value'], message: `op "${condition.op}" takes no value` });
  }
}

/** A condition (recursive through `where`). */
export const stateConditionSchema: z.ZodType<StateCondition> = z.strictObject(conditionShape).superRefine(checkOperands) as z.ZodType<StateCondition>;

/** A success check over the state of one app. */
export const stateCheckSchema = z
  .strictObject({
    /** The package whose state is checked. */
    app: z.string().min(1),
    ...conditionShape,
  })
  .superRefine(checkOperands);
export type StateCheck = z.infer<typeof stateCheckSchema>;
