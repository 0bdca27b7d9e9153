/** What hints are asked for: the app and page the agent is on, and the task. */
export interface AppHintQuery {
  readonly packageName: string;
  readonly scope: string;
  readonly instruction: string;
}

/** Hints rendered for one prompt, with what they cost. */
export interface AppHints {
  readonly app: string;
  readonly text: string;
  /** Estimated prompt tokens of `text`. */
  readonly tokens: number;
  readonly lines: number;
}

/**
 * Where the planner's app-abstraction hints come from (A²): per app, what earlier verified
 * runs showed. Undefined when the memory knows nothing useful for the query.
 */
export interface AppHintSource {
  hints(query: AppHintQuery, budgetTokens: number): AppHints | undefined;
}
