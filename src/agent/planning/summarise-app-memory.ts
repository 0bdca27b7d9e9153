import { renderAppMemory, type AppMemory, type TokenCounter } from '../../memory/app-memory.js';
import type { LanguageModel } from '../../model/language-model.js';

/** Most tokens a kept summary may have: it replaces the map's route lines in a planner hint. */
export const appSummaryBudgetTokens = 160;

/** Below this many tokens the map is given to the planner as it is: compressing it saves nothing worth a call. */
export const minMapTokensToSummarise = 240;

/** What became of one app's map: a summary kept beside it, or why none was. */
export type AppSummaryOutcome =
  | { readonly kept: true; readonly app: string; readonly mapTokens: number; readonly tokens: number; readonly model: string }
  | { readonly kept: false; readonly app: string; readonly mapTokens: number; readonly reason: string; readonly called: boolean };

export interface SummariseAppMemoryOptions {
  readonly memory: AppMemory;
  readonly packageName: string;
  /** The certifier role's model (docs/architecture.md §2.8: a template is always written; a model may compress it). */
  readonly certifier: LanguageModel;
  readonly countTokens: TokenCounter;
  readonly budgetTokens?: number;
  readonly minMapTokens?: number;
  readonly signal?: AbortSignal;
}

const instructions = [
  'You compress the map of one Android app for a planner that will operate it.',
  'Write at most a few short sentences: which page holds which function and which control leads there.',
  'Name pages and controls exactly as the map writes them, in double quotes; invent nothing the map does not say.',
  'Reply with the summary text only.',
].join(' ');

/** Quoted names in a summary ("Display", “Dark theme”), to check against the map. */
function quotedNames(text: string): string[] {
  return [...text.matchAll(/"([^"]+)"|“([^”]+)”/g)].map((match) => (match[1] ?? match[2] ?? '').trim()).filter((name) => name !== '');
}

/**
 * Asks the certifier model to compress one app's map and keeps the summary beside the map
 * (never instead of it) only when it checks out: not empty, within the token budget,
 * shorter than the map, and every name it quotes is one the map holds — a summary that
 * names a control nobody verified would send the planner after something that is not there.
 * A map small enough to give as it is costs no call. A failed call is reported, not
 * thrown: the task it follows has already been judged.
 */
export async function summariseAppMemory(options: SummariseAppMemoryOptions): Promise<AppSummaryOutcome> {
  const app = options.packageName;
  const file = options.memory.get(app);
  if (!file) return { kept: false, app, mapTokens: 0, reason: 'the memory holds nothing for this app', called: false };
  const map = renderAppMemory(file);
  const mapTokens = options.countTokens(map);
  if (mapTokens < (options.minMapTokens ?? minMapTokensToSummarise)) {
    return { kept: false, app, mapTokens, reason: `the map is small (${mapTokens} tokens); it is given as it is`, called: false };
  }
  const budget = options.budgetTokens ?? appSummaryBudgetTokens;
  let text: string;
  try {
    const reply = await options.certifier.generate({
      role: 'certifier',
      messages: [{ role: 'system', content: `${instructions} At most ${budget} tokens.` }, { role: 'user', content: map }],
      ...(options.signal ? { signal: options.signal } : {}),
    });
    text = reply.text.trim();
  } catch (error) {
    return { kept: false, app, mapTokens, reason: `the certifier call failed: ${error instanceof Error ? error.message : String(error)}`, called: true };
  }
  const reject = (reason: string): AppSummaryOutcome => ({ kept: false, app, mapTokens, reason, called: true });
  if (text === '') return reject('the certifier replied with nothing');
  const tokens = options.countTokens(text);
  if (tokens > budget) return reject(`the summary has ${tokens} tokens, over the budget of ${budget}`);
  if (tokens >= mapTokens) return reject(`the summary (${tokens} tokens) is not shorter than the map (${mapTokens})`);
  const unknown = quotedNames(text).find((name) => !map.includes(name));
  if (unknown !== undefined) return reject(`the summary names ${JSON.stringify(unknown)}, which the map does not hold`);
  const model = options.certifier.modelName('certifier');
  await options.memory.setSummary(app, { text, model, tokens });
  return { kept: true, app, mapTokens, tokens, model };
}
