import { z } from 'zod';
import { lenientField } from '../lenient-field.js';

/**
 * Schemas of DroidTask's recorded data as users download it (`user_tasks/<app>/`):
 * `task*.yaml` (the steps of one task), `events/event_*.json` (DroidBot input events),
 * `states/state_*.json` (DroidBot UI states, parsed by src/ui/parse-hierarchy.ts).
 * Objects are not strict: DroidBot and AutoDroid add fields we do not read.
 */

const stateStrs = z.union([z.string(), z.array(z.string())]).transform((value) => (typeof value === 'string' ? [value] : value));

/** One recorded step: the chosen element of the simplified HTML state (-1 = the task is done) and the typed text. */
export const droidTaskRecordSchema = z.object({
  /** Index of the chosen element in `State`; -1 when the task is complete. */
  Choice: z.number().int().min(-1),
  /** Text typed into the element, or the string 'null' (also accepted: null) for a tap. */
  Input: z.union([z.string(), z.number(), z.null()]).transform((value) => (value === null || value === 'null' ? null : String(value))),
  /** AutoDroid's simplified HTML view of the screen, which `Choice` indexes. */
  State: z.string(),
  /** DroidBot `state_str` of the screen(s) this step was taken on. */
  state_str: stateStrs,
  /** DroidBot `state_str` of the screen after the step. */
  new_state_str: stateStrs.optional(),
});
export type DroidTaskRecord = z.infer<typeof droidTaskRecordSchema>;

/** A `task*.yaml` file. */
export const droidTaskFileSchema = z.object({
  task_name: z.string().min(1),
  step_num: z.number().int().nonnegative().optional(),
  records: z.array(droidTaskRecordSchema).min(1),
});
export type DroidTaskFile = z.infer<typeof droidTaskFileSchema>;

/** The view a DroidBot event acted on (the ground-truth element). */
export const droidBotViewSchema = z.object({
  bounds: z.tuple([z.tuple([z.number(), z.number()]), z.tuple([z.number(), z.number()])]),
  class: z.string().nullish(),
  resource_id: z.string().nullish(),
  text: z.string().nullish(),
  content_description: z.string().nullish(),
  temp_id: z.number().int().optional(),
  /** The view's checked state when the event was sent; anything but a boolean reads as unknown. */
  checked: lenientField('boolean'),
});
export type DroidBotView = z.infer<typeof droidBotViewSchema>;

/** An `event_*.json` file. */
export const droidBotEventFileSchema = z.object({
  tag: z.string(),
  event: z.object({
    event_type: z.string(),
    view: droidBotViewSchema.nullish(),
    text: z.string().nullish(),
    /** The key a `key` event pressed (BACK, HOME, MENU, …). */
    name: z.string().nullish(),
    /** The command line of an `intent` event (`am start …`). */
    intent: z.string().nullish(),
    /**
     * The way a `scroll` event moved content into view: DOWN drags the finger up (shows what
     * is further down), LEFT drags it right (shows what is to the left). Anything but a
     * string reads as no direction: the event stays readable, its scroll is left out.
     */
    direction: lenientField('string'),
  }),
  start_state: z.string(),
  stop_state: z.string().nullish(),
  event_str: z.string().optional(),
});
export type DroidBotEventFile = z.infer<typeof droidBotEventFileSchema>;

/** The part of a `state_*.json` file the loader indexes by (the full file goes to parseHierarchy). */
export const droidBotStateHeaderSchema = z.object({
  tag: z.string(),
  state_str: z.string(),
  foreground_activity: z.string().nullish(),
});
