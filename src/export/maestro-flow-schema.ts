import { parseAllDocuments } from 'yaml';
import { z } from 'zod';

/**
 * The Maestro commands `senseact export --to maestro` writes, as a zod schema written
 * from Maestro's published command reference (docs.maestro.dev, API reference:
 * selectors, launchApp, tapOn / longPressOn, inputText, eraseText, scroll,
 * scrollUntilVisible, swipe, back, pressKey, assertVisible / assertNotVisible,
 * extendedWaitUntil, runFlow with `when` and inline `commands`). Only the commands and
 * fields we emit are admitted; every object is strict, so a misspelt field fails.
 */

/** A selector map (Maestro's selector reference), relations nesting selectors. */
export interface MaestroSelectorMap {
  text?: string | undefined;
  id?: string | undefined;
  index?: number | undefined;
  point?: string | undefined;
  enabled?: boolean | undefined;
  checked?: boolean | undefined;
  focused?: boolean | undefined;
  selected?: boolean | undefined;
  optional?: boolean | undefined;
  childOf?: MaestroSelectorValue | undefined;
  below?: MaestroSelectorValue | undefined;
  above?: MaestroSelectorValue | undefined;
  leftOf?: MaestroSelectorValue | undefined;
  rightOf?: MaestroSelectorValue | undefined;
  containsChild?: MaestroSelectorValue | undefined;
  containsDescendants?: MaestroSelectorValue[] | undefined;
}
/** A selector, or its shorthand: a text regex. */
export type MaestroSelectorValue = string | MaestroSelectorMap;

/** A selector: `text` and `id` are regular expressions matched against the whole value. */
export const maestroSelectorSchema: z.ZodType<MaestroSelectorValue> = z.lazy(() => z.union([
  z.string().min(1),
  z.strictObject({
    text: z.string().min(1).optional(),
    id: z.string().min(1).optional(),
    index: z.number().int().nonnegative().optional(),
    point: z.string().regex(/^\d+%?,\s*\d+%?$/, 'a point is "x,y" in pixels or "x%,y%"').optional(),
    enabled: z.boolean().optional(),
    checked: z.boolean().optional(),
    focused: z.boolean().optional(),
    selected: z.boolean().optional(),
    optional: z.boolean().optional(),
    childOf: maestroSelectorSchema.optional(),
    below: maestroSelectorSchema.optional(),
    above: maestroSelectorSchema.optional(),
    leftOf: maestroSelectorSchema.optional(),
    rightOf: maestroSelectorSchema.optional(),
    containsChild: maestroSelectorSchema.optional(),
    containsDescendants: z.array(maestroSelectorSchema).min(1).optional(),
  }).refine((selector) => Object.keys(selector).some((key) => key !== 'optional' && key !== 'index'), { message: 'a selector needs text, id, point, a state or a relation' }),
]));
const selectorSchema = maestroSelectorSchema;

const directionSchema = z.enum(['UP', 'DOWN', 'LEFT', 'RIGHT']);
/** pressKey's keys (the ones a phone has). */
const keySchema = z.enum(['Home', 'Lock', 'Enter', 'Backspace', 'Volume Up', 'Volume Down', 'Back', 'Power']);

const conditionSchema = z.strictObject({
  visible: selectorSchema.optional(),
  notVisible: selectorSchema.optional(),
  true: z.string().optional(),
  platform: z.enum(['Android', 'iOS', 'Web']).optional(),
}).refine((condition) => Object.keys(condition).length > 0, { message: 'a when needs visible, notVisible, true or platform' });

/** One command of a flow: a bare name (`- back`) or a one-key map (`- tapOn: ...`). */
export const maestroCommandSchema: z.ZodType<unknown> = z.lazy(() => z.union([
  z.enum(['launchApp', 'back', 'scroll', 'hideKeyboard', 'waitForAnimationToEnd']),
  z.strictObject({ launchApp: z.union([z.string().min(1), z.strictObject({ appId: z.string().min(1).optional(), clearState: z.boolean().optional(), stopApp: z.boolean().optional() })]) }),
  z.strictObject({ tapOn: selectorSchema }),
  z.strictObject({ longPressOn: selectorSchema }),
  z.strictObject({ inputText: z.union([z.string(), z.strictObject({ text: z.string(), label: z.string().optional() })]) }),
  z.strictObject({ eraseText: z.union([z.number().int().positive(), z.strictObject({ charactersToErase: z.number().int().positive() })]) }),
  z.strictObject({ scrollUntilVisible: z.strictObject({ element: selectorSchema, direction: directionSchema.optional(), timeout: z.number().int().positive().optional(), speed: z.number().min(0).max(100).optional(), visibilityPercentage: z.number().min(0).max(100).optional(), centerElement: z.boolean().optional() }) }),
  z.strictObject({ swipe: z.strictObject({ direction: directionSchema, from: selectorSchema.optional(), duration: z.number().int().positive().optional() }) }),
  z.strictObject({ pressKey: keySchema }),
  z.strictObject({ assertVisible: selectorSchema }),
  z.strictObject({ assertNotVisible: selectorSchema }),
  z.strictObject({ extendedWaitUntil: z.strictObject({ visible: selectorSchema.optional(), notVisible: selectorSchema.optional(), timeout: z.number().int().positive().optional() }) }),
  z.strictObject({ runFlow: z.strictObject({ when: conditionSchema.optional(), env: z.record(z.string(), z.string()).optional(), commands: z.array(maestroCommandSchema).min(1) }) }),
]));

/** A flow's header (the document before `---`). */
export const maestroFlowConfigSchema = z.strictObject({
  appId: z.string().min(1),
  name: z.string().optional(),
  tags: z.array(z.string()).optional(),
  /** Parameters and constants: `${NAME}` in the commands; `maestro test -e NAME=value` overrides them. */
  env: z.record(z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'an env name is upper case letters, digits and _'), z.string()).optional(),
});

export const maestroFlowSchema = z.strictObject({
  config: maestroFlowConfigSchema,
  commands: z.array(maestroCommandSchema).min(1),
});
export type MaestroFlow = z.infer<typeof maestroFlowSchema>;

/**
 * Parses a flow file (a config document, `---`, a command list) and checks it against the
 * schema. Returns the flow, or the problems with their paths.
 */
export function parseMaestroFlow(text: string): { success: true; flow: MaestroFlow } | { success: false; problems: string[] } {
  const documents = parseAllDocuments(text);
  if (!Array.isArray(documents)) return { success: false, problems: ['not a YAML stream'] };
  const errors = documents.flatMap((document) => document.errors.map((error) => error.message));
  if (errors.length > 0) return { success: false, problems: errors };
  if (documents.length !== 2) return { success: false, problems: [`a flow is two YAML documents (config, --- , commands); found ${documents.length}`] };
  const parsed = maestroFlowSchema.safeParse({ config: documents[0]?.toJS(), commands: documents[1]?.toJS() });
  if (parsed.success) return { success: true, flow: parsed.data };
  return { success: false, problems: parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`) };
}
