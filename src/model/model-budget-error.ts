import { SenseActError } from '../util/senseact-error.js';

const symbol = Symbol.for('senseact.error.model-budget');

/**
 * A run's model budget is spent (`ModelBudget`): no further call is sent. The agent loops
 * catch it and end the run with the reason `budget: …`, a failure of the run (the model
 * spent what it was given), never an infrastructure error.
 */
export class ModelBudgetError extends SenseActError {
  private readonly [symbol] = true;

  /** `reached`: which limit, in words (`budgetReached`). */
  constructor(readonly reached: string) {
    super({ code: 'model-budget', message: `budget: ${reached}; raise the limit or give the model a smaller task` });
    this.name = 'ModelBudgetError';
  }

  static override isInstance(error: unknown): error is ModelBudgetError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}
