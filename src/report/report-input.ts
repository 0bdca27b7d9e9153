/** The summary table at the top of the report: already formatted cells. */
export interface ReportSummary {
  readonly title: string;
  readonly headers: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** Lines under the table (prices, baselines, completeness). */
  readonly notes: readonly string[];
}

/** One run (a task in one mode, one repeat) whose trace folder the report shows. */
export interface ReportRun {
  readonly taskId: string;
  readonly app: string;
  readonly mode: string;
  readonly repeat: number;
  readonly success: boolean;
  readonly reason: string;
  /** Infrastructure error, or null. */
  readonly error: string | null;
  /** Label → value facts shown in the run header (steps, calls, images, tokens…). */
  readonly facts: readonly (readonly [label: string, value: string])[];
  /** The run's trace folder (absolute path). */
  readonly traceDir: string;
  /** Steps and vision calls, for the summary's list (counted from the trace when absent). */
  readonly steps?: number;
  readonly vlmCalls?: number;
}

/** Everything `writeReport` needs besides the trace folders themselves. */
export interface ReportInput {
  readonly title: string;
  /** ISO time, shown in the footer. */
  readonly generatedAt: string;
  readonly summary: ReportSummary;
  /** More tables under the summary (e.g. success per app). */
  readonly tables?: readonly ReportSummary[];
  readonly runs: readonly ReportRun[];
}
