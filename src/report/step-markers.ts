import type { TraceEvent, TraceEventType } from '../trace/trace-event.js';

/** A badge in a step's header: what kind of help or trouble the step had. */
export interface StepMarker {
  /** CSS class and legend key: `vision`, `verifier`, `skill`, `gate`, `guard`, `rejected`, `error`, `screenshot`, `fault` (a model fault), `device-fault`. */
  readonly kind: string;
  readonly label: string;
  /** The longer line shown as the badge's tooltip. */
  readonly detail: string;
}

type MarkerOf<Type extends TraceEventType> = (event: Extract<TraceEvent, { type: Type }>) => StepMarker | undefined;

/**
 * Which events mark a step, one entry per event type. A new kind of step event (a skill
 * step, a meta-plan's progress) gets its badge by adding one entry here and its CSS
 * colour in report-style.ts; events without an entry only appear in the step's event list.
 */
const markers: { readonly [Type in TraceEventType]?: MarkerOf<Type> } = {
  'vlm-call-end': (event) => ({ kind: 'vision', label: 'vision', detail: `vision model (${event.role}, ${event.model}): ${event.images} image(s), ${event.imageBytes} B` }),
  'model-call-end': (event) =>
    event.role === 'verifier' ? { kind: 'verifier', label: 'verifier', detail: `LLM verifier (${event.model}) decided an inconclusive check` }
    : event.role.startsWith('skill') ? { kind: 'skill', label: 'skill', detail: `skill call (${event.role}, ${event.model})` }
    : undefined,
  'gate-end': (event) => (event.opened ? { kind: 'gate', label: 'gate open', detail: `VLM gate opened: ${event.reason ?? ''}${event.detail === undefined ? '' : `: ${event.detail}`}` } : undefined),
  'guard-end': (event) => ({ kind: 'guard', label: event.action === 'left' ? 'left app' : 'refused', detail: `foreground guard: ${event.action} ${event.packageName}${event.detail === undefined ? '' : ` (${event.detail})`}` }),
  'commitment-end': (event) => (event.admissible ? undefined : { kind: 'rejected', label: 'rejected', detail: `commitment rejected: ${event.reason ?? ''}` }),
  'device-fault': (event) => ({ kind: 'device-fault', label: 'device fault', detail: `device fault injected (--faults): ${event.kind}, ${event.detail}` }),
  'model-fault-injected': (event) => ({ kind: 'fault', label: 'model fault', detail: `model fault injected (--model-faults): ${event.kind} in the ${event.role}'s reply, ${event.detail}` }),
  'screenshot-end': (event) => ({ kind: 'screenshot', label: 'screenshot', detail: `screenshot of the ${event.of} screen (${event.bytes} B)` }),
  error: (event) => ({ kind: 'error', label: event.infrastructure === true ? 'infrastructure error' : 'error', detail: `${event.where === undefined ? '' : `${event.where}: `}${event.message}` }),
};

/**
 * The badges of one step, in event order, one per kind (the first event of a kind
 * names it; the count of the rest is added). Event types whose name starts with `skill-`
 * are skill steps even before they get an entry of their own.
 */
export function stepMarkers(events: readonly TraceEvent[]): StepMarker[] {
  const found = new Map<string, { marker: StepMarker; count: number }>();
  for (const event of events) {
    const marker = markerOf(event);
    if (marker === undefined) continue;
    const seen = found.get(marker.kind);
    if (seen === undefined) found.set(marker.kind, { marker, count: 1 });
    else seen.count++;
  }
  return [...found.values()].map(({ marker, count }) => (count === 1 ? marker : { ...marker, label: `${marker.label} ×${count}` }));
}

function markerOf(event: TraceEvent): StepMarker | undefined {
  const entry = markers[event.type] as MarkerOf<typeof event.type> | undefined;
  if (entry !== undefined) return entry(event as never);
  if ((event.type as string).startsWith('skill-')) return { kind: 'skill', label: 'skill', detail: event.type };
  return undefined;
}
