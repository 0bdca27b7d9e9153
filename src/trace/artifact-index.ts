import { z } from 'zod';

/** The folder of a compact trace's store, beside the task folders of its runs. */
export const storeFolderName = '_store';

/**
 * The line of a compact `trace.jsonl` that names the run's artifacts (one per `close()`,
 * after the events): `store` is the store folder relative to the run folder; each file
 * (`steps/003/after.xml`, `result.json`) is a blob address in it, or `bundle` when it is
 * kept in the run's bundle blob (a JSON object of name to text).
 */
export const artifactIndexSchema = z.object({
  store: z.string().min(1),
  files: z.record(z.string(), z.string().min(1)),
  bundle: z.string().min(1).optional(),
});
export type ArtifactIndex = z.infer<typeof artifactIndexSchema>;

/** How `readTrace` names a file kept in a bundle: `bundle@<address of the bundle>`. */
export const bundledPrefix = 'bundle@';

/** The line written for `index`: `{"artifacts":{…}}` and a newline. */
export function artifactIndexLine(index: ArtifactIndex): string {
  return `${JSON.stringify({ artifacts: index })}\n`;
}
