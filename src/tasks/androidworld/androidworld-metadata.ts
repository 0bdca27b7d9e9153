import { z } from 'zod';

/**
 * One entry of AndroidWorld's `task_metadata.json` (tasks/androidworld/, Apache-2.0): a
 * task template by its class name, its instruction with `{placeholders}`, the difficulty
 * and the number of steps a person needs (a string in the file).
 */
export const androidWorldTemplateMetadataSchema = z.strictObject({
  task_name: z.string().regex(/^[A-Z][A-Za-z0-9]+$/, 'expected an AndroidWorld task class name such as "SystemWifiTurnOff"'),
  task_template: z.string().min(1),
  difficulty: z.enum(['easy', 'medium', 'hard']),
  tags: z.array(z.string()),
  optimal_steps: z.string().regex(/^\d+$/, 'expected a whole number of steps, as a string').transform(Number).pipe(z.number().int().positive()),
});
export type AndroidWorldTemplateMetadata = z.infer<typeof androidWorldTemplateMetadataSchema>;

/** The whole file: every template once. */
export const androidWorldMetadataSchema = z
  .array(androidWorldTemplateMetadataSchema)
  .min(1)
  .superRefine((entries, context) => {
    const seen = new Set<string>();
    entries.forEach((entry, index) => {
      if (seen.has(entry.task_name)) context.addIssue({ code: 'custom', path: [index, 'task_name'], message: `template "${entry.task_name}" is listed twice` });
      seen.add(entry.task_name);
    });
  });
