import type { SeededRandom } from '../../util/seeded-random.js';
import { androidWorldPackages as packages } from './androidworld-device-steps.js';
import { pick, sample, type TemplateParams } from './androidworld-params.js';
import { fixDeviceClock, seedTable, type AppTable, type SqlRow } from './androidworld-sqlite.js';
import type { AndroidWorldTemplate } from './androidworld-template.js';

/**
 * AndroidWorld's OpenTracks templates, all questions (the sports-tracker part of
 * android_world/task_evals/information_retrieval was read for what they ask): the activities
 * are rows of the app's `tracks` table (times in ms, UTC; distance in meters, a whole number
 * of hundredths of a mile as the app shows it), written with AndroidWorld's device clock
 * (Sunday October 15 2023 15:34 UTC; "this week" is Monday October 9 to that moment); the
 * true answer is computed from those rows. Names are ours.
 */

const table: AppTable = { packageName: packages.openTracks, database: '/data/data/de.dennisguse.opentracks/databases/database.db', table: 'tracks' };
const categories = ['running', 'cycling', 'walking', 'hiking', 'swimming'];
const namePrefixes = ['Morning', 'Evening', 'Lunchtime', 'Weekend', 'Easy'];

/** One activity (what the questions read). */
interface Activity {
  readonly name: string;
  readonly category: string;
  /** Start, ms since the epoch (UTC). */
  readonly starttime: number;
  readonly minutes: number;
  readonly meters: number;
}

function row(activity: Activity): SqlRow {
  const totaltime = activity.minutes * 60_000;
  const speed = activity.meters / (totaltime / 1000);
  return {
    name: activity.name, description: '', category: activity.category, activity_type: activity.category, starttime: activity.starttime, stoptime: activity.starttime + totaltime,
    numpoints: 0, totaldistance: activity.meters, totaltime, movingtime: totaltime, avgspeed: speed, avgmovingspeed: speed, maxspeed: 0, minelevation: 0, maxelevation: 0,
    elevationgain: 0, uuid: { sql: 'randomblob(16)' }, elevationloss: 0, starttime_offset: 0,
  };
}

/** An activity of `category` on October `day` (a morning hour, before the device's 15:34 on the 15th). */
function drawActivity(random: SeededRandom, category: string, day: number): Activity {
  const miles = random.int(50, 1500) / 100;
  return { name: `${pick(random, namePrefixes)} ${category}`, category, starttime: Date.UTC(2023, 9, day, random.int(6, 11), pick(random, [0, 15, 30, 45])), minutes: random.int(15, 120), meters: Math.round(miles * 1609.344) };
}

const otherCategory = (random: SeededRandom, category: string): string => pick(random, categories.filter((each) => each !== category));
const days = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, index) => from + index);
const thisWeek = days(9, 15);
const before = days(1, 8);

interface Question {
  readonly activities: readonly Activity[];
  readonly params: TemplateParams;
  readonly expected: readonly string[];
  readonly notes: string;
}

function questionTemplate(draw: (random: SeededRandom) => Question): AndroidWorldTemplate {
  return {
    app: 'openTracks',
    params: (random) => {
      const question = draw(random);
      return { ...question.params, activities: JSON.stringify(question.activities), expected: JSON.stringify(question.expected), notes: question.notes };
    },
    device: (params) => ({
      start: [...fixDeviceClock(), ...seedTable(table, (JSON.parse(String(params['activities'])) as Activity[]).map(row))],
      answer: { expected: JSON.parse(String(params['expected'])) as [string, ...string[]], judge: 'model', notes: String(params['notes']) },
    }),
  };
}

/** Activities of other categories any day this month before the device's date, as noise. */
function noise(random: SeededRandom, category: string, count: number): Activity[] {
  return Array.from({ length: count }, () => drawActivity(random, otherCategory(random, category), random.int(1, 15)));
}

const questions: Readonly<Record<string, (random: SeededRandom) => Question>> = {
  SportsTrackerActivitiesCountForWeek: (random) => {
    const category = pick(random, categories);
    const count = random.int(2, 4);
    const activities = [...sample(random, thisWeek, count).map((day) => drawActivity(random, category, day)), ...sample(random, before, 2).map((day) => drawActivity(random, category, day)), ...noise(random, category, 6)];
    return { activities, params: { category }, expected: [String(count)], notes: `the number of ${category} activities from Monday October 9 to Sunday October 15 2023` };
  },
  SportsTrackerActivitiesOnDate: (random) => {
    const day = random.int(2, 14);
    const [first = 'running', second = 'cycling'] = sample(random, categories, 2);
    const onDay = [drawActivity(random, first, day), drawActivity(random, second, day)];
    const activities = [...onDay, ...Array.from({ length: 8 }, () => drawActivity(random, pick(random, categories), pick(random, days(1, 15).filter((other) => other !== day))))];
    return { activities, params: { date: `on October ${day} 2023` }, expected: [`${first}, ${second}`, `${second}, ${first}`], notes: 'the categories of the two activities of that day, in any order' };
  },
  SportsTrackerActivityDuration: (random) => {
    const category = pick(random, categories);
    const day = random.int(2, 14);
    const target = drawActivity(random, category, day);
    const activities = [target, ...sample(random, days(1, 15).filter((other) => other !== day), 3).map((other) => drawActivity(random, category, other)), ...noise(random, category, 5)];
    return { activities, params: { category, date: `on October ${day} 2023` }, expected: [String(target.minutes)], notes: 'the duration of that activity in minutes' };
  },
  SportsTrackerLongestDistanceActivity: (random) => {
    const category = pick(random, categories);
    const week = sample(random, thisWeek, 3).map((day) => drawActivity(random, category, day));
    const longest = Math.max(...week.map((activity) => activity.meters));
    const earlier = sample(random, before, 2).map((day) => ({ ...drawActivity(random, category, day), meters: longest + random.int(100, 2000) }));
    const others = noise(random, category, 6).map((activity) => ({ ...activity, meters: longest + random.int(100, 2000) }));
    return { activities: [...week, ...earlier, ...others], params: { category }, expected: [String(longest)], notes: `the longest distance in meters of a ${category} activity from Monday October 9 to Sunday October 15 2023` };
  },
  SportsTrackerTotalDistanceForCategoryOverInterval: (random) => {
    const category = pick(random, categories);
    const from = random.int(2, 6);
    const to = from + random.int(3, 7);
    const inside = sample(random, days(from, to), 3).map((day) => drawActivity(random, category, day));
    const outside = [drawActivity(random, category, from - 1), drawActivity(random, category, Math.min(15, to + 1))];
    const total = inside.reduce((sum, activity) => sum + activity.meters, 0);
    return { activities: [...inside, ...outside, ...noise(random, category, 5)], params: { category, start_date: `October ${from} 2023`, end_date: `October ${to} 2023` }, expected: [String(total)], notes: 'the sum of the distances in meters' };
  },
  SportsTrackerTotalDurationForCategoryThisWeek: (random) => {
    const category = pick(random, categories);
    const week = sample(random, thisWeek, random.int(2, 3)).map((day) => drawActivity(random, category, day));
    const total = week.reduce((sum, activity) => sum + activity.minutes, 0);
    return { activities: [...week, ...sample(random, before, 2).map((day) => drawActivity(random, category, day)), ...noise(random, category, 5)], params: { category }, expected: [String(total)], notes: `the total minutes of ${category} activities from Monday October 9 to Sunday October 15 2023` };
  },
};

/** The OpenTracks templates, by AndroidWorld's class name. */
export const openTracksTemplates: Readonly<Record<string, AndroidWorldTemplate>> = Object.fromEntries(Object.entries(questions).map(([name, draw]) => [name, questionTemplate(draw)]));
