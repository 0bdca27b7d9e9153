/** How completely one step was exported. */
export interface StepCoverage {
  readonly intent: string;
  /** Every action has a selector and every part of its expectation became an assertion. */
  readonly full: boolean;
  /** It carries at least one assertion (from its expectation or its units' wanted states). */
  readonly asserted: boolean;
  /** What became a comment instead, and why. */
  readonly comments: readonly string[];
}

/** What an export wrote: the text, and per step how completely. */
export interface ExportResult {
  readonly files: readonly { readonly name: string; readonly text: string }[];
  readonly steps: readonly StepCoverage[];
}

/** One line for the CLI: "5 steps: 4 exported fully (3 with assertions), 1 with a comment". */
export function summariseCoverage(steps: readonly StepCoverage[]): string {
  const full = steps.filter((step) => step.full).length;
  const asserted = steps.filter((step) => step.asserted).length;
  const commented = steps.length - full;
  return `${steps.length} steps: ${full} exported fully, ${commented} with a comment for what cannot be expressed; ${asserted} with assertions`;
}
