import { z } from 'zod';

const point = z.tuple([z.number().int(), z.number().int()]);
const boundsTuple = z.tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()]);

/**
 * A low-level action on a device, in device pixels. Units are resolved to these by the
 * agent (a unit's `tap` point, its bounds for scrolling); devices know nothing of units.
 */
export const deviceActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('tap'), point }),
  z.object({ type: z.literal('long-press'), point, durationMs: z.number().int().positive().optional() }),
  /** Types into the focused field, or taps `point` first when given. Appends to the current text. */
  z.object({ type: z.literal('type'), text: z.string(), point: point.optional() }),
  /** Clears the focused field, or the field at `point` when given. */
  z.object({ type: z.literal('clear'), point: point.optional() }),
  /** Scrolls the content of the container with these bounds: `down` shows content further down. */
  z.object({ type: z.literal('scroll'), bounds: boundsTuple, direction: z.enum(['up', 'down', 'left', 'right']), percent: z.number().positive().max(1).optional() }),
  z.object({ type: z.literal('swipe'), from: point, to: point, durationMs: z.number().int().positive().optional() }),
  z.object({ type: z.literal('key'), key: z.enum(['back', 'home', 'enter']) }),
  z.object({ type: z.literal('launch'), packageName: z.string().min(1), activity: z.string().optional() }),
]);
export type DeviceAction = z.infer<typeof deviceActionSchema>;
