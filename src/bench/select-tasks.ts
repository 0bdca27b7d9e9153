import { BenchError } from './bench-error.js';

/** What `--tasks` and `--tags` ask for; an absent list selects everything. */
export interface TaskSelection {
  /** Task ids or globs (`*` any run of characters, `?` one character), e.g. `clock-*`. */
  readonly ids?: readonly string[];
  /** A task is kept when it has at least one of these tags. */
  readonly tags?: readonly string[];
}

/** A task as far as selection cares. */
export interface SelectableTask {
  readonly id: string;
  readonly tags?: readonly string[];
}

/**
 * The tasks of a suite that `selection` picks, in suite order: those whose id matches
 * any of `ids` (when given) and that carry any of `tags` (when given). Throws
 * `BenchError` naming each id pattern and tag that matched no task of the suite (a typo
 * must not silently shrink the benchmark), and when nothing is left.
 */
export function selectTasks<Task extends SelectableTask>(tasks: readonly Task[], selection: TaskSelection, suiteName: string): Task[] {
  const patterns = (selection.ids ?? []).map((pattern) => ({ pattern, regex: globToRegex(pattern) }));
  const tags = selection.tags ?? [];
  const unmatched = [
    ...patterns.filter(({ regex }) => !tasks.some((task) => regex.test(task.id))).map(({ pattern }) => `--tasks ${pattern}`),
    ...tags.filter((tag) => !tasks.some((task) => task.tags?.includes(tag) === true)).map((tag) => `--tags ${tag}`),
  ];
  if (unmatched.length > 0) {
    throw new BenchError({
      code: 'bench-selection',
      message: `${unmatched.join(', ')}: no task of suite ${suiteName} matches (its tasks are ${preview(tasks.map((task) => task.id))}; its tags are ${preview([...new Set(tasks.flatMap((task) => task.tags ?? []))].sort()) || 'none'})`,
    });
  }
  const selected = tasks.filter(
    (task) =>
      (patterns.length === 0 || patterns.some(({ regex }) => regex.test(task.id))) &&
      (tags.length === 0 || tags.some((tag) => task.tags?.includes(tag) === true)),
  );
  if (selected.length === 0) {
    throw new BenchError({ code: 'bench-selection', message: `${[...patterns.map(({ pattern }) => `--tasks ${pattern}`), ...tags.map((tag) => `--tags ${tag}`)].join(' ')}: no task of suite ${suiteName} matches all of these together` });
  }
  return selected;
}

/** Splits a comma-separated option value into its non-empty, trimmed parts. */
export function splitList(text: string): string[] {
  return text.split(',').map((part) => part.trim()).filter((part) => part !== '');
}

/** A glob (`*` any run of characters, `?` one character) as an anchored regular expression. */
export function globToRegex(glob: string): RegExp {
  const source = [...glob].map((character) => (character === '*' ? '.*' : character === '?' ? '.' : character.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${source}$`);
}

function preview(items: readonly string[]): string {
  return items.length <= 8 ? items.join(', ') : `${items.slice(0, 8).join(', ')}, … (${items.length} in all)`;
}
