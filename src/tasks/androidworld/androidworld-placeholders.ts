import type { SeededRandom } from '../../util/seeded-random.js';
import { drawFileName, drawName, pick, sample } from './androidworld-params.js';

/**
 * Values for the placeholders of templates whose check we do not express (see
 * `uncovered` in the suite): the instruction still reads whole, with a value of the kind
 * AndroidWorld draws (a date, an event title, a recipe), so a person or a model judge can
 * run it. Keyed by placeholder name; `undefined` for a name no rule knows.
 */
export function drawPlaceholder(name: string, random: SeededRandom): string | number | undefined {
  const person = (): string => {
    const drawn = drawName(random);
    return `${drawn.given} ${drawn.family}`;
  };
  const dayOfMonth = random.int(16, 28);
  switch (name) {
    case 'date':
      return pick(random, ['today', 'tomorrow', `on October ${dayOfMonth} 2023`, `on Oct ${dayOfMonth}`]);
    case 'start_date':
      return 'October 9 2023';
    case 'end_date':
      return 'October 15 2023';
    case 'time':
    case 'start_time':
      return pick(random, ['9am', '10am', '1pm', '3pm', '5pm']);
    case 'year':
      return 2023;
    case 'month':
      return 10;
    case 'day':
      return dayOfMonth;
    case 'hour':
      return random.int(8, 20);
    case 'duration_mins':
      return pick(random, [15, 30, 45, 60, 90]);
    case 'day_of_week':
      return pick(random, ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']);
    case 'repeat_rule':
      return pick(random, ['daily', 'weekly', 'monthly', 'yearly']);
    case 'event_title':
    case 'title':
      return pick(random, ['Budget review', 'Dentist appointment', 'Team standup', 'Book club', 'Project kickoff', 'Yoga class']);
    case 'event_description':
      return pick(random, ['Bring the printed agenda.', 'Discuss the next steps.', 'Meet at the front desk.']);
    case 'person':
    case 'name':
    case 'name1':
    case 'name2':
      return person();
    case 'category':
      return pick(random, ['running', 'cycling', 'walking', 'hiking', 'swimming']);
    case 'folder':
      return pick(random, ['Home', 'Work', 'Errands']);
    case 'ingredient':
      return pick(random, ['garlic', 'ginger', 'basil', 'lemon', 'paprika']);
    case 'prep_time':
      return pick(random, ['10 mins', '20 mins', '30 mins', '45 mins']);
    case 'location':
      return pick(random, ['Vaduz, Liechtenstein', 'Schaan, Liechtenstein', 'Balzers, Liechtenstein', 'Triesen, Liechtenstein']);
    case 'expense':
      return `${pick(random, ['Groceries', 'Taxi', 'Concert ticket', 'Haircut'])}, amount: ${random.int(5, 90)}.00, category: Others`;
    case 'expenses':
      return sample(random, ['Groceries', 'Taxi', 'Concert ticket', 'Haircut', 'Lunch'], 3).map((item) => `${item} (${random.int(5, 90)}.00)`).join(', ');
    case 'recipe':
    case 'recipes':
    case 'titles':
      return sample(random, ['Lentil soup', 'Garlic noodles', 'Banana bread', 'Chickpea salad', 'Tomato risotto'], name === 'recipe' ? 1 : 2).join(', ');
    case 'playlist_name':
    case 'playlist_name1':
    case 'playlist_name2':
      return `${pick(random, ['Road trip', 'Focus', 'Morning run', 'Evening chill'])} ${random.int(10, 99)}`;
    case 'names':
    case 'files':
    case 'files1':
      return sample(random, ['Clip one.mp4', 'Clip two.mp4', 'Clip three.mp4', 'Clip four.mp4'], 2).join(', ');
    case 'file_name':
      return drawFileName(random, ['.jpg', '.png']);
    case 'video_name':
      return `clip_${random.int(100, 999)}.mp4`;
    default:
      return undefined;
  }
}
