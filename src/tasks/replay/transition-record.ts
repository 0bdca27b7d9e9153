import { z } from 'zod';
import { lenientField } from '../lenient-field.js';

const nullableText = z.string().nullish().transform((value) => value ?? '');

/**
 * One line of a transitions JSONL (docs/verify-replay.md): the screen before an action,
 * the action and the acted element, the screen after. Objects are not strict: recorders
 * add provenance fields the replay does not read.
 */
export const transitionRecordSchema = z.object({
  id: z.string().min(1),
  /** Which recorder wrote it (droidbot, appagent_demo_record, appagent_task_log, navi_agent_log, …). */
  source_format: z.string().optional(),
  app_package: z.string().default(''),
  /** Path of the before screen (a UI dump), relative to the JSONL's folder. */
  before: z.string().min(1),
  after: z.string().min(1),
  action: z.object({
    kind: z.enum(['tap', 'long_press', 'set_text', 'scroll', 'key']),
    /** `[l,t][r,b]` of the acted element, absent for keys and whole-screen swipes. */
    bounds: z.string().regex(/^\[-?\d+,-?\d+\]\[-?\d+,-?\d+\]$/, 'bounds as "[l,t][r,b]"').nullish(),
    class: nullableText,
    resource_id: nullableText,
    text: nullableText,
    content_desc: nullableText,
    typed_text: z.string().nullish(),
    /** `replace`: the field was cleared first; `append`: typed at the cursor (`adb shell input text`). */
    typing: z.enum(['replace', 'append']).optional(),
    key: z.string().nullish(),
    /**
     * For `scroll`: the way the finger moved (`up` drags content up, showing what is further
     * down). Recorders name `direction` each their own way (DroidBot's `UP` moves the finger
     * down); this field is the same for all. Another word, or no string, counts as no
     * direction (the scroll is left out; the record is kept).
     */
    finger_moves: lenientField('string'),
    /** For `set_text`: keys the recorder pressed after typing (LC990512/llm presses ENTER and SEARCH). */
    followed_by: z.object({ keys: z.array(z.string()).default([]) }).passthrough().nullish(),
  }),
  /** True when before and after are identical. */
  no_visible_effect: z.boolean().default(false),
  quality: z.string().optional(),
  /** Foreground activities as recorded, when the recorder logged them. */
  foreground_activity_before: z.string().nullish(),
  foreground_activity_after: z.string().nullish(),
  /** The foreground task's activity stack, top first (`package/activity`), when the recorder logged it (DroidBot's `activity_stack`). */
  activity_stack_before: z.array(z.string()).nullish(),
  activity_stack_after: z.array(z.string()).nullish(),
  /**
   * How the after screen was captured, for records converted from DroidBot: `at_event` (right
   * after this action), or `other_capture_same_state_str` (another capture of the state
   * reached: DroidBot saves a state's file only the first time it sees it).
   */
  after_capture: z.string().nullish(),
  /** `owner/repo@commit:path` of the file that recorded the action: groups steps into runs. */
  source: z.string().optional(),
});
export type TransitionRecord = z.infer<typeof transitionRecordSchema>;
