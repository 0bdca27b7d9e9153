import type { SeededRandom } from '../../util/seeded-random.js';
import { androidWorldFolders as folders, androidWorldPackages as packages, clearFolder, shell, writeFile } from './androidworld-device-steps.js';
import { pick, type TemplateParams } from './androidworld-params.js';
import { seedTable, tableRowsCheck, type AppTable, type SqlRow } from './androidworld-sqlite.js';
import type { AndroidWorldTemplate } from './androidworld-template.js';

/**
 * AndroidWorld's Pro Expense templates (android_world/task_evals/single/expense.py was read
 * for what they check): the expenses are rows of the app's `expense` table (name, amount
 * in cents, category id, note, dates in ms), written before the task with noise rows; a
 * delete task passes when exactly the other rows remain, an add task when the new rows are
 * there and the others unchanged. Names, notes and amounts are drawn from our lists.
 */

const table: AppTable = { packageName: packages.expense, database: '/data/data/com.arduia.expense/databases/accounting.db', table: 'expense' };

/** The app's categories by id (its own table of categories). */
const categories = ['Others', 'Income', 'Food', 'Housing', 'Social', 'Entertainment', 'Transportation', 'Clothes', 'Health Care', 'Education', 'Donation'] as const;

const namesByCategory: Readonly<Record<(typeof categories)[number], readonly string[]>> = {
  Others: ['Spare keys', 'Post office', 'Phone case', 'Umbrella', 'Batteries', 'Photo prints'],
  Income: ['Paycheck', 'Tax refund', 'Sold bicycle', 'Tutoring income', 'Garage sale', 'Cashback'],
  Food: ['Farmers market', 'Pizza night', 'Bakery', 'Sushi lunch', 'Weekly groceries', 'Ice cream'],
  Housing: ['Water bill', 'Electricity bill', 'New curtains', 'Plumber visit', 'Light bulbs', 'Internet bill'],
  Social: ['Team dinner', 'Housewarming gift', 'Karaoke night', 'Baby shower gift', 'Bowling', 'Board game cafe'],
  Entertainment: ['Cinema tickets', 'Music streaming', 'Comic books', 'Escape room', 'Jazz concert', 'Puzzle box'],
  Transportation: ['Train ticket', 'Bus pass', 'Fuel', 'Parking garage', 'Bike tyre', 'Car wash'],
  Clothes: ['Rain jacket', 'Running shoes', 'Wool scarf', 'Winter boots', 'Swimsuit', 'Dry cleaning'],
  'Health Care': ['Pharmacy', 'Eye exam', 'Physiotherapy', 'Vitamins', 'Dentist checkup', 'Flu shot'],
  Education: ['Language course', 'Notebooks', 'Exam fee', 'Coding workshop', 'Library card', 'Math tutor'],
  Donation: ['Food bank', 'Animal shelter', 'Red Cross', 'School fundraiser', 'Tree planting', 'Museum donation'],
};
const notes = ['Paid in cash', 'Paid by card', 'Shared with a friend', 'Every month', 'One time only', 'Keep the receipt'];

/** One expense as the table stores it. */
interface Expense {
  readonly name: string;
  /** Cents. */
  readonly amount: number;
  /** The category id, 1-based. */
  readonly category: number;
  readonly note: string;
  /** Milliseconds since the epoch, October 1–15 2023 (before AndroidWorld's device date). */
  readonly created_date: number;
}

/** `count` expenses with distinct names. */
function drawExpenses(random: SeededRandom, count: number, avoid: readonly Expense[] = []): Expense[] {
  const all = categories.flatMap((category, index) => namesByCategory[category].map((name) => ({ name, category: index + 1 })));
  const free = random.shuffle(all.filter((entry) => !avoid.some((taken) => taken.name === entry.name)));
  if (free.length < count) throw new RangeError(`only ${free.length} expense names left, ${count} wanted`);
  return free.slice(0, count).map((entry) => drawExpense(random, entry.name, entry.category));
}

function drawExpense(random: SeededRandom, name: string, category: number): Expense {
  const octoberFirst = Date.UTC(2023, 9, 1);
  return { name, category, amount: random.int(1000, 50000), note: pick(random, notes), created_date: octoberFirst + random.int(0, 14 * 24 * 60) * 60_000 };
}

function row(expense: Expense): SqlRow {
  return { name: expense.name, amount: expense.amount, category: expense.category, note: expense.note, created_date: expense.created_date, modified_date: expense.created_date };
}

/** `$123.45`. */
function dollars(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** How an instruction lists expenses: name, amount in dollars, category, note. */
function describe(expenses: readonly Expense[]): string {
  return expenses.map((expense) => `${expense.name} (amount ${dollars(expense.amount)}, category ${categories[expense.category - 1] ?? 'Others'}, note "${expense.note}")`).join('; ');
}

const compared = ['name', 'amount', 'category', 'note'];
const stored = (params: TemplateParams, key: string): Expense[] => JSON.parse(String(params[key])) as Expense[];
const paramsOf = (targets: readonly Expense[], noise: readonly Expense[], extra: TemplateParams = {}): TemplateParams => ({ ...extra, targets: JSON.stringify(targets), noise: JSON.stringify(noise) });

function deleteTemplate(targetCount: number, noiseCount: number): AndroidWorldTemplate {
  return {
    app: 'expense',
    params: (random) => {
      const expenses = drawExpenses(random, targetCount + noiseCount);
      const targets = expenses.slice(0, targetCount);
      return paramsOf(targets, expenses.slice(targetCount), { [targetCount === 1 ? 'expense' : 'expenses']: targets.map((expense) => expense.name).join(', ') });
    },
    device: (params) => {
      const noise = stored(params, 'noise');
      return { start: seedTable(table, [...stored(params, 'targets'), ...noise].map(row)), adb: [tableRowsCheck(table, compared, noise.map(row))] };
    },
  };
}

function duplicatesTemplate(noiseCount: number, variations: number): AndroidWorldTemplate {
  return {
    app: 'expense',
    params: (random) => {
      const [target, ...others] = drawExpenses(random, noiseCount + 1);
      if (target === undefined) throw new RangeError('no expense drawn');
      // Same name, another amount: not duplicates, to be kept.
      const varied = Array.from({ length: variations }, (_, index) => ({ ...target, amount: target.amount + 50 + index * 137 }));
      return paramsOf([target], [...others, ...varied]);
    },
    device: (params) => {
      const [target] = stored(params, 'targets');
      const noise = stored(params, 'noise');
      const rows = target === undefined ? noise : [target, target, ...noise];
      return { start: seedTable(table, rows.map(row)), adb: [tableRowsCheck(table, compared, [...noise, ...(target === undefined ? [] : [target])].map(row))] };
    },
  };
}

function addTemplate(targetCount: number, noiseCount: number): AndroidWorldTemplate {
  return {
    app: 'expense',
    params: (random) => {
      const targets = drawExpenses(random, targetCount);
      const noise = drawExpenses(random, noiseCount, targets);
      return paramsOf(targets, noise, { [targetCount === 1 ? 'expense' : 'expenses']: describe(targets) });
    },
    device: (params) => {
      const noise = stored(params, 'noise');
      return { start: seedTable(table, noise.map(row)), adb: [tableRowsCheck(table, compared, [...noise, ...stored(params, 'targets')].map(row))] };
    },
  };
}

/** The Markor file of ExpenseAddMultipleFromMarkor: every transaction, the ones to log marked reimbursable. */
function transactionsFile(targets: readonly Expense[], others: readonly Expense[], random: SeededRandom): string {
  const marked = targets.map((expense) => ({ ...expense, note: `${expense.note}. Reimbursable.` }));
  const rows = random.shuffle([...marked, ...others]);
  return ['name|amount|category|note', ...rows.map((expense) => `${expense.name}|${dollars(expense.amount)}|${categories[expense.category - 1] ?? 'Others'}|${expense.note}`)].join('\n');
}

const fromMarkor: AndroidWorldTemplate = {
  app: 'expense',
  also: ['markor'],
  params: (random) => {
    const targets = drawExpenses(random, 2);
    const noise = drawExpenses(random, 40, targets);
    return { ...paramsOf(targets, noise), file: transactionsFile(targets, noise.slice(0, 20), random) };
  },
  device: (params) => {
    const noise = stored(params, 'noise');
    return {
      start: [...seedTable(table, noise.map(row)), shell(`am force-stop ${packages.markor}`), ...clearFolder(folders.markor), writeFile(`${folders.markor}/my_expenses.txt`, String(params['file']))],
      // The note may be logged as written or with its "Reimbursable." mark; nothing else is added.
      adb: [tableRowsCheck(table, ['name', 'amount', 'category'], [...noise, ...stored(params, 'targets')].map(row))],
    };
  },
};

/** The Pro Expense templates whose check is expressed, by AndroidWorld's class name. */
export const expenseTemplates: Readonly<Record<string, AndroidWorldTemplate>> = {
  ExpenseDeleteSingle: deleteTemplate(1, 0),
  ExpenseDeleteMultiple: deleteTemplate(3, 0),
  ExpenseDeleteMultiple2: deleteTemplate(3, 50),
  ExpenseDeleteDuplicates: duplicatesTemplate(5, 0),
  ExpenseDeleteDuplicates2: duplicatesTemplate(37, 3),
  ExpenseAddSingle: addTemplate(1, 10),
  ExpenseAddMultiple: addTemplate(3, 10),
  ExpenseAddMultipleFromMarkor: fromMarkor,
};
