import type { DroidBotEventFile, DroidBotView } from './droidtask-schema.js';

/** A DroidBot event file as read. */
export interface DroidTaskEventEntry {
  readonly file: string;
  readonly data: DroidBotEventFile;
}

/** The event that performed a step, or why none could be chosen. */
export type DroidTaskEventPairing = { readonly event: DroidTaskEventEntry } | { readonly event?: undefined; readonly reason: string };

function normalized(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * The labels AutoDroid's simplified HTML gives the chosen element: `texts` from its inner
 * text (the view's text; each line of it too, as a row "7:00 am\nMon, Tue" merges the
 * texts of its children) and `descriptions` from its `text='…'` attribute (the view's
 * content description). Normalised (spaces, case).
 */
export function droidTaskChoiceLabels(choiceHtml: string | null): { texts: Set<string>; descriptions: Set<string> } {
  const texts = new Set<string>();
  const descriptions = new Set<string>();
  if (choiceHtml === null) return { texts, descriptions };
  const inner = /^<[^>]*>([^<]*)</.exec(choiceHtml)?.[1] ?? '';
  for (const label of [inner, ...inner.split('\n')]) if (normalized(label) !== '') texts.add(normalized(label));
  const attribute = normalized(/\stext='([^']*)'/.exec(choiceHtml)?.[1] ?? '');
  if (attribute !== '') descriptions.add(attribute);
  return { texts, descriptions };
}

function labelledLikeChoice(view: DroidBotView, labels: { texts: Set<string>; descriptions: Set<string> }): boolean {
  return labels.texts.has(normalized(view.text ?? '')) || labels.descriptions.has(normalized(view.content_description ?? ''));
}

/** One element across recordings: the same class, resource-id and label (bounds differ between devices). */
function elementKey(view: DroidBotView): string {
  return JSON.stringify([view.class ?? '', view.resource_id ?? '', view.text ?? '', view.content_description ?? '']);
}

/**
 * The DroidBot event that performed a DroidTask step. In a task YAML a record's
 * `state_str` is the state before its action, the event's `start_state`; the state after
 * is the event's `stop_state`, which is the next record's `state_str` (DroidBot writes
 * `start_state` / `stop_state` as the `state_str` of the states around the event;
 * `new_state_str` is AutoDroid's id of the record's merged screen, not the stop state).
 * Candidates are the events with a view that start on the step's state and stop on the
 * next record's, narrowed to those whose view has the chosen element's text or
 * description (`droidTaskChoiceLabels`) when they act on more than one element. When
 * none stops on the next state, only events labelled like the choice are candidates.
 * The first (earliest) candidate is the step's when they all act on one element (the
 * same class, resource-id and label: repeated recordings); else none, with why.
 */
export function pairDroidTaskEvent(
  eventsByStart: ReadonlyMap<string, readonly DroidTaskEventEntry[]>,
  stateStrs: readonly string[],
  nextStateStrs: readonly string[],
  choiceHtml: string | null,
): DroidTaskEventPairing {
  const starting = stateStrs.flatMap((stateStr) => eventsByStart.get(stateStr) ?? []).filter((entry) => entry.data.event.view);
  if (starting.length === 0) return { reason: `no event with a view starts on ${stateStrs.join(' or ')}` };
  const stopping = starting.filter((entry) => typeof entry.data.stop_state === 'string' && nextStateStrs.includes(entry.data.stop_state));
  const labels = droidTaskChoiceLabels(choiceHtml);
  const labelled = (list: readonly DroidTaskEventEntry[]): DroidTaskEventEntry[] => list.filter((entry) => labelledLikeChoice(entry.data.event.view!, labels));
  const elements = (list: readonly DroidTaskEventEntry[]): number => new Set(list.map((entry) => elementKey(entry.data.event.view!))).size;
  let pool: readonly DroidTaskEventEntry[];
  if (stopping.length > 0) pool = elements(stopping) > 1 && labelled(stopping).length > 0 ? labelled(stopping) : stopping;
  else {
    // No event leads to the next state (the record was joined from another run): only one labelled like the choice is this step's.
    pool = labelled(starting);
    if (pool.length === 0) return { reason: `none of the ${starting.length} events from ${stateStrs.join(' or ')} leads to the next state or acts on an element labelled like the choice` };
  }
  if (elements(pool) > 1) {
    const where = stopping.length > 0 ? 'to the next state' : 'labelled like the choice (none leads to the next state)';
    return { reason: `${pool.length} events from ${stateStrs.join(' or ')} ${where} act on ${elements(pool)} different elements` };
  }
  return { event: [...pool].sort((left, right) => left.data.tag.localeCompare(right.data.tag))[0]! };
}
