import { SenseActError } from '../util/senseact-error.js';

const marker = Symbol.for('senseact.error.task-load');

/** One problem in a task file, located as precisely as the file allows. */
export interface TaskLoadProblem {
  readonly file: string;
  /** 1-based position in the file, when known. */
  readonly line?: number;
  readonly column?: number;
  /** The id of the task the problem is in, when it has one. */
  readonly taskId?: string;
  /** Dotted field path inside the task (or the file), e.g. `success.screen`. */
  readonly field?: string;
  readonly message: string;
}

/** Formats a problem as `file:line:col: task "id" field f: message`. */
export function formatTaskLoadProblem(problem: TaskLoadProblem): string {
  const position = problem.line === undefined ? '' : `:${problem.line}${problem.column === undefined ? '' : `:${problem.column}`}`;
  const task = problem.taskId === undefined ? '' : ` task "${problem.taskId}"`;
  const field = problem.field === undefined || problem.field === '' ? '' : ` field ${problem.field}`;
  return `${problem.file}${position}:${task}${field}${task || field ? ':' : ''} ${problem.message}`;
}

/**
 * A task file or suite that cannot be loaded: YAML syntax, schema violations, bad
 * predicates, duplicate ids. Lists every problem found, each naming the file, the task
 * id and the field.
 */
export class TaskLoadError extends SenseActError {
  private readonly [marker] = true;
  readonly problems: readonly TaskLoadProblem[];

  constructor(problems: readonly TaskLoadProblem[], cause?: unknown) {
    const shown = problems.slice(0, 20).map(formatTaskLoadProblem);
    const more = problems.length > shown.length ? `\n  ... and ${problems.length - shown.length} more` : '';
    super({
      code: 'task-load',
      message: `${problems.length === 1 ? 'Invalid task file' : `${problems.length} problems in task files`} (fix the YAML; docs in src/tasks/task-schema.ts):\n  ${shown.join('\n  ')}${more}`,
      cause,
    });
    this.name = 'TaskLoadError';
    this.problems = problems;
  }

  static override isInstance(error: unknown): error is TaskLoadError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
