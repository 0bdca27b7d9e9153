import type { SeededRandom } from '../../util/seeded-random.js';
import { androidWorldFolders as folders, androidWorldPackages as packages, clearFolder, shell, writeFile } from './androidworld-device-steps.js';
import { pick, type TemplateParams } from './androidworld-params.js';
import { seedTable, tableRowsCheck, type AppTable, type SqlRow } from './androidworld-sqlite.js';
import type { AndroidWorldTemplate } from './androidworld-template.js';

/**
 * AndroidWorld's Broccoli templates (android_world/task_evals/single/recipe.py was read for
 * what they check): recipes are rows of the app's `recipes` table, written before the task
 * with noise rows; a delete task passes when exactly the other rows remain, an add task
 * when the new recipes are there (title, description, servings, preparation time,
 * ingredients, directions) and the others unchanged. Our recipes are made from our own
 * lists: a flavour and a main ingredient, cooked one way, with a side and a base.
 */

const table: AppTable = { packageName: packages.broccoli, database: '/data/data/com.flauschcode.broccoli/databases/broccoli', table: 'recipes' };

const flavours: Readonly<Record<string, string>> = { Lemon: 'lemon juice', Garlic: 'garlic', Smoky: 'smoked paprika', Herbed: 'fresh basil', Spicy: 'chili flakes', Honey: 'honey', Ginger: 'ginger' };
const mains: Readonly<Record<string, string>> = { Chicken: 'Sear the chicken', Tofu: 'Crisp the tofu', Salmon: 'Bake the salmon', Chickpeas: 'Roast the chickpeas', Mushrooms: 'Saute the mushrooms', Lentils: 'Simmer the lentils' };
const sides = ['onion', 'spinach', 'bell pepper', 'tomato', 'zucchini', 'carrot'];
const bases = ['rice', 'bread', 'quinoa', 'pasta', 'couscous'];
const descriptions = ['A weeknight dinner ready in no time.', 'Light, healthy and filling.', 'Good for cooking ahead and reheating.'];
const servings = ['1 serving', '2 servings', '3-4 servings', '6 servings'];
const prepTimes = ['10 mins', '20 mins', '30 mins', '45 mins', '1 hrs', '2 hrs'];
const ingredientNotes = ['see directions', 'to taste', 'as listed in the directions', 'adjust as you like'];

/** One recipe as the table stores it (the columns AndroidWorld compares). */
interface Recipe {
  readonly title: string;
  readonly description: string;
  readonly servings: string;
  readonly preparationTime: string;
  readonly ingredients: string;
  readonly directions: string;
}

const compared = ['title', 'description', 'servings', 'preparationTime', 'ingredients', 'directions'];

function drawRecipe(random: SeededRandom, title: string, main: string, flavour: string, options: { side?: string; prepTime?: string } = {}): Recipe {
  const side = options.side ?? pick(random, sides);
  const base = pick(random, bases);
  return {
    title,
    description: pick(random, descriptions),
    servings: pick(random, servings),
    preparationTime: options.prepTime ?? pick(random, prepTimes),
    ingredients: pick(random, ingredientNotes),
    directions: `${mains[main] ?? 'Cook the main ingredient'} with ${flavours[flavour] ?? 'salt'}, add the ${side}, and serve over ${base}.`,
  };
}

/** `count` recipes with distinct titles, none titled as in `avoid`, their side or time drawn as given. */
function drawRecipes(random: SeededRandom, count: number, options: { avoid?: readonly Recipe[]; side?: (random: SeededRandom) => string; prepTime?: (random: SeededRandom) => string } = {}): Recipe[] {
  const titles = Object.keys(flavours).flatMap((flavour) => Object.keys(mains).map((main) => ({ flavour, main, title: `${flavour} ${main}` })));
  const free = random.shuffle(titles.filter((entry) => !(options.avoid ?? []).some((taken) => taken.title === entry.title)));
  if (free.length < count) throw new RangeError(`only ${free.length} recipe titles left, ${count} wanted`);
  return free.slice(0, count).map((entry) => drawRecipe(random, entry.title, entry.main, entry.flavour, { ...(options.side === undefined ? {} : { side: options.side(random) }), ...(options.prepTime === undefined ? {} : { prepTime: options.prepTime(random) }) }));
}

function row(recipe: Recipe): SqlRow {
  return { ...recipe, source: '', favorite: 0 };
}

/** How an instruction or a Markor file lists recipes: one line each, the fields named. */
function describe(recipes: readonly Recipe[]): string {
  return recipes.map((recipe) => `${recipe.title} (description: ${recipe.description} servings: ${recipe.servings}; preparation time: ${recipe.preparationTime}; ingredients: ${recipe.ingredients}; directions: ${recipe.directions})`).join('\n');
}

const stored = (params: TemplateParams, key: string): Recipe[] => JSON.parse(String(params[key])) as Recipe[];
const paramsOf = (targets: readonly Recipe[], noise: readonly Recipe[], extra: TemplateParams = {}): TemplateParams => ({ ...extra, targets: JSON.stringify(targets), noise: JSON.stringify(noise) });

function deleteTemplate(targetCount: number, noiseCount: number): AndroidWorldTemplate {
  return {
    app: 'broccoli',
    params: (random) => {
      const recipes = drawRecipes(random, targetCount + noiseCount);
      const targets = recipes.slice(0, targetCount);
      return paramsOf(targets, recipes.slice(targetCount), { titles: targets.map((recipe) => recipe.title).join(', ') });
    },
    device: (params) => {
      const noise = stored(params, 'noise');
      return { start: seedTable(table, [...stored(params, 'targets'), ...noise].map(row)), adb: [tableRowsCheck(table, compared, noise.map(row))] };
    },
  };
}

/** RecipeDeleteMultipleRecipesWithConstraint: the recipes whose directions name the ingredient go. */
const withConstraint: AndroidWorldTemplate = {
  app: 'broccoli',
  params: (random) => {
    const ingredient = pick(random, sides);
    const targets = drawRecipes(random, 3, { side: () => ingredient });
    const noise = drawRecipes(random, 29, { avoid: targets, side: (inner) => pick(inner, sides.filter((side) => side !== ingredient)) });
    return paramsOf(targets, noise, { ingredient });
  },
  device: (params) => {
    const noise = stored(params, 'noise');
    return { start: seedTable(table, [...stored(params, 'targets'), ...noise].map(row)), adb: [tableRowsCheck(table, compared, noise.map(row))] };
  },
};

/** Delete all but one of exact duplicates; `variants` (at most 5) rows share the title with other servings and time, and stay. */
function duplicatesTemplate(noiseCount: number, variants: number): AndroidWorldTemplate {
  return {
    app: 'broccoli',
    params: (random) => {
      const [target, ...others] = drawRecipes(random, noiseCount + 1);
      if (target === undefined) throw new RangeError('no recipe drawn');
      const varied = Array.from({ length: variants }, (_, index) => ({ ...target, servings: servings[(servings.indexOf(target.servings) + 1 + (index % 3)) % servings.length] ?? target.servings, preparationTime: prepTimes[(prepTimes.indexOf(target.preparationTime) + 1 + index) % prepTimes.length] ?? target.preparationTime }));
      return paramsOf([target], [...others, ...varied]);
    },
    device: (params) => {
      const [target] = stored(params, 'targets');
      const noise = stored(params, 'noise');
      const wanted = target === undefined ? noise : [...noise, target];
      return { start: seedTable(table, (target === undefined ? noise : [target, target, ...noise]).map(row)), adb: [tableRowsCheck(table, compared, wanted.map(row))] };
    },
  };
}

function addTemplate(targetCount: number, noiseCount: number): AndroidWorldTemplate {
  return {
    app: 'broccoli',
    params: (random) => {
      const targets = drawRecipes(random, targetCount);
      const noise = drawRecipes(random, noiseCount, { avoid: targets });
      return paramsOf(targets, noise, { [targetCount === 1 ? 'recipe' : 'recipes']: describe(targets) });
    },
    device: (params) => {
      const noise = stored(params, 'noise');
      return { start: seedTable(table, noise.map(row)), adb: [tableRowsCheck(table, compared, [...noise, ...stored(params, 'targets')].map(row))] };
    },
  };
}

/**
 * The recipes to add are in Markor's recipes.txt. The second variant puts the noise recipes
 * (already in the app, each taking another time) in the file too, and asks for those that
 * take the drawn time.
 */
function fromMarkorTemplate(variant: 1 | 2): AndroidWorldTemplate {
  return {
    app: 'broccoli',
    also: ['markor'],
    params: (random) => {
      const prepTime = pick(random, prepTimes);
      const targets = drawRecipes(random, 3, { prepTime: () => prepTime });
      const noise = drawRecipes(random, variant === 1 ? 10 : 29, { avoid: targets, prepTime: (inner) => pick(inner, prepTimes.filter((time) => time !== prepTime)) });
      return paramsOf(targets, noise, { ...(variant === 1 ? {} : { prep_time: prepTime }), file: describe(variant === 1 ? targets : random.shuffle([...targets, ...noise])) });
    },
    device: (params) => {
      const noise = stored(params, 'noise');
      return {
        start: [...seedTable(table, noise.map(row)), shell(`am force-stop ${packages.markor}`), ...clearFolder(folders.markor), writeFile(`${folders.markor}/recipes.txt`, String(params['file']))],
        adb: [tableRowsCheck(table, compared, [...noise, ...stored(params, 'targets')].map(row))],
      };
    },
  };
}

/** The Broccoli templates whose check is expressed, by AndroidWorld's class name. */
export const recipeTemplates: Readonly<Record<string, AndroidWorldTemplate>> = {
  RecipeDeleteSingleRecipe: deleteTemplate(1, 0),
  RecipeDeleteSingleWithRecipeWithNoise: deleteTemplate(1, 29),
  RecipeDeleteMultipleRecipes: deleteTemplate(3, 0),
  RecipeDeleteMultipleRecipesWithNoise: deleteTemplate(3, 29),
  RecipeDeleteMultipleRecipesWithConstraint: withConstraint,
  RecipeDeleteDuplicateRecipes: duplicatesTemplate(5, 0),
  RecipeDeleteDuplicateRecipes2: duplicatesTemplate(6, 4),
  RecipeDeleteDuplicateRecipes3: duplicatesTemplate(24, 5),
  RecipeAddSingleRecipe: addTemplate(1, 10),
  RecipeAddMultipleRecipes: addTemplate(3, 10),
  RecipeAddMultipleRecipesFromMarkor: fromMarkorTemplate(1),
  RecipeAddMultipleRecipesFromMarkor2: fromMarkorTemplate(2),
};
