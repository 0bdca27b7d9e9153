import type { SeededRandom } from '../../util/seeded-random.js';

/**
 * Parameter draws for the AndroidWorld templates. AndroidWorld draws each template's
 * parameters at random when it instantiates a task (`generate_random_params`); we draw the
 * same kinds of values over the same ranges (hours 0–23, a ten-digit number, on/off, a
 * note file name with .md or .txt, 2–6 notes, …) from our own word lists, through a seeded
 * stream, so a seed gives the same suite every time.
 */

/** A template's parameters by placeholder name. */
export type TemplateParams = Readonly<Record<string, string | number>>;

/** Picks one item. */
export function pick<T>(random: SeededRandom, items: readonly T[]): T {
  const item = items[Math.floor(random.next() * items.length)];
  if (item === undefined) throw new RangeError('pick from an empty list');
  return item;
}

/** `count` distinct items, in drawn order. */
export function sample<T>(random: SeededRandom, items: readonly T[], count: number): T[] {
  return random.shuffle(items).slice(0, count);
}

const givenNames = ['Amara', 'Bruno', 'Chloe', 'Dmitri', 'Elena', 'Farid', 'Greta', 'Hiro', 'Ingrid', 'Jonas', 'Keiko', 'Luis', 'Mina', 'Nikolai', 'Olga', 'Pedro', 'Rosa', 'Sven', 'Tara', 'Umar'];
const familyNames = ['Alvarez', 'Becker', 'Castillo', 'Dubois', 'Eriksen', 'Fischer', 'Gallo', 'Horvat', 'Ivanova', 'Jensen', 'Kowalski', 'Lindqvist', 'Moreau', 'Novak', 'Okafor', 'Petrov', 'Quinn', 'Rossi', 'Sato', 'Varga'];
const sentences = [
  'Bring the blue folder to the meeting.',
  'The garden needs water before noon.',
  'Pick up the dry cleaning on Friday.',
  'Call the plumber about the kitchen sink.',
  'The train leaves at half past seven.',
  'Remember to renew the library books.',
  'Dinner with the neighbours is on Saturday.',
  'Check the tyre pressure before the trip.',
  'The quarterly report is due next week.',
  'Buy flour, eggs and a lemon for the cake.',
  'Send the photos from the hiking weekend.',
  'Book a table for four at the harbour.',
];
const fileWords = {
  adjectives: ['quiet', 'bright', 'rapid', 'gentle', 'hidden', 'golden', 'silver', 'early', 'humble', 'lucky'],
  nouns: ['harbor', 'meadow', 'lantern', 'compass', 'orchard', 'summit', 'canyon', 'river', 'falcon', 'garden'],
};
const noteTitles = ['grocery_list.md', 'meeting_notes.md', 'reading_list.md', 'trip_plans.md', 'workout_plan.md', 'gift_ideas.md', 'budget_2024.md', 'recipe_ideas.md', 'project_outline.md', 'weekend_todo.md'];
const clipboardTexts = ['Order No: K482913', 'Membership ID: QRS552', '4410 Birch Lane, Dayton, OH', 'Tracking #: 7P301X9Q', 'Promo code: SPRING15', 'Invoice #40917', 'lena.ortiz@example.org', 'Reservation under: Ortiz'];

/** A given and a family name. */
export function drawName(random: SeededRandom): { given: string; family: string } {
  return { given: pick(random, givenNames), family: pick(random, familyNames) };
}

/** A ten-digit phone number (AndroidWorld's random numbers have ten digits). */
export function drawPhoneNumber(random: SeededRandom): string {
  return `${random.int(2, 9)}${Array.from({ length: 9 }, () => random.int(0, 9)).join('')}`;
}

/** A sentence of ours. */
export function drawSentence(random: SeededRandom): string {
  return pick(random, sentences);
}

/** `count` distinct sentences. */
export function drawSentences(random: SeededRandom, count: number): string[] {
  return sample(random, sentences, count);
}

/** A file name such as `quiet_harbor_42.md`. */
export function drawFileName(random: SeededRandom, extensions: readonly string[] = ['.md', '.txt']): string {
  return `${pick(random, fileWords.adjectives)}_${pick(random, fileWords.nouns)}_${random.int(10, 99)}${pick(random, extensions)}`;
}

/** `count` distinct note titles from a fixed list of plausible ones. */
export function drawNoteTitles(random: SeededRandom, count: number): string[] {
  return sample(random, noteTitles, count);
}

/** A short random string of letters and digits (AndroidWorld names some notes `note_<5 characters>`). */
export function drawToken(random: SeededRandom, length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from({ length }, () => alphabet[random.int(0, alphabet.length - 1)]).join('');
}

/** A clipboard text of ours (an order number, an address, an e-mail address). */
export function drawClipboardText(random: SeededRandom): string {
  return pick(random, clipboardTexts);
}

/** Fills `{name}` placeholders of an AndroidWorld template; a placeholder without a value stays as it is. */
export function fillTemplate(template: string, params: TemplateParams): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (params[name] === undefined ? whole : String(params[name])));
}
