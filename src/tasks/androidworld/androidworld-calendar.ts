import type { SeededRandom } from '../../util/seeded-random.js';
import type { Answer } from '../task-schema.js';
import { androidWorldPackages as packages } from './androidworld-device-steps.js';
import { pick, sample, type TemplateParams } from './androidworld-params.js';
import { fixDeviceClock, seedTable, tableRowsCheck, type AppTable, type SqlRow } from './androidworld-sqlite.js';
import type { AndroidWorldTemplate, DevicePart } from './androidworld-template.js';

/**
 * AndroidWorld's Simple Calendar Pro templates (android_world/task_evals/single/calendar and
 * the calendar tasks of information_retrieval were read for what they check). The device
 * clock is AndroidWorld's, Sunday October 15 2023 15:34 UTC, so "tomorrow" and "this
 * Friday" mean what they mean there; the events are rows of the app's `events` table
 * (times in seconds, UTC). An add or delete task passes when exactly the right rows are
 * there (start, end, title, location, description, repetition); a question task's answer is
 * read from the rows we wrote. Titles and descriptions are drawn from our lists.
 */

const table: AppTable = { packageName: packages.calendar, database: '/data/data/com.simplemobiletools.calendar.pro/databases/events.db', table: 'events' };

const titleStarts = ['Review of', 'Planning for', 'Workshop on', 'Sync on'];
const subjects = ['the budget', 'the website launch', 'the quarterly report', 'the garden project', 'the hiring plan', 'the trip itinerary', 'the product demo', 'the fundraiser'];
const people = ['Amara', 'Bruno', 'Chloe', 'Dmitri', 'Elena', 'Farid', 'Greta', 'Hiro'];
const actions = ['go over', 'agree on', 'sketch', 'decide on'];
const places = ['Room 4B', 'City Library', 'Cafe Lumen', 'Community Hall', 'Studio 2'];
const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** One event as the table stores it (what the tasks compare). */
interface CalendarEvent {
  /** Seconds since the epoch, UTC. */
  readonly start_ts: number;
  readonly end_ts: number;
  readonly title: string;
  readonly description: string;
  readonly location: string;
  /** Seconds between repetitions (0: none). */
  readonly repeat_interval: number;
  /** For weekly repetitions, the app's weekday bits (Monday 1, Tuesday 2, … Sunday 64). */
  readonly repeat_rule: number;
}

const compared = ['start_ts', 'end_ts', 'title', 'location', 'description', 'repeat_interval', 'repeat_rule'];

/** October `day`, 2023, `hour`:`minute` UTC, in seconds. */
function october(day: number, hour: number, minute = 0): number {
  return Date.UTC(2023, 9, day, hour, minute) / 1000;
}

function dayOf(event: CalendarEvent): number {
  return new Date(event.start_ts * 1000).getUTCDate();
}

function hourOf(event: CalendarEvent): number {
  return new Date(event.start_ts * 1000).getUTCHours();
}

function drawTitle(random: SeededRandom): string {
  return random.next() < 0.3 ? `Meeting with ${pick(random, people)}` : `${pick(random, titleStarts)} ${pick(random, subjects)}`;
}

function drawEvent(random: SeededRandom, day: number, hour = random.int(0, 23), title = drawTitle(random)): CalendarEvent {
  const start = october(day, hour);
  return { start_ts: start, end_ts: start + pick(random, [15, 30, 45, 60]) * 60, title, description: `We will ${pick(random, actions)} ${pick(random, subjects)}.`, location: '', repeat_interval: 0, repeat_rule: 0 };
}

/** One event per October day and hour given, their titles distinct. */
function drawEvents(random: SeededRandom, slots: readonly (readonly [number, number])[]): CalendarEvent[] {
  const events: CalendarEvent[] = [];
  for (const [day, hour] of slots) {
    let event = drawEvent(random, day, hour);
    while (events.some((taken) => taken.title === event.title)) event = drawEvent(random, day, hour);
    events.push(event);
  }
  return events;
}

/** `count` events on October days from `days` at any hour, their titles other than `avoid`'s. */
function drawNoise(random: SeededRandom, count: number, days: readonly number[], avoid: readonly CalendarEvent[]): CalendarEvent[] {
  const noise: CalendarEvent[] = [];
  while (noise.length < count) {
    const event = drawEvent(random, pick(random, days));
    if (![...avoid, ...noise].some((taken) => taken.title === event.title || taken.start_ts === event.start_ts)) noise.push(event);
  }
  return noise;
}

/** The rest of the columns, as the app writes them for an event without reminders or attendees. */
function row(event: CalendarEvent): SqlRow {
  return {
    ...event,
    reminder_1_minutes: -1, reminder_2_minutes: -1, reminder_3_minutes: -1, reminder_1_type: 0, reminder_2_type: 0, reminder_3_type: 0,
    repeat_limit: 0, repetition_exceptions: '[]', attendees: '', import_id: '', time_zone: 'UTC', flags: 0, event_type: 1, parent_id: 0,
    last_updated: 0, source: 'imported-ics', availability: 0, color: 0, type: 0,
  };
}

const octoberDays = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, index) => from + index);
const stored = (params: TemplateParams, key: string): CalendarEvent[] => JSON.parse(String(params[key])) as CalendarEvent[];
const start = (events: readonly CalendarEvent[]) => [...fixDeviceClock(), ...seedTable(table, events.map(row))];

/** The placeholders AndroidWorld fills for one event. */
function eventParams(event: CalendarEvent): TemplateParams {
  return { year: 2023, month: 10, day: dayOf(event), hour: hourOf(event), duration_mins: (event.end_ts - event.start_ts) / 60, event_title: event.title, event_description: event.description, day_of_week: weekdays[new Date(event.start_ts * 1000).getUTCDay()] ?? '' };
}

function addTemplate(days: readonly number[], repeating = false): AndroidWorldTemplate {
  return {
    app: 'calendar',
    params: (random) => {
      let target = drawEvent(random, pick(random, days));
      let rule: TemplateParams = {};
      if (repeating) {
        const weekly = random.next() < 0.5;
        const isoWeekday = ((new Date(target.start_ts * 1000).getUTCDay() + 6) % 7) + 1;
        target = { ...target, repeat_interval: weekly ? 604800 : 86400, repeat_rule: weekly ? 1 << (isoWeekday - 1) : 0 };
        rule = { repeat_rule: weekly ? 'weekly' : 'daily' };
      }
      const noise = drawNoise(random, random.int(0, 20), octoberDays(1, 31), [target]);
      return { ...eventParams(target), ...rule, targets: JSON.stringify([target]), noise: JSON.stringify(noise) };
    },
    device: (params) => {
      const noise = stored(params, 'noise');
      return { start: start(noise), adb: [tableRowsCheck(table, compared, [...noise, ...stored(params, 'targets')].map(row))] };
    },
  };
}

function deleteTemplate(days: readonly number[], count: number): AndroidWorldTemplate {
  return {
    app: 'calendar',
    params: (random) => {
      const day = pick(random, days);
      const targets: CalendarEvent[] = [];
      for (const hour of sample(random, octoberDays(0, 23), count)) targets.push(drawEvent(random, day, hour));
      const noise = drawNoise(random, 20, octoberDays(1, 31).filter((other) => other !== day), targets);
      const [first] = targets;
      return { ...(first === undefined ? {} : eventParams(first)), targets: JSON.stringify(targets), noise: JSON.stringify(noise) };
    },
    device: (params) => {
      const noise = stored(params, 'noise');
      return { start: start([...stored(params, 'targets'), ...noise]), adb: [tableRowsCheck(table, compared, noise.map(row))] };
    },
  };
}

/** Every order of up to three titles, comma separated (the instruction asks for a comma separated list). */
function titleAnswers(titles: readonly string[]): string[] {
  if (titles.length <= 1) return [...titles];
  return titles.flatMap((title, index) => titleAnswers([...titles.slice(0, index), ...titles.slice(index + 1)]).map((rest) => `${title}, ${rest}`));
}

function answer(expected: readonly string[], notes: string): Answer {
  return { expected: [...expected] as [string, ...string[]], judge: 'model', notes };
}

/** A question over events: the rows to write, the placeholders, the true answer. */
interface Question {
  readonly events: readonly CalendarEvent[];
  readonly params: TemplateParams;
  readonly expected: readonly string[];
  readonly notes: string;
}

function questionTemplate(draw: (random: SeededRandom) => Question): AndroidWorldTemplate {
  return {
    app: 'calendar',
    params: (random) => {
      const question = draw(random);
      return { ...question.params, events: JSON.stringify(question.events), expected: JSON.stringify(question.expected), notes: question.notes };
    },
    device: (params): DevicePart => ({ start: start(stored(params, 'events')), answer: answer(JSON.parse(String(params['expected'])) as string[], String(params['notes'])) }),
  };
}

/** A date as the questions name it, and its October day. */
function drawDate(random: SeededRandom): { phrase: string; day: number } {
  const day = random.int(16, 31);
  return pick(random, [{ phrase: 'tomorrow', day: 16 }, { phrase: `on October ${day} 2023`, day }, { phrase: `on ${weekdays[new Date(october(day, 12) * 1000).getUTCDay()]}, October ${day}`, day }]);
}

const hourText = (hour: number): string => (hour === 0 ? '12am' : hour < 12 ? `${hour}am` : hour === 12 ? '12pm' : `${hour - 12}pm`);

const questions: Readonly<Record<string, (random: SeededRandom) => Question>> = {
  SimpleCalendarEventsOnDate: (random) => {
    const date = drawDate(random);
    const [first, second] = sample(random, octoberDays(8, 21), 2);
    const targets = drawEvents(random, [[date.day, first ?? 9], [date.day, second ?? 15]]);
    const events = [...targets, ...drawNoise(random, 8, octoberDays(1, 31).filter((day) => day !== date.day), targets)];
    return { events, params: { date: date.phrase }, expected: titleAnswers(targets.map((event) => event.title)), notes: 'the titles of the two events of that day, in any order' };
  },
  SimpleCalendarAnyEventsOnDate: (random) => {
    const date = drawDate(random);
    const target = drawEvent(random, date.day, random.int(8, 21));
    const events = [target, ...drawNoise(random, 8, octoberDays(1, 31).filter((day) => day !== date.day), [target])];
    return { events, params: { date: date.phrase }, expected: [target.title], notes: 'the one event of that day' };
  },
  SimpleCalendarEventOnDateAtTime: (random) => {
    const date = drawDate(random);
    const [hour = 14, ...others] = sample(random, octoberDays(8, 20), 3);
    const [target, ...sameDay] = drawEvents(random, [hour, ...others].map((each) => [date.day, each] as const));
    if (target === undefined) throw new RangeError('no event drawn');
    const events = [target, ...sameDay, ...drawNoise(random, 6, octoberDays(1, 31).filter((day) => day !== date.day), [target, ...sameDay])];
    return { events, params: { date: date.phrase.replace(/^on /, ''), time: hourText(hour) }, expected: [target.title], notes: 'the event that starts at that hour that day' };
  },
  SimpleCalendarEventsInNextWeek: (random) => {
    const [first = 17, second = 20] = sample(random, octoberDays(16, 22), 2);
    const targets = drawEvents(random, [[first, random.int(0, 23)], [second, random.int(0, 23)]]);
    const events = [...targets, ...drawNoise(random, 8, [...octoberDays(1, 14), ...octoberDays(23, 31)], targets)];
    return { events, params: {}, expected: titleAnswers(targets.map((event) => event.title)), notes: 'the two events from Monday October 16 to Sunday October 22 2023, in any order' };
  },
  SimpleCalendarEventsInTimeRange: (random) => {
    const date = drawDate(random);
    const from = random.int(13, 17);
    const [inside, ...outside] = drawEvents(random, [[date.day, random.int(from, 19)], [date.day, random.int(6, from - 1)], [date.day, random.int(21, 23)]]);
    if (inside === undefined) throw new RangeError('no event drawn');
    const events = [inside, ...outside, ...drawNoise(random, 6, octoberDays(1, 31).filter((day) => day !== date.day), [inside, ...outside])];
    return { events, params: { start_time: hourText(from), date: date.phrase }, expected: [inside.title], notes: 'the one event that starts in that range that day' };
  },
  SimpleCalendarFirstEventAfterStartTime: (random) => {
    const date = drawDate(random);
    const time = random.int(10, 16);
    const sameDay = drawEvents(random, [[date.day, time + 1], [date.day, time - random.int(1, 3)], [date.day, time + random.int(3, 6)]]);
    const events = [...sameDay, ...drawNoise(random, 6, octoberDays(1, 31).filter((day) => day !== date.day), sameDay)];
    return { events, params: { time: hourText(time), date: date.phrase }, expected: [sameDay[0]?.title ?? ''], notes: 'the first event of that day that starts after that time' };
  },
  SimpleCalendarLocationOfEvent: (random) => {
    const target = { ...drawEvent(random, random.int(16, 31), random.int(8, 20)), location: pick(random, places) };
    const events = [target, ...drawNoise(random, 8, octoberDays(1, 31), [target])];
    return { events, params: { title: target.title }, expected: [target.location], notes: 'the location of that event' };
  },
  SimpleCalendarNextEvent: (random) => {
    const next = drawEvent(random, 15, random.int(16, 21));
    const later = drawNoise(random, 6, octoberDays(16, 31), [next]);
    const earlier = drawNoise(random, 4, octoberDays(1, 14), [next, ...later]);
    return { events: [next, ...later, ...earlier], params: {}, expected: [next.title], notes: 'the first event after Sunday October 15 2023 15:34' };
  },
  SimpleCalendarNextMeetingWithPerson: (random) => {
    const person = pick(random, people);
    const hour = random.int(8, 18);
    const day = random.int(16, 31);
    const next = drawEvent(random, day, hour, `Meeting with ${person}`);
    const past = drawEvent(random, random.int(1, 14), hour, `Meeting with ${person}`);
    const others = drawNoise(random, 8, octoberDays(1, 31), [next, past]).filter((event) => !event.title.includes(person));
    return { events: [next, past, ...others], params: { person }, expected: [...new Set([`${months[9]} ${day} 2023 ${hour}:00`, `${months[9]} ${day} 2023 ${String(hour).padStart(2, '0')}:00`])], notes: 'the date and start time of the next meeting with that person' };
  },
};

/** The Simple Calendar Pro templates, by AndroidWorld's class name. */
export const calendarTemplates: Readonly<Record<string, AndroidWorldTemplate>> = {
  SimpleCalendarAddOneEvent: addTemplate(octoberDays(15, 31)),
  SimpleCalendarAddOneEventRelativeDay: addTemplate(octoberDays(16, 21)),
  SimpleCalendarAddOneEventTomorrow: addTemplate([16]),
  SimpleCalendarAddOneEventInTwoWeeks: addTemplate([29]),
  SimpleCalendarAddRepeatingEvent: addTemplate(octoberDays(15, 31), true),
  SimpleCalendarDeleteEvents: deleteTemplate(octoberDays(15, 31), 3),
  SimpleCalendarDeleteOneEvent: deleteTemplate(octoberDays(15, 31), 1),
  SimpleCalendarDeleteEventsOnRelativeDay: deleteTemplate(octoberDays(16, 21), 2),
  ...Object.fromEntries(Object.entries(questions).map(([name, draw]) => [name, questionTemplate(draw)])),
};
