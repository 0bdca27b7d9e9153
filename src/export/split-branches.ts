import type { Predicate } from '../verify/predicate.js';
import type { ExportBranchPoint, ExportEntry, ExportProgram } from './export-program.js';

/** One program per alternative of the first branch point whose guards a format cannot test, with the alternative's guard as a note. */
export interface ProgramVariant {
  readonly program: ExportProgram;
  /** '' for the whole program, else `branch-<k>` (1-based). */
  readonly suffix: string;
  /** Why the program was split, for a comment in each file. */
  readonly note?: string;
}

/**
 * Splits a program where a format cannot express a branch point as a conditional
 * (`canTest` refuses a guard): one variant per alternative of the first such point, the
 * alternative's steps inline, each variant split again at the next such point. A program
 * with no such point is one variant.
 */
export function splitBranches(program: ExportProgram, canTest: (guard: Predicate | { readonly problem: string }) => boolean, prefix = '', notes: readonly string[] = []): ProgramVariant[] {
  const at = program.entries.findIndex((entry) => entry.kind === 'branches' && entry.branches.some((branch) => !canTest(branch.when)));
  if (at < 0) return [{ program, suffix: prefix, ...(notes.length > 0 ? { note: notes.join('; ') } : {}) }];
  const point = program.entries[at] as ExportBranchPoint;
  return point.branches.flatMap((branch, index) => {
    const entries: ExportEntry[] = [...program.entries.slice(0, at), ...branch.steps, ...program.entries.slice(at + 1)];
    const suffix = `${prefix === '' ? '' : `${prefix}-`}branch-${index + 1}`;
    const note = `alternative ${index + 1} of ${point.branches.length} of a branch point, taken when ${branch.whenText} (this format cannot test that guard, so each alternative has its own file)`;
    return splitBranches({ ...program, entries }, canTest, suffix, [...notes, note]);
  });
}
