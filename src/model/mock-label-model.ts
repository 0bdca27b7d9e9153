import { isSchema } from './json-schema.js';
import type { MockChatRequest } from './mock-openai-server.js';

/** One unit line of the view (`[n3a5d] click "Display" — "Dark theme, font size"`). */
interface ViewUnit {
  readonly id: string;
  readonly type: string;
  readonly label: string;
  readonly detail: string;
  readonly checked: boolean | undefined;
  readonly disabled: boolean;
}

/** Words of a task that name no screen element. */
const fillerWords = new Set(['turn', 'the', 'my', 'phone', 'show', 'how', 'much', 'does', 'use', 'what', 'open', 'and', 'for', 'with', 'set', 'status', 'bar']);

/** What the stand-in knows of where things are: a task word and the labels that lead to it. */
const relatedWords: Readonly<Record<string, readonly string[]>> = { airplane: ['network'], stopwatch: ['start'] };

/**
 * The answer of a "model" that reads the view in the prompt and picks the unit whose label
 * best matches the task's words: a stand-in for a weak but honest real model, for the
 * loopback mock server (`scripts/mock-openai-server.ts --model label-match`). It never
 * sees the device or the task's solution, only the request, so it fails where such a
 * model fails. Answers by the requested schema (`response_format.json_schema.name`):
 * PlanReply and ReactReply pick a unit (a toggle set on, a row opened, the view scrolled
 * once when nothing matches, FINISH once the matching toggle is on or nothing is left);
 * VerifierReply passes; VisionReply locates nothing; AnswerVerdict compares the answer
 * with the accepted ones by their words.
 */
export function labelMatchAnswer(request: MockChatRequest): Record<string, unknown> {
  const name = schemaName(request);
  const text = request.texts.join('\n');
  if (name === 'VerifierReply') return { verdict: 'pass', reason: 'the expected change shows on the screen' };
  if (name === 'VisionReply') return { unit: null, reason: 'no region matches', alreadyDone: false };
  if (name === 'AnswerVerdict') return judgeAnswer(text);
  const react = name === 'ReactReply';
  const choice = chooseUnit(text);
  if (react) {
    if (choice.finish) return { thought: choice.intent, action: null, finish: true, ...(choice.answer === undefined ? {} : { answer: choice.answer }) };
    return { thought: choice.intent, action: choice.item, finish: false };
  }
  if (choice.finish) return { intent: choice.intent, finish: true, ...(choice.answer === undefined ? {} : { answer: choice.answer }) };
  return { intent: choice.intent, commitment: [choice.item] };
}

type Choice =
  | { readonly finish: true; readonly intent: string; readonly answer?: string }
  | { readonly finish: false; readonly intent: string; readonly item: Record<string, unknown> };

function chooseUnit(text: string): Choice {
  // The user message's own line: the system text may name a key ending in "Task:" (completesTask).
  const task = /^Task: (.*)/m.exec(text)?.[1] ?? '';
  const history = /(?:Intent history|Previous actions):\n([\s\S]*?)(?:\n\n|<screen>|$)/.exec(text)?.[1] ?? '';
  const screen = [...text.matchAll(/<screen>\n([\s\S]*?)\n<\/screen>/g)].at(-1)?.[1] ?? '';
  const units = viewUnits(screen);
  const words = taskWords(task);
  const question = /^(how|what|which|when|where|is|are|does)\b/i.test(task.trim());
  const scored = units
    .filter((unit) => unit.type !== 'scroll' && !unit.disabled)
    .map((unit) => ({ unit, score: matchScore(words, unit.label) * 2 + matchScore(words, unit.detail) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score);
  const best = scored.find((entry) => !history.includes(`"${entry.unit.label}"`) || entry.unit.type === 'toggle');
  if (question && !/\(none|\(no /.test(history) && history.trim() !== '') {
    const answered = units.filter((unit) => /\d/.test(unit.detail)).map((unit) => ({ unit, score: matchScore(words, unit.label) })).filter((entry) => entry.score > 0).sort((a, b) => b.score - a.score)[0];
    if (answered) return { finish: true, intent: `Read "${answered.unit.label}"`, answer: answered.unit.detail };
  }
  if (best?.unit.type === 'toggle') {
    if (best.unit.checked === true) return { finish: true, intent: `"${best.unit.label}" is on: done` };
    return { finish: false, intent: `Switch "${best.unit.label}" on`, item: { unit: best.unit.id, checked: true } };
  }
  if (best) return { finish: false, intent: `Open "${best.unit.label}"`, item: { unit: best.unit.id } };
  const scroll = units.find((unit) => unit.type === 'scroll');
  if (scroll && !history.includes('Scroll down')) return { finish: false, intent: 'Scroll down to look for the task\'s words', item: { unit: scroll.id, direction: 'down' } };
  return { finish: true, intent: 'Nothing on the screen matches the task any more' };
}

function viewUnits(screen: string): ViewUnit[] {
  const units: ViewUnit[] = [];
  for (const match of screen.matchAll(/\[([\w-]+)\] ([\w-]+) "([^"]*)"(?: — "([^"]*)")?([^\n]*)/g)) {
    const rest = match[5] ?? '';
    units.push({ id: match[1] ?? '', type: match[2] ?? '', label: match[3] ?? '', detail: match[4] ?? '', checked: /\bunchecked\b/.test(rest) ? false : /\bchecked\b/.test(rest) ? true : undefined, disabled: /\bdisabled\b/.test(rest) });
  }
  return units;
}

function taskWords(task: string): string[] {
  const own = task.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length >= 3 && !fillerWords.has(word));
  return [...own, ...own.flatMap((word) => relatedWords[word] ?? [])];
}

/** How many task words a text names (a word counts when it starts a word of the text, first four letters). */
function matchScore(words: readonly string[], text: string): number {
  const own = text.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length >= 3);
  return words.filter((word) => own.some((candidate) => candidate.slice(0, 4) === word.slice(0, 4))).length;
}

function judgeAnswer(text: string): Record<string, unknown> {
  const accepted = /Accepted answers: (.*)/.exec(text)?.[1] ?? '[]';
  const given = /Answer to grade: (.*)/.exec(text)?.[1] ?? '""';
  const normal = (value: string): string => value.toLowerCase().replace(/[^a-z0-9.]+/g, '');
  let list: unknown;
  try {
    list = JSON.parse(accepted);
  } catch {
    list = [];
  }
  const answer = normal(String(JSON.parse(given)));
  const correct = Array.isArray(list) && list.some((item) => answer !== '' && answer.includes(normal(String(item))));
  return { correct, reason: correct ? 'the answer states an accepted fact' : 'no accepted fact is stated' };
}

/** The `response_format.json_schema.name` a request asked for, else the name its system prompt suggests. */
function schemaName(request: MockChatRequest): string | undefined {
  const body = request.body;
  if (isSchema(body) && isSchema(body['response_format']) && isSchema(body['response_format']['json_schema'])) {
    const name = body['response_format']['json_schema']['name'];
    if (typeof name === 'string') return name;
  }
  const text = request.texts.join('\n');
  if (text.includes('Answer to grade:')) return 'AnswerVerdict';
  if (text.includes('Previous actions:')) return 'ReactReply';
  if (text.includes('Intent history:')) return 'PlanReply';
  return undefined;
}
