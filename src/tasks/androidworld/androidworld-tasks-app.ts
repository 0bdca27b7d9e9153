import type { SeededRandom } from '../../util/seeded-random.js';
import { androidWorldPackages as packages } from './androidworld-device-steps.js';
import { pick, sample, type TemplateParams } from './androidworld-params.js';
import { fixDeviceClock, seedTable, type AppTable, type SqlRow } from './androidworld-sqlite.js';
import type { AndroidWorldTemplate } from './androidworld-template.js';

/**
 * AndroidWorld's Tasks (org.tasks) templates, all questions (the Tasks part of
 * android_world/task_evals/information_retrieval was read for what they ask): the to-dos the
 * question is about and others that are not are rows of the app's `tasks` table (dates in
 * ms, UTC; importance 0 is high priority), written with AndroidWorld's device clock (Sunday
 * October 15 2023 15:34 UTC); the true answer is computed from those rows. Titles are ours.
 */

const table: AppTable = { packageName: packages.tasks, database: '/data/data/org.tasks/databases/database', table: 'tasks' };

const titles = ['Renew passport', 'Book dentist visit', 'Water the plants', 'Send invoice to client', 'Fix the bike light', 'Plan the team offsite', 'Return library books', 'Order printer ink', 'Call the landlord', 'Back up the laptop', 'Prepare tax documents', 'Clean the gutters', 'Write the newsletter', 'Buy a birthday card', 'Update the resume', 'Cancel the gym trial'];
const notes = ['', 'See the email thread.', 'Ask for a receipt.', 'Before the weekend.'];

/** One to-do as the table stores it (what the questions read). */
interface Todo {
  readonly title: string;
  /** 0 high, 1 medium, 2 low, 3 none. */
  readonly importance: number;
  /** Milliseconds, UTC. */
  readonly dueDate: number;
  /** Milliseconds, UTC, or 0 when not done. */
  readonly completed: number;
  readonly notes: string;
}

/** October `day`, 2023, `hour`:00 UTC, in ms. */
function october(day: number, hour: number): number {
  return Date.UTC(2023, 9, day, hour);
}

function row(todo: Todo): SqlRow {
  const created = todo.dueDate - 7 * 24 * 3600 * 1000;
  return {
    ...todo, hideUntil: 0, created, modified: created, deleted: 0, estimatedSeconds: 0, elapsedSeconds: 0, timerStart: 0,
    notificationFlags: 0, lastNotified: 0, repeat_from: 0, remoteId: '', collapsed: 0, parent: 0, read_only: 0,
  };
}

/** To-dos with distinct titles, one per spec. */
function drawTodos(random: SeededRandom, specs: readonly { day: number; importance?: number; done?: boolean }[]): Todo[] {
  return sample(random, titles, specs.length).map((title, index) => {
    const spec = specs[index] ?? { day: 20 };
    const due = october(spec.day, random.int(8, 20));
    return { title, importance: spec.importance ?? random.int(1, 3), dueDate: due, completed: spec.done === true ? due - random.int(1, 48) * 3600 * 1000 : 0, notes: pick(random, notes) };
  });
}

function titleAnswers(answerTitles: readonly string[]): string[] {
  if (answerTitles.length <= 1) return [...answerTitles];
  return answerTitles.flatMap((title, index) => titleAnswers([...answerTitles.slice(0, index), ...answerTitles.slice(index + 1)]).map((rest) => `${title}, ${rest}`));
}

/** A question over to-dos: the rows (the first `answers` of them are the answer), the placeholders. */
interface Question {
  readonly todos: readonly Todo[];
  readonly params: TemplateParams;
  readonly expected: readonly string[];
  readonly notes: string;
}

function questionTemplate(draw: (random: SeededRandom) => Question): AndroidWorldTemplate {
  return {
    app: 'tasks',
    params: (random) => {
      const question = draw(random);
      return { ...question.params, todos: JSON.stringify(question.todos), expected: JSON.stringify(question.expected), notes: question.notes };
    },
    device: (params) => ({
      start: [...fixDeviceClock(), ...seedTable(table, (JSON.parse(String(params['todos'])) as Todo[]).map(row))],
      answer: { expected: JSON.parse(String(params['expected'])) as [string, ...string[]], judge: 'model', notes: String(params['notes']) },
    }),
  };
}

const otherDays = (day: number): number[] => Array.from({ length: 31 }, (_, index) => index + 1).filter((other) => other !== day);
const dateText = (day: number): string => `October ${day} 2023`;

const questions: Readonly<Record<string, (random: SeededRandom) => Question>> = {
  TasksDueOnDate: (random) => {
    const day = random.int(15, 25);
    const todos = drawTodos(random, [{ day }, { day }, ...Array.from({ length: 8 }, () => ({ day: pick(random, otherDays(day)) }))]);
    return { todos, params: { date: dateText(day) }, expected: titleAnswers(todos.slice(0, 2).map((todo) => todo.title)), notes: 'the two to-dos due that day, in any order' };
  },
  TasksHighPriorityTasks: (random) => {
    const todos = drawTodos(random, [{ day: random.int(10, 28), importance: 0 }, { day: random.int(10, 28), importance: 0 }, ...Array.from({ length: 8 }, () => ({ day: random.int(1, 31), importance: random.int(1, 3) }))]);
    return { todos, params: {}, expected: titleAnswers(todos.slice(0, 2).map((todo) => todo.title)), notes: 'the two high-priority to-dos, in any order' };
  },
  TasksHighPriorityTasksDueOnDate: (random) => {
    const day = random.int(15, 25);
    const todos = drawTodos(random, [{ day, importance: 0 }, { day, importance: random.int(1, 3) }, { day: pick(random, otherDays(day)), importance: 0 }, ...Array.from({ length: 6 }, () => ({ day: pick(random, otherDays(day)) }))]);
    return { todos, params: { date: dateText(day) }, expected: [todos[0]?.title ?? ''], notes: 'the one high-priority to-do due that day' };
  },
  TasksCompletedTasksForDate: (random) => {
    const day = random.int(10, 15);
    const todos = drawTodos(random, [{ day, done: true }, { day, done: true }, { day }, { day: pick(random, otherDays(day)), done: true }, ...Array.from({ length: 6 }, () => ({ day: pick(random, otherDays(day)) }))]);
    return { todos, params: { date: dateText(day) }, expected: titleAnswers(todos.slice(0, 2).map((todo) => todo.title)), notes: 'the two to-dos due that day that are completed, in any order' };
  },
  TasksIncompleteTasksOnDate: (random) => {
    const day = random.int(16, 22);
    const todos = drawTodos(random, [{ day }, { day: day - random.int(1, 5) }, { day, done: true }, { day: day - 2, done: true }, ...Array.from({ length: 6 }, () => ({ day: random.int(day + 1, 31) }))]);
    return { todos, params: { date: dateText(day) }, expected: titleAnswers(todos.slice(0, 2).map((todo) => todo.title)), notes: 'the two to-dos due on or before that day that are not completed, in any order' };
  },
  TasksDueNextWeek: (random) => {
    const count = random.int(2, 5);
    const todos = drawTodos(random, [...Array.from({ length: count }, () => ({ day: random.int(16, 22) })), ...Array.from({ length: 8 - count }, () => ({ day: pick(random, [...otherDays(0).filter((day) => day < 15 || day > 22)]) }))]);
    return { todos, params: {}, expected: [String(count)], notes: 'the number of to-dos due from Monday October 16 to Sunday October 22 2023' };
  },
};

/** The Tasks templates, by AndroidWorld's class name. */
export const tasksAppTemplates: Readonly<Record<string, AndroidWorldTemplate>> = Object.fromEntries(Object.entries(questions).map(([name, draw]) => [name, questionTemplate(draw)]));
