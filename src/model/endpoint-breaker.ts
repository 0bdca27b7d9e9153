/**
 * The circuit breaker of one model endpoint, shared by every client of it (the text and
 * the vision model, every run of a bench): after `unansweredBeforeOpen` requests in a row
 * got no HTTP answer at all (timed out, could not connect), the endpoint counts as down and
 * calls fail at once with `endpoint-down` instead of waiting out more timeouts; after
 * `cooldownMs` one request may try again, and any answer (even an error status) closes it.
 */
export class EndpointBreaker {
  private unansweredInARow = 0;
  private openedAt: number | undefined;
  /** What the last unanswered request said, for the error of the calls refused while open. */
  private lastProblem = '';

  constructor(
    readonly options: { readonly unansweredBeforeOpen: number; readonly cooldownMs: number } = defaultBreakerOptions,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Why no request should go now (the endpoint is down and cooling off), or undefined when one may. */
  refusal(): string | undefined {
    if (this.openedAt === undefined) return undefined;
    const waited = this.now() - this.openedAt;
    if (waited >= this.options.cooldownMs) return undefined;
    return `${this.unansweredInARow} requests in a row got no answer (last: ${this.lastProblem}); calls are refused for ${Math.ceil((this.options.cooldownMs - waited) / 1000)} s more`;
  }

  /** The endpoint answered (any HTTP status): it is up. */
  answered(): void {
    this.unansweredInARow = 0;
    this.openedAt = undefined;
  }

  /** A request got no answer; opens the breaker when that makes `unansweredBeforeOpen` in a row. */
  unanswered(problem: string): void {
    this.unansweredInARow += 1;
    this.lastProblem = problem;
    if (this.unansweredInARow >= this.options.unansweredBeforeOpen) this.openedAt = this.now();
  }
}

/** Two unanswered requests in a row (two timeouts: 2 minutes at the default timeout), then a minute's rest. */
export const defaultBreakerOptions = { unansweredBeforeOpen: 2, cooldownMs: 60_000 } as const;
