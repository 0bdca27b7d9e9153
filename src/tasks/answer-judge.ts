/** What a judge is asked: the question, the accepted answers, and the agent's answer. */
export interface AnswerJudgeRequest {
  readonly instruction: string;
  /** Accepted answers; matching any one is correct. */
  readonly expected: readonly string[];
  readonly answer: string;
  readonly signal?: AbortSignal;
}

/** A judge's verdict. `judge` says which judge decided, so results stay comparable. */
export interface AnswerJudgement {
  readonly correct: boolean;
  /** Which judge produced the verdict, e.g. `exact` or `model:gpt-4o`. */
  readonly judge: string;
  readonly reason: string;
}

/**
 * Decides whether a query task's answer is correct. `ExactMatchAnswerJudge` is the
 * offline one; a model-backed judge (elsewhere) implements the same interface. Judges
 * return verdicts as values and throw only for infrastructure failures.
 */
export interface AnswerJudge {
  readonly name: string;
  judge(request: AnswerJudgeRequest): Promise<AnswerJudgement>;
}
