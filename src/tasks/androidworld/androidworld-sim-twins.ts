import type { SolutionStep, TaskInput } from '../task-schema.js';
import type { TemplateParams } from './androidworld-params.js';

/**
 * The simulator side of the AndroidWorld suite: twins of the templates whose app the
 * simulator has (Settings, Clock, Contacts, and Simple Notes standing in for Markor), with
 * the same instruction, a check on the simulated app's state and a reference solution for
 * the oracle. Seed data comes from the caller (`SimTwinDefaults`): tasks/ does not import
 * the simulator.
 */

/** What a twin adds to the task the generator builds: its start, check and solution. */
export interface SimTwin {
  /** The app the task is about, when neither the launch nor a state check names it. */
  readonly app?: string;
  readonly start: NonNullable<TaskInput['start']>;
  readonly success: NonNullable<TaskInput['success']>;
  readonly solution: SolutionStep[];
  /** State the twin may change beyond what its check reads (side effects of the steps it takes). */
  readonly scope?: TaskInput['scope'];
}

/** The simulator's default Settings state (`defaultSettingsState()`), which a twin varies. */
export interface SimTwinDefaults {
  readonly settings: unknown;
}

export const simPackages = {
  settings: 'com.android.settings',
  clock: 'com.google.android.deskclock',
  contacts: 'com.google.android.contacts',
  notes: 'com.simplemobiletools.notes.pro',
} as const;

/** The launcher labels of the simulated apps AndroidWorld's "open the {app_name} app" may name. */
export const simLauncherLabels: Readonly<Record<string, { label: string; packageName: string }>> = {
  clock: { label: 'Clock', packageName: simPackages.clock },
  contacts: { label: 'Contacts', packageName: simPackages.contacts },
  settings: { label: 'Settings', packageName: simPackages.settings },
};

/** A copy of the default settings with `network`/`display` values changed. */
export function settingsWith(defaults: SimTwinDefaults, change: { wifi?: boolean; bluetooth?: boolean; brightness?: number }): unknown {
  const copy = structuredClone(defaults.settings) as { network: Record<string, unknown>; display: Record<string, unknown> };
  if (change.wifi !== undefined) copy.network['wifi'] = change.wifi;
  if (change.bluetooth !== undefined) copy.network['bluetooth'] = change.bluetooth;
  if (change.brightness !== undefined) copy.display['brightness'] = change.brightness;
  return copy;
}

/** Settings home → Network & internet → Internet (the Wi-Fi switch). */
export function openInternetSteps(): SolutionStep[] {
  return [
    { intent: 'Open Network & internet', actions: [{ unit: 'scroll', direction: 'down', until: 'text="Network & internet"' }, { unit: 'click', target: 'text="Network & internet"' }], expect: 'exists(text="Airplane mode")' },
    { intent: 'Open Internet', actions: [{ unit: 'scroll', direction: 'down', until: 'text="Internet"' }, { unit: 'click', target: 'text="Internet"' }], expect: 'exists(text="Network preferences")' },
  ];
}

/** Settings home → Connected devices → Connection preferences → Bluetooth. */
export function openBluetoothSteps(): SolutionStep[] {
  return [
    { intent: 'Open Connected devices', actions: [{ unit: 'scroll', direction: 'down', until: 'text="Connected devices"' }, { unit: 'click', target: 'text="Connected devices"' }], expect: 'exists(text="Connection preferences")' },
    { intent: 'Open Connection preferences', actions: [{ unit: 'scroll', direction: 'down', until: 'text="Connection preferences"' }, { unit: 'click', target: 'text="Connection preferences"' }] },
    { intent: 'Open Bluetooth', actions: [{ unit: 'click', target: 'text="Bluetooth"' }], expect: 'exists(text="Use Bluetooth")' },
  ];
}

export function wifiToggleStep(on: boolean): SolutionStep {
  return { intent: `Switch Wi-Fi ${on ? 'on' : 'off'}`, actions: [{ unit: 'toggle', target: 'is=switch, near(text~"Wi")', value: on }] };
}

export function bluetoothToggleStep(on: boolean): SolutionStep {
  return { intent: `Switch Bluetooth ${on ? 'on' : 'off'}`, actions: [{ unit: 'toggle', target: 'is=switch, near(text~"Use Bluetooth")', value: on }] };
}

/** Back from a settings sub-page to the settings home. */
export function backToSettingsHome(pages: number): SolutionStep {
  return { intent: 'Go back to the settings home', actions: Array.from({ length: pages }, () => ({ unit: 'navigate' as const, key: 'back' as const })), expect: 'exists(text="Network & internet")' };
}

/** Home screen → the app's launcher icon. */
export function openFromLauncherSteps(app: { readonly label: string; readonly packageName: string }): SolutionStep[] {
  return [
    { intent: 'Go to the home screen', actions: [{ unit: 'navigate', key: 'home' }], expect: `exists(text="${app.label}")` },
    { intent: `Open ${app.label}`, actions: [{ unit: 'click', target: `text="${app.label}"` }], expect: `package = "${app.packageName}"` },
  ];
}

/** The Clock's timer keypad digits for a duration, as the simulator keeps them (`timer.setupDigits`). */
export function timerDigits(params: TemplateParams): string {
  return String(Number(params['hours']) * 10000 + Number(params['minutes']) * 100 + Number(params['seconds']));
}

/** A note of the simulated Notes app standing for a Markor file. */
export interface TwinNote {
  readonly title: string;
  readonly text: string;
}

/** Notes seed data with these text notes, in order. */
export function notesState(notes: readonly TwinNote[]): unknown {
  return { notes: notes.map((note, index) => ({ id: `n${index + 1}`, title: note.title, type: 'text', text: note.text, items: [] })), nextId: notes.length + 1 };
}

/** Long-press a note, Delete note, confirm. */
export function deleteNoteSteps(title: string): SolutionStep[] {
  return [
    { intent: `Long-press ${title}`, actions: [{ unit: 'long-press', target: `id~"note_title", text=${JSON.stringify(title)}` }], expect: 'exists(text="Delete note")' },
    { intent: 'Choose Delete note', actions: [{ unit: 'click', target: 'text="Delete note"' }], expect: 'exists(text~"Are you sure")' },
    { intent: 'Confirm', actions: [{ unit: 'commit', target: 'text="Delete"' }], expect: `absent(id~"note_title", text=${JSON.stringify(title)})` },
  ];
}

/** The new note dialog, the title, OK, then the text. */
export function createNoteSteps(title: string, text: string): SolutionStep[] {
  return [
    { intent: 'Open the new note dialog', actions: [{ unit: 'click', target: 'desc="Create a new note"' }], expect: 'exists(text="Add a new note")' },
    { intent: `Create the note ${title}`, actions: [{ unit: 'fill', target: 'hint="Title"', value: title }, { unit: 'commit', target: 'text="OK"' }], expect: `exists(id~"note_title", text=${JSON.stringify(title)})` },
    { intent: 'Type the text', actions: [{ unit: 'fill', target: 'id~"text_note_view"', value: text }] },
  ];
}

/** Open a note and replace its text. */
export function rewriteNoteSteps(title: string, text: string): SolutionStep[] {
  return [
    { intent: `Open ${title}`, actions: [{ unit: 'click', target: `id~"note_title", text=${JSON.stringify(title)}` }], expect: 'exists(id~"text_note_view")' },
    { intent: 'Write the new text', actions: [{ unit: 'fill', target: 'id~"text_note_view"', value: text }] },
  ];
}
