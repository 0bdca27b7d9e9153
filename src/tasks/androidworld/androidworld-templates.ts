import type { SeededRandom } from '../../util/seeded-random.js';
import type { AdbCheck, DeviceSetupStep } from '../task-schema.js';
import {
  androidWorldFolders as folders,
  androidWorldPackages as packages,
  clearFolder,
  clearSms,
  entryCount,
  escapeRegex,
  fileCheck,
  fileContent,
  phoneDigits,
  setClipboard,
  settingCheck,
  shell,
  shellQuote,
  smsSent,
  writeFile,
  type AndroidWorldApp,
} from './androidworld-device-steps.js';
import { calendarTemplates } from './androidworld-calendar.js';
import { expenseTemplates } from './androidworld-expense.js';
import { joplinTemplates } from './androidworld-joplin.js';
import { openTracksTemplates } from './androidworld-open-tracks.js';
import { recipeTemplates } from './androidworld-recipe.js';
import { tasksAppTemplates } from './androidworld-tasks-app.js';
import type { AndroidWorldTemplate, DevicePart } from './androidworld-template.js';
import { drawClipboardText, drawFileName, drawName, drawNoteTitles, drawPhoneNumber, drawSentence, drawSentences, drawToken, pick, type TemplateParams } from './androidworld-params.js';
import {
  backToSettingsHome,
  createNoteSteps,
  bluetoothToggleStep,
  deleteNoteSteps,
  notesState,
  openBluetoothSteps,
  openFromLauncherSteps,
  openInternetSteps,
  rewriteNoteSteps,
  settingsWith,
  simLauncherLabels,
  simPackages,
  timerDigits,
  wifiToggleStep,
  type SimTwin,
} from './androidworld-sim-twins.js';

/**
 * The 116 AndroidWorld templates as our tasks (docs/architecture.md §2.10): per template, the app, how
 * its parameters are drawn, the device start steps and check — or why the check is not
 * expressed — and, where the simulator has the app, a twin. AndroidWorld's evaluators
 * (android_world/task_evals) were read for what each checks; the checks here are ours.
 */

const text = (params: TemplateParams, name: string): string => String(params[name]);
const q = JSON.stringify;

function uncovered(reason: string): DevicePart {
  return { start: [], uncovered: reason };
}

const why = {
  browser: "it opens AndroidWorld's task.html (pushed from the host into Download) in Chrome and reads the answer the page's script keeps; our start steps push no files and no check of ours reads a web page's script state",
  media: 'it needs files AndroidWorld generates on the host and pushes to the device (an image, audio or video with text in it); our start steps run shell commands on the device only and cannot make them',
  osmand: "it needs AndroidWorld's offline map of Liechtenstein pushed to OsmAnd, and reads OsmAnd's favourites, markers or tracks files, whose format is not ported",
} as const;

const onOff = (random: SeededRandom, fixed?: 'on' | 'off'): TemplateParams => ({ on_or_off: fixed ?? pick(random, ['on', 'off']) });

function wifiTemplate(initial: 'on' | 'off', target: 'on' | 'off'): AndroidWorldTemplate {
  return {
    app: 'settings',
    params: (random) => onOff(random, target),
    device: () => ({
      start: [shell(`svc wifi ${initial === 'on' ? 'enable' : 'disable'}`)],
      // 1 or 2 is on (2: on while airplane mode is on), 0 is off.
      adb: [settingCheck('global', 'wifi_on', target === 'on' ? { matches: '^\\s*[12]\\s*$' } : { equals: '0' })],
    }),
    twin: (_params, defaults) => ({
      start: { launch: simPackages.settings, state: { [simPackages.settings]: settingsWith(defaults, { wifi: initial === 'on' }) } },
      success: { state: [{ app: simPackages.settings, path: 'network.wifi', op: 'equals', value: target === 'on' }] },
      solution: [...openInternetSteps(), ...(initial === target ? [] : [wifiToggleStep(target === 'on')])],
    }),
  };
}

function bluetoothTemplate(initial: 'on' | 'off', target: 'on' | 'off'): AndroidWorldTemplate {
  return {
    app: 'settings',
    params: (random) => onOff(random, target),
    device: () => ({
      start: [shell(`svc bluetooth ${initial === 'on' ? 'enable' : 'disable'}`)],
      adb: [settingCheck('global', 'bluetooth_on', { equals: target === 'on' ? '1' : '0' })],
    }),
    twin: (_params, defaults) => ({
      start: { launch: simPackages.settings, state: { [simPackages.settings]: settingsWith(defaults, { bluetooth: initial === 'on' }) } },
      success: { state: [{ app: simPackages.settings, path: 'network.bluetooth', op: 'equals', value: target === 'on' }] },
      solution: [...openBluetoothSteps(), ...(initial === target ? [] : [bluetoothToggleStep(target === 'on')])],
    }),
  };
}

function brightnessTemplate(initial: 'max' | 'min', target: 'max' | 'min'): AndroidWorldTemplate {
  const level = (end: 'max' | 'min'): number => (end === 'max' ? 100 : 0);
  return {
    app: 'settings',
    params: () => ({ max_or_min: target }),
    device: () => ({
      start: [shell('settings put system screen_brightness_mode 0'), shell(`settings put system screen_brightness ${initial === 'max' ? 255 : 1}`)],
      // Android's range is 1–255 (AndroidWorld checks 255 and 1).
      adb: [settingCheck('system', 'screen_brightness', { equals: target === 'max' ? '255' : '1' })],
    }),
    twin: (_params, defaults) => ({
      start: { launch: simPackages.settings, state: { [simPackages.settings]: settingsWith(defaults, { brightness: level(initial) }) } },
      success: { state: [{ app: simPackages.settings, path: 'display.brightness', op: 'equals', value: level(target) }] },
      solution: [
        { intent: 'Open Display', actions: [{ unit: 'scroll', direction: 'down', until: 'text="Display"' }, { unit: 'click', target: 'text="Display"' }], expect: 'exists(text="Brightness level")' },
        ...(initial === target ? [] : [{ intent: `Drag the brightness slider to the ${target === 'max' ? 'right' : 'left'} end`, actions: [{ unit: 'fill' as const, target: 'is=SeekBar, desc="Brightness level"', value: String(level(target)) }] }]),
      ],
    }),
  };
}

/** AndroidWorld's "open the {app_name} app" names one of these. */
const openableApps: Readonly<Record<string, string>> = { camera: packages.camera, clock: packages.clock, contacts: packages.contacts, settings: packages.settings, dialer: packages.dialer };

function openAppTwin(appName: string, before: SimTwin['solution'], start: SimTwin['start'], extraChecks: NonNullable<SimTwin['success']['state']> = []): SimTwin | undefined {
  const app = simLauncherLabels[appName];
  if (app === undefined) return undefined;
  return {
    app: app.packageName,
    start,
    success: { screen: `package = ${q(app.packageName)}`, ...(extraChecks.length > 0 ? { state: extraChecks } : {}) },
    solution: [...before, ...openFromLauncherSteps(app)],
  };
}

function markorNote(file: string): string {
  return `${folders.markor}/${file}`;
}

/** Markor starts with an empty notes folder, then these files. */
function markorStart(files: readonly { name: string; content: string }[], folders_: readonly string[] = []): DeviceSetupStep[] {
  return [shell(`am force-stop ${packages.markor}`), ...clearFolder(folders.markor), ...folders_.map((folder) => shell(`mkdir -p ${shellQuote(`${folders.markor}/${folder}`)}`)), ...files.map((file) => writeFile(markorNote(file.name), file.content))];
}

const systemTemplates: Record<string, AndroidWorldTemplate> = {
  SystemWifiTurnOff: wifiTemplate('on', 'off'),
  SystemWifiTurnOffVerify: wifiTemplate('off', 'off'),
  SystemWifiTurnOn: wifiTemplate('off', 'on'),
  SystemWifiTurnOnVerify: wifiTemplate('on', 'on'),
  SystemBluetoothTurnOff: bluetoothTemplate('on', 'off'),
  SystemBluetoothTurnOffVerify: bluetoothTemplate('off', 'off'),
  SystemBluetoothTurnOn: bluetoothTemplate('off', 'on'),
  SystemBluetoothTurnOnVerify: bluetoothTemplate('on', 'on'),
  SystemBrightnessMax: brightnessTemplate('min', 'max'),
  SystemBrightnessMaxVerify: brightnessTemplate('max', 'max'),
  SystemBrightnessMin: brightnessTemplate('max', 'min'),
  SystemBrightnessMinVerify: brightnessTemplate('min', 'min'),
  SystemCopyToClipboard: {
    app: 'clipper',
    anyApp: true,
    params: (random) => ({ clipboard_content: drawClipboardText(random) }),
    device: (params) => ({
      start: setClipboard('~~~RESET~~~').slice(1),
      launch: packages.settings,
      adb: [{ command: 'adb shell am broadcast -a clipper.get', expect: { matches: `data="${escapeRegex(text(params, 'clipboard_content'))}"` } }],
    }),
  },
  OpenAppTaskEval: {
    app: 'settings',
    params: (random) => ({ app_name: pick(random, Object.keys(openableApps)) }),
    device: (params) => ({ start: [], home: true, allow: [openableApps[text(params, 'app_name')] ?? packages.settings], screen: `package = ${q(openableApps[text(params, 'app_name')] ?? '')}` }),
    twin: (params) => openAppTwin(text(params, 'app_name'), [], {}),
  },
  TurnOnWifiAndOpenApp: {
    app: 'settings',
    params: (random) => ({ app_name: pick(random, Object.keys(openableApps)) }),
    device: (params) => ({
      start: [shell('svc wifi disable')],
      home: true,
      allow: [openableApps[text(params, 'app_name')] ?? packages.settings],
      screen: `package = ${q(openableApps[text(params, 'app_name')] ?? '')}`,
      adb: [settingCheck('global', 'wifi_on', { matches: '^\\s*[12]\\s*$' })],
    }),
    twin: (params, defaults) =>
      openAppTwin(text(params, 'app_name'), [...openInternetSteps(), wifiToggleStep(true)], { launch: simPackages.settings, state: { [simPackages.settings]: settingsWith(defaults, { wifi: false }) } }, [{ app: simPackages.settings, path: 'network.wifi', op: 'equals', value: true }]),
  },
  TurnOffWifiAndTurnOnBluetooth: {
    app: 'settings',
    params: () => ({}),
    device: () => ({
      start: [shell('svc wifi enable'), shell('svc bluetooth disable')],
      adb: [settingCheck('global', 'wifi_on', { equals: '0' }), settingCheck('global', 'bluetooth_on', { equals: '1' })],
    }),
    twin: (_params, defaults) => ({
      start: { launch: simPackages.settings, state: { [simPackages.settings]: settingsWith(defaults, { wifi: true, bluetooth: false }) } },
      success: { state: [{ app: simPackages.settings, path: 'network.wifi', op: 'equals', value: false }, { app: simPackages.settings, path: 'network.bluetooth', op: 'equals', value: true }] },
      solution: [...openInternetSteps(), wifiToggleStep(false), backToSettingsHome(2), ...openBluetoothSteps(), bluetoothToggleStep(true)],
    }),
  },
};

const clockStart = (): DeviceSetupStep[] => [{ pmClear: packages.clock }];

const clockTemplates: Record<string, AndroidWorldTemplate> = {
  ClockStopWatchPausedVerify: {
    app: 'clock',
    params: () => ({}),
    device: () => ({ start: clockStart(), screen: 'activity ~ "DeskClock" and exists(desc="Start") and count(label="Stopwatch") >= 2' }),
    twin: () => ({
      start: { launch: simPackages.clock },
      success: { screen: 'exists(desc="Start") and selected(desc="Stopwatch")', state: [{ app: simPackages.clock, path: 'stopwatch.running', op: 'equals', value: false }] },
      solution: [{ intent: 'Open the Stopwatch tab', actions: [{ unit: 'click', target: 'desc="Stopwatch"' }], expect: 'exists(desc="Start")' }],
      // Starting or pausing the stopwatch also records its start time and elapsed time.
      scope: [{ app: simPackages.clock, path: 'stopwatch' }],
    }),
  },
  ClockStopWatchRunning: {
    app: 'clock',
    params: () => ({}),
    device: () => ({ start: clockStart(), screen: 'activity ~ "DeskClock" and exists(desc="Pause") and exists(desc="Lap")' }),
    twin: () => ({
      start: { launch: simPackages.clock },
      // The state says it runs; the Pause and Lap icons AndroidWorld looks for may lose their labels under the icon-only fault.
      success: { state: [{ app: simPackages.clock, path: 'stopwatch.running', op: 'equals', value: true }] },
      solution: [
        { intent: 'Open the Stopwatch tab', actions: [{ unit: 'click', target: 'desc="Stopwatch"' }], expect: 'exists(desc="Start")' },
        { intent: 'Start it', actions: [{ unit: 'click', target: 'desc="Start"' }], expect: 'exists(desc="Pause")' },
      ],
      // Starting or pausing the stopwatch also records its start time and elapsed time.
      scope: [{ app: simPackages.clock, path: 'stopwatch' }],
    }),
  },
  ClockTimerEntry: {
    app: 'clock',
    params: (random) => ({ hours: random.int(0, 23), minutes: random.int(0, 59), seconds: random.int(0, 59) }),
    device: (params) => {
      const [h, m, s] = [Number(params['hours']), Number(params['minutes']), Number(params['seconds'])];
      const pad = (value: number): string => String(value).padStart(2, '0');
      return { start: clockStart(), screen: `activity ~ "DeskClock" and (exists(text=${q(`${pad(h)}h ${pad(m)}m ${pad(s)}s`)}) or exists(desc=${q(`${h} hours, ${m} minutes, ${s} seconds`)}))` };
    },
    twin: (params) => {
      const digits = timerDigits(params);
      const desc = `${Number(params['hours'])} hours, ${Number(params['minutes'])} minutes, ${Number(params['seconds'])} seconds`;
      return {
        start: { launch: simPackages.clock },
        success: { state: [{ app: simPackages.clock, path: 'timer.setupDigits', op: 'equals', value: digits }, { app: simPackages.clock, path: 'timer.timers', op: 'count=', value: 0 }] },
        solution: [
          { intent: 'Open the Timer tab', actions: [{ unit: 'click', target: 'desc="Timer"' }], expect: 'exists(id~"timer_setup_digit_1")' },
          { intent: `Type ${digits} on the keypad`, actions: [...digits].map((digit) => ({ unit: 'click' as const, target: `text=${q(digit)}` })), expect: `exists(desc=${q(desc)})` },
        ],
      };
    },
  },
};

const contactsTemplates: Record<string, AndroidWorldTemplate> = {
  ContactsAddContact: {
    app: 'contacts',
    params: (random) => {
      const name = drawName(random);
      return { name: `${name.given} ${name.family}`, number: drawPhoneNumber(random) };
    },
    device: (params) => ({
      start: [{ pmClear: 'com.android.providers.contacts' }],
      adb: [{ command: 'adb shell content query --uri content://contacts/phones/ --projection display_name:number', expect: { matches: `display_name=${escapeRegex(text(params, 'name'))}, number=[^\\n]*?${phoneDigits(text(params, 'number'))}\\D*(\\n|$)` } }],
    }),
    twin: (params) => {
      const [given = '', family = ''] = text(params, 'name').split(' ');
      return {
        start: { launch: simPackages.contacts },
        success: { state: [{ app: simPackages.contacts, path: 'contacts', op: 'some', where: [{ path: 'firstName', op: 'equals', value: given }, { path: 'lastName', op: 'equals', value: family }, { path: 'phones[*].number', op: 'equals', value: text(params, 'number') }] }] },
        solution: [
          { intent: 'Open the contact editor', actions: [{ unit: 'click', target: 'desc="Create contact"' }], expect: 'exists(text="Create contact")' },
          { intent: 'Enter the name and number', actions: [{ unit: 'fill', target: 'hint="First name"', value: given }, { unit: 'fill', target: 'hint="Last name"', value: family }, { unit: 'fill', target: 'hint="Phone"', value: text(params, 'number') }] },
          { intent: 'Save the contact', actions: [{ unit: 'commit', target: 'text="Save"' }], expect: 'exists(desc="Edit contact")' },
        ],
      };
    },
  },
  ContactsNewContactDraft: {
    app: 'contacts',
    params: (random) => {
      const name = drawName(random);
      return { first: name.given, last: name.family, phone: `${random.int(100, 999)}-${random.int(100, 999)}-${random.int(1000, 9999)}`, phone_label: pick(random, ['Home', 'Work']) };
    },
    device: (params) => ({
      start: [{ pmClear: 'com.android.providers.contacts' }],
      screen: `exists(hint="First name", text=${q(text(params, 'first'))}) and exists(hint="Last name", text=${q(text(params, 'last'))}) and exists(hint="Phone", text#=${q(text(params, 'phone').replace(/\D/g, ''))}) and exists(text=${q(text(params, 'phone_label'))})`,
    }),
    twin: (params) => ({
      start: { launch: simPackages.contacts },
      success: {
        screen: `exists(hint="First name", text=${q(text(params, 'first'))}) and exists(hint="Last name", text=${q(text(params, 'last'))}) and exists(hint="Phone", text#=${q(text(params, 'phone').replace(/\D/g, ''))}) and exists(is=spinner, desc=${q(text(params, 'phone_label'))})`,
        state: [{ app: simPackages.contacts, path: 'contacts', op: 'none', where: [{ path: 'firstName', op: 'equals', value: text(params, 'first') }] }],
      },
      solution: [
        { intent: 'Open the contact editor', actions: [{ unit: 'click', target: 'desc="Create contact"' }], expect: 'exists(text="Create contact")' },
        { intent: 'Enter the name and number', actions: [{ unit: 'fill', target: 'hint="First name"', value: text(params, 'first') }, { unit: 'fill', target: 'hint="Last name"', value: text(params, 'last') }, { unit: 'fill', target: 'hint="Phone"', value: text(params, 'phone') }] },
        { intent: 'Open the type menu of the phone', actions: [{ unit: 'click', target: `is=spinner, near(text=${q(text(params, 'phone'))})` }], expect: `exists(text=${q(text(params, 'phone_label'))})` },
        { intent: `Choose ${text(params, 'phone_label')}`, actions: [{ unit: 'select', target: `text=${q(text(params, 'phone_label'))}` }], expect: `exists(is=spinner, desc=${q(text(params, 'phone_label'))})` },
      ],
    }),
  },
};

/** Markor's templates; the twins use the simulated Notes app, a note per file (its title the file name). */
const markorTemplates: Record<string, AndroidWorldTemplate> = {
  MarkorCreateFolder: {
    app: 'markor',
    params: (random) => ({ folder_name: `folder_${random.int(1000, 9999)}` }),
    device: (params) => ({ start: markorStart([]), adb: [fileCheck(markorNote(text(params, 'folder_name')), true)] }),
  },
  MarkorCreateNote: {
    app: 'markor',
    params: (random) => ({ file_name: drawFileName(random), text: drawSentence(random) }),
    device: (params) => ({ start: markorStart([]), adb: [fileContent(markorNote(text(params, 'file_name')), text(params, 'text'))] }),
    twin: (params) => ({
      start: { launch: simPackages.notes, state: { [simPackages.notes]: notesState([{ title: 'General note', text: 'Call the dentist on Monday.' }]) } },
      success: { state: [{ app: simPackages.notes, path: 'notes', op: 'some', where: [{ path: 'title', op: 'equals', value: text(params, 'file_name') }, { path: 'text', op: 'equals', value: text(params, 'text') }] }] },
      solution: createNoteSteps(text(params, 'file_name'), text(params, 'text')),
    }),
  },
  MarkorDeleteNote: {
    app: 'markor',
    params: (random) => {
      const titles = drawNoteTitles(random, 4);
      return { file_name: titles[0] ?? 'notes.md', others: titles.slice(1).join('|') };
    },
    device: (params) => ({
      start: markorStart([text(params, 'file_name'), ...text(params, 'others').split('|')].map((name) => ({ name, content: `Notes on ${name}` }))),
      adb: [fileCheck(markorNote(text(params, 'file_name')), false), entryCount(folders.markor, 3)],
    }),
    twin: (params) => ({
      start: { launch: simPackages.notes, state: { [simPackages.notes]: notesState([text(params, 'file_name'), ...text(params, 'others').split('|')].map((title) => ({ title, text: `Notes on ${title}` }))) } },
      success: { state: [{ app: simPackages.notes, path: 'notes', op: 'none', where: [{ path: 'title', op: 'equals', value: text(params, 'file_name') }] }, { app: simPackages.notes, path: 'notes', op: 'count=', value: 3 }] },
      solution: deleteNoteSteps(text(params, 'file_name')),
    }),
  },
  MarkorDeleteAllNotes: {
    app: 'markor',
    params: (random) => ({ files: drawNoteTitles(random, random.int(2, 6)).join('|') }),
    device: (params) => ({ start: markorStart(text(params, 'files').split('|').map((name) => ({ name, content: `Notes on ${name}` }))), adb: [entryCount(folders.markor, 0)] }),
    twin: (params) => ({
      start: { launch: simPackages.notes, state: { [simPackages.notes]: notesState(text(params, 'files').split('|').map((title) => ({ title, text: `Notes on ${title}` }))) } },
      success: { state: [{ app: simPackages.notes, path: 'notes', op: 'count=', value: 0 }] },
      solution: text(params, 'files').split('|').flatMap((title) => deleteNoteSteps(title)),
    }),
  },
  MarkorDeleteNewestNote: {
    app: 'markor',
    params: (random) => ({ files: drawNoteTitles(random, random.int(2, 6)).join('|') }),
    device: (params) => {
      const files = text(params, 'files').split('|');
      // The last file gets the newest modification time; the others are older by an hour each.
      const start = [...markorStart(files.map((name) => ({ name, content: `Notes on ${name}` }))), ...files.map((name, index) => shell(`touch -d @${1697380440 - (files.length - 1 - index) * 3600} ${shellQuote(markorNote(name))}`))];
      const newest = files[files.length - 1] ?? '';
      return { start, adb: [fileCheck(markorNote(newest), false), entryCount(folders.markor, files.length - 1)] };
    },
  },
  MarkorEditNote: {
    app: 'markor',
    params: (random) => {
      // AndroidWorld draws header, footer or replace; task_metadata.json gives the header form's instruction only.
      const original = drawSentence(random);
      return { file_name: `note_${drawToken(random, 5)}${pick(random, ['.md', '.txt'])}`, edit_type: 'header', original, header: drawSentence(random) };
    },
    device: (params) => ({ start: markorStart([{ name: text(params, 'file_name'), content: text(params, 'original') }]), adb: [fileContent(markorNote(text(params, 'file_name')), editedNote(params))] }),
    twin: (params) => rewriteTwin(text(params, 'file_name'), text(params, 'original'), editedNote(params)),
  },
  MarkorAddNoteHeader: {
    app: 'markor',
    params: (random) => ({ file_name: drawFileName(random), header: drawToken(random, 20), original: drawSentence(random) }),
    device: (params) => ({ start: markorStart([{ name: text(params, 'file_name'), content: text(params, 'original') }]), adb: [fileContent(markorNote(text(params, 'file_name')), `${text(params, 'header')}\n\n${text(params, 'original')}`)] }),
    twin: (params) => rewriteTwin(text(params, 'file_name'), text(params, 'original'), `${text(params, 'header')}\n\n${text(params, 'original')}`),
  },
  MarkorChangeNoteContent: {
    app: 'markor',
    params: (random) => {
      const [original = '', updated = ''] = drawSentences(random, 2);
      return { file_name: drawFileName(random), original, updated_content: updated };
    },
    device: (params) => ({ start: markorStart([{ name: text(params, 'file_name'), content: text(params, 'original') }]), adb: [fileContent(markorNote(text(params, 'file_name')), text(params, 'updated_content'))] }),
    twin: (params) => rewriteTwin(text(params, 'file_name'), text(params, 'original'), text(params, 'updated_content')),
  },
  MarkorMoveNote: {
    app: 'markor',
    params: (random) => {
      const [source = 'Work', destination = 'Archive'] = pick(random, [['Work', 'Archive'], ['Personal', 'Work'], ['Ideas', 'Archive'], ['Archive', 'Personal']]);
      return { file_name: drawFileName(random), source_folder: source, destination_folder: destination };
    },
    device: (params) => ({
      start: markorStart([{ name: `${text(params, 'source_folder')}/${text(params, 'file_name')}`, content: 'Moved note.' }], [text(params, 'destination_folder')]),
      adb: [fileCheck(markorNote(`${text(params, 'destination_folder')}/${text(params, 'file_name')}`), true), fileCheck(markorNote(`${text(params, 'source_folder')}/${text(params, 'file_name')}`), false)],
    }),
  },
  MarkorMergeNotes: {
    app: 'markor',
    params: (random) => {
      const [file1 = '', file2 = '', file3 = ''] = drawNoteTitles(random, 3);
      const [content1 = '', content2 = '', content3 = ''] = drawSentences(random, 3);
      return { file1_name: file1, file2_name: file2, file3_name: file3, new_file_name: `merged_${drawToken(random, 4)}.md`, content1, content2, content3 };
    },
    device: (params) => ({
      start: markorStart([1, 2, 3].map((index) => ({ name: text(params, `file${index}_name`), content: text(params, `content${index}`) }))),
      adb: [fileContent(markorNote(text(params, 'new_file_name')), [1, 2, 3].map((index) => text(params, `content${index}`)).join('\n'))],
    }),
    twin: (params) => {
      // A new line between the contents: an empty line, as AndroidWorld's expected file has.
      const merged = [1, 2, 3].map((index) => text(params, `content${index}`)).join('\n\n');
      return {
        start: { launch: simPackages.notes, state: { [simPackages.notes]: notesState([1, 2, 3].map((index) => ({ title: text(params, `file${index}_name`), text: text(params, `content${index}`) }))) } },
        success: { state: [{ app: simPackages.notes, path: 'notes', op: 'some', where: [{ path: 'title', op: 'equals', value: text(params, 'new_file_name') }, { path: 'text', op: 'equals', value: merged }] }] },
        solution: createNoteSteps(text(params, 'new_file_name'), merged),
      };
    },
  },
  MarkorCreateNoteFromClipboard: {
    app: 'markor',
    also: ['clipper'],
    params: (random) => ({ file_name: drawFileName(random), clipboard: drawSentence(random) }),
    device: (params) => ({ start: [...markorStart([]), ...setClipboard(text(params, 'clipboard')).slice(1)], launch: packages.markor, adb: [fileContent(markorNote(text(params, 'file_name')), text(params, 'clipboard'))] }),
  },
  MarkorCreateNoteAndSms: {
    app: 'markor',
    also: ['sms'],
    params: (random) => ({ file_name: drawFileName(random), text: drawSentence(random), number: drawPhoneNumber(random) }),
    device: (params) => ({ start: [...markorStart([]), clearSms()], adb: [fileContent(markorNote(text(params, 'file_name')), text(params, 'text')), smsSent(text(params, 'number'), text(params, 'text'))] }),
  },
  MarkorTranscribeReceipt: { app: 'markor', also: ['gallery'], params: () => ({}), device: () => uncovered(why.media) },
  MarkorTranscribeVideo: { app: 'markor', also: ['vlc'], device: () => uncovered(why.media) },
};

/** AndroidWorld's header edit: the header, a line break, the original text. */
function editedNote(params: TemplateParams): string {
  return `${text(params, 'header')}\n${text(params, 'original')}`;
}

function rewriteTwin(title: string, original: string, expected: string): SimTwin {
  return {
    start: { launch: simPackages.notes, state: { [simPackages.notes]: notesState([{ title: 'General note', text: 'Call the dentist on Monday.' }, { title, text: original }]) } },
    success: { state: [{ app: simPackages.notes, path: 'notes', op: 'some', where: [{ path: 'title', op: 'equals', value: title }, { path: 'text', op: 'equals', value: expected }] }] },
    solution: rewriteNoteSteps(title, expected),
  };
}

const smsStart = (): DeviceSetupStep[] => [clearSms(), shell('settings put global heads_up_notifications_enabled 0')];

/** Addresses of ours for the event a contact texts. */
const eventAddresses = ['14 Harbour Road, Portland, ME 04101', '220 Linden Ave, Madison, WI 53703', '9 Quarry Lane, Boulder, CO 80302', '480 Orchard St, Eugene, OR 97401'];

/**
 * Start steps that add a contact through the contacts provider (AndroidWorld fills the
 * contact editor instead): a raw contact, then its name and mobile number. `index` is the
 * raw contact's id, 1 for the first after `pm clear` of the provider.
 */
function addContact(index: number, name: string, number: string): DeviceSetupStep[] {
  const data = (mimetype: string, fields: string): DeviceSetupStep => shell(`content insert --uri content://com.android.contacts/data --bind raw_contact_id:i:${index} --bind mimetype:s:vnd.android.cursor.item/${mimetype} ${fields}`);
  return [shell('content insert --uri content://com.android.contacts/raw_contacts --bind account_type:n: --bind account_name:n:'), data('name', `--bind data1:s:${shellQuote(name)}`), data('phone_v2', `--bind data1:s:${number} --bind data2:i:2`)];
}

/** An SQL text literal. */
function sqlText(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** The number of sent messages (SMS type 2) that meet `where` (SQL after the type test), read as root. */
function smsCount(where: string, count: number): AdbCheck {
  const sql = `SELECT count(*) FROM sms WHERE type = 2 ${where}`.trimEnd();
  return { command: `adb shell su 0 sqlite3 /data/data/com.android.providers.telephony/databases/mmssms.db "${sql};"`, expect: { equals: String(count) } };
}

const smsTemplates: Record<string, AndroidWorldTemplate> = {
  SimpleSmsSend: {
    app: 'sms',
    params: (random) => ({ number: drawPhoneNumber(random), message: drawSentence(random) }),
    device: (params) => ({ start: smsStart(), adb: [smsSent(text(params, 'number'), text(params, 'message'))] }),
  },
  SimpleSmsReply: {
    app: 'sms',
    params: (random) => ({ number: drawPhoneNumber(random), message: drawSentence(random), other: drawPhoneNumber(random), received: drawSentence(random) }),
    device: (params) => ({
      start: [...smsStart(), { emu: `sms send ${text(params, 'other')} ${text(params, 'received')}` }, { emu: `sms send ${text(params, 'number')} ${text(params, 'received')}` }],
      adb: [smsSent(text(params, 'number'), text(params, 'message'))],
    }),
  },
  SimpleSmsReplyMostRecent: {
    app: 'sms',
    params: (random) => ({ message: drawSentence(random), number: drawPhoneNumber(random), older: drawPhoneNumber(random), received: drawSentence(random) }),
    device: (params) => ({
      start: [...smsStart(), { emu: `sms send ${text(params, 'older')} ${text(params, 'received')}` }, shell('sleep 2'), { emu: `sms send ${text(params, 'number')} ${text(params, 'received')}` }],
      adb: [smsSent(text(params, 'number'), text(params, 'message'))],
    }),
  },
  SimpleSmsSendClipboardContent: {
    app: 'sms',
    also: ['clipper'],
    params: (random) => ({ number: drawPhoneNumber(random), message: drawClipboardText(random) }),
    device: (params) => ({ start: [...smsStart(), ...setClipboard(text(params, 'message')).slice(1)], launch: packages.sms, adb: [smsSent(text(params, 'number'), text(params, 'message'))] }),
  },
  SimpleSmsResend: {
    app: 'sms',
    params: (random) => {
      const name = drawName(random);
      return { name: `${name.given} ${name.family}`, number: drawPhoneNumber(random), message: drawSentence(random) };
    },
    device: (params) => ({
      start: [
        ...smsStart(),
        { pmClear: 'com.android.providers.contacts' },
        ...addContact(1, text(params, 'name'), text(params, 'number')),
        shell(`su 0 content insert --uri content://sms/sent --bind address:s:${text(params, 'number')} --bind body:s:${shellQuote(text(params, 'message'))}`, 'the message sent before the task'),
        { emu: `sms send ${text(params, 'number')} Sorry, your last message did not come through. What did you send?` },
      ],
      // Sent twice now (AndroidWorld: one more sent message than before, the same text to the same number).
      adb: [smsCount('', 2), smsCount(`AND body = ${sqlText(text(params, 'message'))} AND address LIKE ${sqlText(`%${text(params, 'number').slice(-7)}`)}`, 2)],
    }),
  },
  SimpleSmsSendReceivedAddress: {
    app: 'sms',
    params: (random) => {
      const [first, second] = [drawName(random), drawName(random)];
      return { name1: `${first.given} ${first.family}`, number: drawPhoneNumber(random), name2: `${second.given} ${second.family}`, other: drawPhoneNumber(random), message: pick(random, eventAddresses) };
    },
    device: (params) => ({
      start: [
        ...smsStart(),
        { pmClear: 'com.android.providers.contacts' },
        ...addContact(1, text(params, 'name1'), text(params, 'number')),
        ...addContact(2, text(params, 'name2'), text(params, 'other')),
        { emu: `sms send ${text(params, 'other')} ${text(params, 'message')}` },
      ],
      adb: [smsSent(text(params, 'number'), text(params, 'message'))],
    }),
  },
};

const fileTemplates: Record<string, AndroidWorldTemplate> = {
  FilesDeleteFile: {
    app: 'files',
    params: (random) => ({ file_name: drawFileName(random, ['.txt', '.pdf', '.jpg']), subfolder: pick(random, ['Documents', 'Download', 'Music', 'Pictures', 'Movies']) }),
    device: (params) => {
      const file = `${folders.storage}/${text(params, 'subfolder')}/${text(params, 'file_name')}`;
      return { start: [writeFile(file, 'AndroidWorld file task.'), writeFile(`${folders.storage}/${text(params, 'subfolder')}/keep_${text(params, 'file_name')}`, 'Noise file.')], adb: [fileCheck(file, false), fileCheck(`${folders.storage}/${text(params, 'subfolder')}/keep_${text(params, 'file_name')}`, true)] };
    },
  },
  FilesMoveFile: {
    app: 'files',
    params: (random) => {
      const [source = 'Download', destination = 'Documents'] = random.shuffle(['Documents', 'Download', 'Music', 'Pictures']);
      return { file_name: drawFileName(random, ['.txt', '.pdf']), source_folder: source, destination_folder: destination };
    },
    device: (params) => ({
      start: [writeFile(`${folders.storage}/${text(params, 'source_folder')}/${text(params, 'file_name')}`, 'AndroidWorld file task.'), shell(`rm -f ${shellQuote(`${folders.storage}/${text(params, 'destination_folder')}/${text(params, 'file_name')}`)}`)],
      adb: [fileCheck(`${folders.storage}/${text(params, 'destination_folder')}/${text(params, 'file_name')}`, true), fileCheck(`${folders.storage}/${text(params, 'source_folder')}/${text(params, 'file_name')}`, false)],
    }),
  },
  SaveCopyOfReceiptTaskEval: { app: 'files', also: ['gallery'], device: () => uncovered(why.media) },
};

const mediaTemplates: Record<string, AndroidWorldTemplate> = {
  AudioRecorderRecordAudio: {
    app: 'audioRecorder',
    params: () => ({}),
    device: () => ({ start: clearFolder(folders.audioRecorder), adb: [entryCount(folders.audioRecorder, 1)] }),
  },
  AudioRecorderRecordAudioWithFileName: {
    app: 'audioRecorder',
    params: (random) => ({ file_name: `${pick(random, ['interview', 'lecture', 'memo', 'meeting'])}_${drawToken(random, 4)}` }),
    device: (params) => ({ start: clearFolder(folders.audioRecorder), adb: [fileCheck(`${folders.audioRecorder}/${text(params, 'file_name')}.m4a`, true)] }),
  },
  CameraTakePhoto: {
    app: 'camera',
    params: () => ({}),
    device: () => ({ start: [...clearFolder(folders.pictures), ...clearFolder(folders.movies)], adb: [entryCount(folders.pictures, 1)] }),
  },
  CameraTakeVideo: {
    app: 'camera',
    params: () => ({}),
    device: () => ({ start: [...clearFolder(folders.pictures), ...clearFolder(folders.movies)], adb: [entryCount(folders.movies, 1)] }),
  },
  SimpleDrawProCreateDrawing: {
    app: 'draw',
    params: (random) => ({ file_name: drawFileName(random, ['.png', '.svg', '.jpg']) }),
    device: (params) => ({ start: [shell(`rm -f ${shellQuote(`${folders.storage}/Pictures/${text(params, 'file_name')}`)}`)], adb: [fileCheck(`${folders.storage}/Pictures/${text(params, 'file_name')}`, true)] }),
  },
};

const notCovered = (app: AndroidWorldApp, reason: string, also?: readonly AndroidWorldApp[]): AndroidWorldTemplate => ({ app, ...(also === undefined ? {} : { also }), device: () => uncovered(reason) });

const uncoveredTemplates: Record<string, AndroidWorldTemplate> = {
  BrowserDraw: notCovered('chrome', why.browser, ['files']),
  BrowserMaze: notCovered('chrome', why.browser, ['files']),
  BrowserMultiply: notCovered('chrome', why.browser, ['files']),
  ExpenseAddMultipleFromGallery: notCovered('expense', why.media, ['gallery']),
  OsmAndFavorite: notCovered('osmand', why.osmand),
  OsmAndMarker: notCovered('osmand', why.osmand),
  OsmAndTrack: notCovered('osmand', why.osmand),
  RecipeAddMultipleRecipesFromImage: notCovered('broccoli', why.media, ['gallery']),
  RetroCreatePlaylist: notCovered('retro', why.media),
  RetroPlayingQueue: notCovered('retro', why.media),
  RetroPlaylistDuration: notCovered('retro', why.media),
  RetroSavePlaylist: notCovered('retro', why.media),
  VlcCreatePlaylist: notCovered('vlc', why.media),
  VlcCreateTwoPlaylists: notCovered('vlc', why.media),
};

export type { AndroidWorldTemplate, DevicePart } from './androidworld-template.js';

/** Every template by AndroidWorld's class name. */
export const androidWorldTemplates: Readonly<Record<string, AndroidWorldTemplate>> = {
  ...systemTemplates,
  ...clockTemplates,
  ...contactsTemplates,
  ...markorTemplates,
  ...smsTemplates,
  ...fileTemplates,
  ...mediaTemplates,
  ...expenseTemplates,
  ...recipeTemplates,
  ...calendarTemplates,
  ...tasksAppTemplates,
  ...openTracksTemplates,
  ...joplinTemplates,
  ...uncoveredTemplates,
};
