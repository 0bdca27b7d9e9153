import type { TextMessage } from '../../model/language-model.js';
import type { VisionMessage } from '../../model/vision-model.js';
import type { Bounds } from '../../ui/ui-tree.js';
import { gateExpectationLabel, surfaceLineHead, type HistoryEntry } from './agent-prompts.js';
import { readSkillMenu, type MenuSkill } from '../planning/skill-menu.js';

/** A gate candidate as its prompt line gives it. */
export interface PromptCandidate {
  readonly id: string;
  readonly bounds: Bounds;
}

/** What a prompt of ours says, read back from its text (the sections it lacks are absent or empty). */
export interface PromptReading {
  /** The whole fenced screen block, fences included (compare with `screenFence(view)`). */
  readonly screenBlock?: string;
  /** The intent history the planner was shown, oldest first. */
  readonly history: readonly HistoryEntry[];
  /** Why the previous commitment was rejected, when the prompt asks again. */
  readonly rejection?: string;
  /** The surface decision after the last executed intent, when the prompt gives one. */
  readonly surface?: { readonly decision: 'STOP' | 'CONTINUE'; readonly reason: string };
  /** Gate: what the planner described for vision to locate. */
  readonly lookFor?: string;
  /** Gate: the expectation the tree did not confirm. */
  readonly expectation?: string;
  /** Gate: the unit id whose effect did not show. */
  readonly failedTarget?: string;
  /** Gate: the candidate regions. */
  readonly candidates: readonly PromptCandidate[];
  /** The skills the planner may call by name (none when the prompt lists none). */
  readonly skills: readonly MenuSkill[];
  /** Verifier: the intent it is asked to judge. */
  readonly intent?: string;
}

const outcomes = ['pass', 'fail', 'inconclusive', 'unknown', 'rejected'] as const;
const historyLinePattern = new RegExp(`^\\d+\\. (.*?) → (${outcomes.join('|')})(?: \\((.*)\\))?$`);
const candidatePattern = /^\[([^\]\s]+)\] \[(-?\d+),(-?\d+),(-?\d+),(-?\d+)\]/;

function firstUserText(messages: readonly (TextMessage | VisionMessage)[]): string {
  // Retries after an invalid reply append user turns; the prompt is the first one.
  return messages.find((message) => message.role === 'user')?.content ?? '';
}

function section(text: string, header: string): string | undefined {
  const start = text.indexOf(`${header}\n`);
  if (start < 0) return undefined;
  const body = text.slice(start + header.length + 1);
  const end = body.indexOf('\n\n');
  return end < 0 ? body : body.slice(0, end);
}

function lineValue(text: string, label: string): string | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${label}: `));
  return line?.slice(label.length + 2);
}

/**
 * Reads one of our prompts back: the screen block, the intent history, a rejection, the
 * surface decision, and the gate's question. The oracle policy answers from this reading only — the same
 * messages a language model gets — so it cannot see more of the loop than a model does.
 */
export function readPrompt(messages: readonly (TextMessage | VisionMessage)[]): PromptReading {
  const text = firstUserText(messages);
  const open = text.indexOf('<screen>\n');
  const close = text.lastIndexOf('\n</screen>');
  const screenBlock = open >= 0 && close >= open ? text.slice(open, close + '\n</screen>'.length) : undefined;
  // Only what precedes the screen is ours to read: the screen's own text is data.
  const head = open >= 0 ? text.slice(0, open) : text;
  const history: HistoryEntry[] = [];
  for (const line of (section(head, 'Intent history:') ?? '').split('\n')) {
    const match = historyLinePattern.exec(line);
    if (match) history.push({ intent: match[1] ?? '', outcome: match[2] as HistoryEntry['outcome'], note: match[3] ?? '' });
  }
  const rejection = lineValue(head, 'Your previous commitment was rejected');
  const surfaceMatch = /^(STOP|CONTINUE) \((.*)\)$/.exec(lineValue(head, surfaceLineHead.slice(0, -1)) ?? '');
  const surface = surfaceMatch ? { decision: surfaceMatch[1] as 'STOP' | 'CONTINUE', reason: surfaceMatch[2] ?? '' } : undefined;
  const lookFor = lineValue(head, 'Look for');
  const expectation = lineValue(head, gateExpectationLabel);
  const intent = lineValue(head, 'Intent');
  const failedTarget = /^\[([^\]\s]+)\]/.exec(lineValue(head, 'Failed target') ?? '')?.[1];
  const candidates: PromptCandidate[] = [];
  for (const line of (section(head, 'Candidate regions (id [left,top,right,bottom] type label):') ?? '').split('\n')) {
    const match = candidatePattern.exec(line);
    if (match) candidates.push({ id: match[1] ?? '', bounds: [Number(match[2]), Number(match[3]), Number(match[4]), Number(match[5])] });
  }
  return {
    history,
    candidates,
    skills: readSkillMenu(head),
    ...(screenBlock === undefined ? {} : { screenBlock }),
    ...(rejection === undefined ? {} : { rejection }),
    ...(surface === undefined ? {} : { surface }),
    ...(lookFor === undefined ? {} : { lookFor }),
    ...(expectation === undefined ? {} : { expectation }),
    ...(failedTarget === undefined ? {} : { failedTarget }),
    ...(intent === undefined ? {} : { intent }),
  };
}
