import type { SeededRandom } from '../../util/seeded-random.js';
import { androidWorldPackages as packages } from './androidworld-device-steps.js';
import { pick, sample, type TemplateParams } from './androidworld-params.js';
import { insertStatements, seedTable, type AppTable, type SqlRow } from './androidworld-sqlite.js';
import type { AndroidWorldTemplate } from './androidworld-template.js';

/**
 * AndroidWorld's Joplin templates, all questions (the Joplin part of
 * android_world/task_evals/information_retrieval was read for what they ask): the notes are
 * rows of three tables of the app's database kept in step, `notes`, its search copy
 * `notes_normalized` (title lower-cased) and `folders`; the note the question is about sits
 * among others, and the true answer is computed from the rows written. Titles, bodies and
 * folders are ours.
 */

const table: AppTable = { packageName: packages.joplin, database: '/data/data/net.cozic.joplin/databases/joplin.sqlite', table: 'notes' };
/** Yesterday on AndroidWorld's device clock (October 14 2023 15:34 UTC), in ms. */
const yesterday = Date.UTC(2023, 9, 14, 15, 34);

/** One note (what the questions read). */
interface Note {
  readonly id: string;
  readonly folder: string;
  readonly title: string;
  readonly body: string;
  readonly isTodo: boolean;
  readonly done: boolean;
}

/** A 32-hex-digit id, as Joplin's. */
function hexId(random: SeededRandom): string {
  return Array.from({ length: 32 }, () => '0123456789abcdef'[random.int(0, 15)]).join('');
}

function noteRow(note: Note, folderId: string): SqlRow {
  return {
    id: note.id, parent_id: folderId, title: note.title, body: note.body, created_time: yesterday, updated_time: yesterday, is_conflict: 0, latitude: 0, longitude: 0, altitude: 0,
    author: '', source_url: '', is_todo: note.isTodo ? 1 : 0, todo_due: 0, todo_completed: note.done ? yesterday : 0, source: '', source_application: '', application_data: '',
    order: 0, user_created_time: yesterday, user_updated_time: yesterday, encryption_cipher_text: '', encryption_applied: 0, markup_language: 1, is_shared: 0, share_id: '',
    conflict_original_id: '', master_key_id: '', user_data: '',
  };
}

function normalisedRow(note: Note, folderId: string): SqlRow {
  return {
    id: note.id, parent_id: folderId, title: note.title.toLowerCase(), body: note.body, latitude: 0, longitude: 0, altitude: 0, source_url: '', is_todo: note.isTodo ? 1 : 0,
    todo_due: 0, todo_completed: note.done ? yesterday : 0, user_created_time: yesterday, user_updated_time: yesterday,
  };
}

function folderRow(id: string, title: string): SqlRow {
  return { id, title, created_time: yesterday, updated_time: yesterday, user_created_time: yesterday, user_updated_time: yesterday, encryption_cipher_text: '', encryption_applied: 0, parent_id: '', is_shared: 0, share_id: '', master_key_id: '' };
}

/** The start steps: the notes written into `notes`, `notes_normalized` and `folders`, each folder once. */
function seedNotes(notes: readonly Note[], folderIds: Readonly<Record<string, string>>): ReturnType<typeof seedTable> {
  const folderId = (note: Note): string => folderIds[note.folder] ?? '';
  const extra = ['DELETE FROM notes_normalized;', 'DELETE FROM folders;', insertStatements('notes_normalized', notes.map((note) => normalisedRow(note, folderId(note)))), insertStatements('folders', Object.entries(folderIds).map(([title, id]) => folderRow(id, title)))].join(' ');
  return seedTable(table, notes.map((note) => noteRow(note, folderId(note))), extra);
}

const folders = ['Work', 'Home', 'Errands', 'Ideas', 'Meeting Notes', 'Recipes'];
const plainTitles = ['Packing list', 'Book ideas', 'Garden plan', 'Gift list', 'Car service log', 'Weekend plan', 'Reading notes', 'Budget draft', 'Workout log', 'Movie picks'];
const todoTitles = ['Renew the insurance', 'Pick up the parcel', 'Email the landlord', 'Buy stamps', 'Repair the fence', 'Book the flights', 'Sort the receipts', 'Call the bank'];
const people = ['Amara', 'Bruno', 'Chloe', 'Dmitri', 'Elena', 'Farid', 'Greta', 'Hiro', 'Ingrid', 'Jonas'];
const quantities: Readonly<Record<string, readonly string[]>> = { flour: ['2 cups', '500 grams'], sugar: ['1 cup', '3 tablespoons'], butter: ['100 grams', '2 tablespoons'], milk: ['1 cup', '250 milliliters'], eggs: ['2 pieces', '3 pieces'], garlic: ['2 cloves', '4 cloves'] };

interface Question {
  readonly notes: readonly Note[];
  readonly params: TemplateParams;
  readonly expected: readonly string[];
  readonly notes_: string;
}

function questionTemplate(draw: (random: SeededRandom) => Question): AndroidWorldTemplate {
  return {
    app: 'joplin',
    params: (random) => {
      const question = draw(random);
      const folderIds = Object.fromEntries([...new Set(question.notes.map((note) => note.folder))].map((folder) => [folder, hexId(random)]));
      return { ...question.params, notes: JSON.stringify(question.notes), folders: JSON.stringify(folderIds), expected: JSON.stringify(question.expected), judgeNotes: question.notes_ };
    },
    device: (params) => ({
      start: seedNotes(JSON.parse(String(params['notes'])) as Note[], JSON.parse(String(params['folders'])) as Record<string, string>),
      answer: { expected: JSON.parse(String(params['expected'])) as [string, ...string[]], judge: 'model', notes: String(params['judgeNotes']) },
    }),
  };
}

/** Plain notes and to-dos in the ordinary folders, as noise. */
function noise(random: SeededRandom, count: number, avoid: readonly string[]): Note[] {
  return sample(random, [...plainTitles, ...todoTitles].filter((title) => !avoid.includes(title)), count).map((title) => {
    const isTodo = todoTitles.includes(title);
    return { id: hexId(random), folder: pick(random, folders.slice(0, 4)), title, body: isTodo ? 'Do it this week.' : 'Some thoughts to sort out later.', isTodo, done: isTodo && random.next() < 0.3 };
  });
}

const questions: Readonly<Record<string, (random: SeededRandom) => Question>> = {
  NotesIsTodo: (random) => {
    const isTodo = random.next() < 0.5;
    const title = pick(random, isTodo ? todoTitles : plainTitles);
    const target: Note = { id: hexId(random), folder: pick(random, folders.slice(0, 4)), title, body: isTodo ? 'Before Friday.' : 'Notes to keep.', isTodo, done: false };
    return { notes: [target, ...noise(random, 8, [title])], params: { title }, expected: [isTodo ? 'True' : 'False'], notes_: 'True when the note is a to-do, False when not' };
  },
  NotesMeetingAttendeeCount: (random) => {
    const title = pick(random, ['Team weekly sync', 'Client review', 'Project kickoff', 'Budget planning']);
    const attendees = sample(random, people, random.int(3, 7));
    const body = `Attendees: ${attendees.join(', ')}.\nAgenda: status, risks, next steps.\nAction items: send the summary.`;
    const others = ['Retro notes', 'Design review'].map((other) => ({ id: hexId(random), folder: 'Meeting Notes', title: other, body: `Attendees: ${sample(random, people, random.int(2, 8)).join(', ')}.`, isTodo: false, done: false }));
    return { notes: [{ id: hexId(random), folder: 'Meeting Notes', title, body, isTodo: false, done: false }, ...others, ...noise(random, 6, [])], params: { title }, expected: [String(attendees.length)], notes_: 'the number of attendees the note lists' };
  },
  NotesRecipeIngredientCount: (random) => {
    const title = pick(random, ['Pancakes', 'Garlic bread', 'Sponge cake', 'French toast']);
    const ingredients = sample(random, Object.keys(quantities), 4);
    const amounts = ingredients.map((ingredient) => pick(random, quantities[ingredient] ?? ['1 cup']));
    const ingredient = ingredients[0] ?? 'flour';
    const body = `Ingredients:\n${ingredients.map((name, index) => `- ${amounts[index] ?? ''} ${name}`).join('\n')}\nMix, rest ten minutes, and cook.`;
    return { notes: [{ id: hexId(random), folder: 'Recipes', title, body, isTodo: false, done: false }, ...noise(random, 6, [])], params: { ingredient, title }, expected: [amounts[0] ?? ''], notes_: 'the amount and unit the recipe gives for that ingredient' };
  },
  NotesTodoItemCount: (random) => {
    const folder = pick(random, folders.slice(0, 4));
    const count = random.int(2, 4);
    const todos = sample(random, todoTitles, count).map((title) => ({ id: hexId(random), folder, title, body: 'Do it this week.', isTodo: true, done: false }));
    const plain = sample(random, plainTitles, 2).map((title) => ({ id: hexId(random), folder, title, body: 'Some thoughts.', isTodo: false, done: false }));
    const elsewhere = sample(random, todoTitles.filter((title) => !todos.some((todo) => todo.title === title)), 2).map((title) => ({ id: hexId(random), folder: pick(random, folders.slice(0, 4).filter((other) => other !== folder)), title, body: 'Later.', isTodo: true, done: false }));
    return { notes: [...todos, ...plain, ...elsewhere], params: { folder }, expected: [String(count)], notes_: `the number of to-dos in the ${folder} folder` };
  },
};

/** The Joplin templates, by AndroidWorld's class name. */
export const joplinTemplates: Readonly<Record<string, AndroidWorldTemplate>> = Object.fromEntries(Object.entries(questions).map(([name, draw]) => [name, questionTemplate(draw)]));
