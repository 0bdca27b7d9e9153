import { z } from 'zod';
import { defineActivity, type ActivityContext, type Overlay, type SimApp } from '../sim-app.js';
import { button, checkBox, column, editText, frame, group, iconButton, image, label, recycler, row, scrollView, seekBar, switchWidget, view, type Widget } from '../widget.js';
import { openTimePicker, pickedTime, timePickerDialog, type TimePickerState } from './time-picker.js';

/** Package of the Clock app. */
export const clockPackage = 'com.google.android.deskclock';

/** Repeat-day keys of `Alarm.days`, Sunday first. */
export const weekdays = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const dayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const dayShort = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const dayLetters = ['S', 'M', 'T', 'W', 'T', 'F', 'S'];

/** One alarm. `hour` is 0–23; `days` empty means "not repeating" (rings once). */
export const alarmSchema = z.object({
  id: z.string(),
  hour: z.number().int().min(0).max(23),
  minute: z.number().int().min(0).max(59),
  label: z.string(),
  enabled: z.boolean(),
  days: z.array(z.enum(weekdays)),
  vibrate: z.boolean(),
  ringtone: z.string(),
});
export type Alarm = z.infer<typeof alarmSchema>;

/** A city on the Clock tab; `utcOffsetMinutes` is fixed (no DST in the simulator). */
export const worldClockSchema = z.object({ city: z.string(), utcOffsetMinutes: z.number().int() });

/**
 * Clock's state, as task checks read it via `appState('com.google.android.deskclock')`.
 * `bedtime.sleepSound` and `settings` may be left out of seed data (defaults apply).
 * `timer.setupDigits` is what the timer keypad shows (`hhmmss` digits typed, e.g.
 * `"11500"` = 1h 15m 00s) before Start; `timer.running` lists started timers.
 */
export const clockStateSchema = z.object({
  alarms: z.array(alarmSchema),
  worldClocks: z.array(worldClockSchema),
  timer: z.object({
    setupDigits: z.string(),
    timers: z.array(z.object({ id: z.string(), durationSeconds: z.number().int(), remainingMs: z.number(), running: z.boolean() })),
  }),
  stopwatch: z.object({ running: z.boolean(), elapsedMs: z.number(), startedAt: z.number().nullable(), laps: z.array(z.number()) }),
  bedtime: z.object({
    bedtimeHour: z.number().int(),
    bedtimeMinute: z.number().int(),
    bedtimeEnabled: z.boolean(),
    wakeHour: z.number().int(),
    wakeMinute: z.number().int(),
    wakeEnabled: z.boolean(),
    sleepSound: z.string().default('None'),
  }),
  settings: z
    .object({
      clockStyle: z.enum(['Digital', 'Analog']),
      automaticHomeClock: z.boolean(),
      homeTimeZone: z.string(),
      silenceAfter: z.string(),
      snoozeLength: z.string(),
      alarmVolume: z.number().int().min(0).max(100),
      graduallyIncreaseVolume: z.string(),
    })
    .default({ clockStyle: 'Digital', automaticHomeClock: true, homeTimeZone: 'London', silenceAfter: '10 minutes', snoozeLength: '10 minutes', alarmVolume: 80, graduallyIncreaseVolume: 'Off' }),
  nextId: z.number().int(),
});
export type ClockState = z.infer<typeof clockStateSchema>;

/** Cities the city picker offers, with fixed UTC offsets. */
export const clockCities: readonly { city: string; utcOffsetMinutes: number }[] = [
  { city: 'Amsterdam', utcOffsetMinutes: 60 },
  { city: 'Barcelona', utcOffsetMinutes: 60 },
  { city: 'Beijing', utcOffsetMinutes: 480 },
  { city: 'Berlin', utcOffsetMinutes: 60 },
  { city: 'Buenos Aires', utcOffsetMinutes: -180 },
  { city: 'Cairo', utcOffsetMinutes: 120 },
  { city: 'Chicago', utcOffsetMinutes: -360 },
  { city: 'Dubai', utcOffsetMinutes: 240 },
  { city: 'Hong Kong', utcOffsetMinutes: 480 },
  { city: 'Istanbul', utcOffsetMinutes: 180 },
  { city: 'London', utcOffsetMinutes: 0 },
  { city: 'Los Angeles', utcOffsetMinutes: -480 },
  { city: 'Madrid', utcOffsetMinutes: 60 },
  { city: 'Mexico City', utcOffsetMinutes: -360 },
  { city: 'Moscow', utcOffsetMinutes: 180 },
  { city: 'Mumbai', utcOffsetMinutes: 330 },
  { city: 'New York', utcOffsetMinutes: -300 },
  { city: 'Paris', utcOffsetMinutes: 60 },
  { city: 'Rome', utcOffsetMinutes: 60 },
  { city: 'San Francisco', utcOffsetMinutes: -480 },
  { city: 'Seoul', utcOffsetMinutes: 540 },
  { city: 'Singapore', utcOffsetMinutes: 480 },
  { city: 'Sydney', utcOffsetMinutes: 600 },
  { city: 'Tokyo', utcOffsetMinutes: 540 },
  { city: 'Toronto', utcOffsetMinutes: -300 },
];

/** Ringtones the sound picker offers. */
export const clockRingtones = ['Default (Cesium)', 'Argon', 'Beep-Beep', 'Carbon', 'Helium', 'Krypton', 'Neon', 'Osmium', 'Oxygen', 'Platinum'];

/** The default seed: two alarms (one on), no cities, nothing running. */
export function defaultClockState(): ClockState {
  return {
    alarms: [
      { id: 'alarm-1', hour: 8, minute: 30, label: '', enabled: true, days: ['mon', 'tue', 'wed', 'thu', 'fri'], vibrate: true, ringtone: 'Default (Cesium)' },
      { id: 'alarm-2', hour: 9, minute: 0, label: '', enabled: false, days: ['sun', 'sat'], vibrate: true, ringtone: 'Default (Cesium)' },
    ],
    worldClocks: [],
    timer: { setupDigits: '', timers: [] },
    stopwatch: { running: false, elapsedMs: 0, startedAt: null, laps: [] },
    bedtime: { bedtimeHour: 23, bedtimeMinute: 0, bedtimeEnabled: false, wakeHour: 7, wakeMinute: 0, wakeEnabled: false, sleepSound: 'None' },
    settings: { clockStyle: 'Digital', automaticHomeClock: true, homeTimeZone: 'London', silenceAfter: '10 minutes', snoozeLength: '10 minutes', alarmVolume: 80, graduallyIncreaseVolume: 'Off' },
    nextId: 3,
  };
}

/** `3:05 PM` (plain space; the real app puts a hair space before AM/PM). */
export function formatTime12(hour: number, minute: number): string {
  const h = hour % 12 === 0 ? 12 : hour % 12;
  return `${h}:${String(minute).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`;
}

function repeatSummary(days: readonly string[]): string {
  if (days.length === 7) return 'Every day';
  if (days.length === 0) return 'Not scheduled';
  const sorted = weekdays.filter((d) => days.includes(d));
  if (sorted.length === 5 && !sorted.includes('sun') && !sorted.includes('sat')) return 'Mon, Tue, Wed, Thu, Fri';
  return sorted.map((d) => dayShort[weekdays.indexOf(d)]).join(', ');
}

type Tab = 'alarm' | 'clock' | 'timer' | 'stopwatch' | 'bedtime';

/** Sounds the Bedtime "Sleep sounds" picker offers. */
export const sleepSounds = ['None', 'Deep space', 'Ocean waves', 'Rain', 'Forest', 'White noise'];

/** A single-choice dialog (radio buttons, Cancel) that picks on tap, as Android's list preferences do. */
function choiceDialog(title: string, options: readonly string[], selected: string, pick: (value: string) => void, cancel: () => void): Overlay {
  return {
    kind: 'dialog',
    onDismiss: cancel,
    root: column({ cls: 'android.widget.FrameLayout', id: 'android:id/parentPanel', look: 'card', padding: [0, 24, 0, 8] }, [
      label(title, { id: 'android:id/alertTitle', fontSize: 20, padding: [24, 0, 24, 8] }),
      // Fills what the dialog has left so that long lists scroll inside it.
      view('android.widget.ListView', { id: 'android:id/select_dialog_listview', layout: 'column', height: 'fill', scroll: { key: `choice:${title}` }, flags: { scrollable: true, focusable: true } }, options.map((option) =>
        view('android.widget.CheckedTextView', {
          id: 'android:id/text1',
          text: option,
          height: 48,
          padding: [24, 12, 24, 12],
          icon: option === selected ? 'radio-on' : 'radio-off',
          onTap: () => pick(option),
          flags: { checkable: true, checked: option === selected, clickable: true, focusable: true },
        }),
      )),
      row({ id: 'android:id/buttonPanel', justify: 'end', padding: [8, 0, 8, 0] }, [button('Cancel', cancel, { id: 'android:id/button2', look: 'plain' })]),
    ]),
  };
}
type ClockDialog =
  | { kind: 'time'; picker: TimePickerState; target: { kind: 'new' } | { kind: 'alarm'; id: string } | { kind: 'bedtime' } | { kind: 'wake' } }
  | { kind: 'sleep-sound' }
  | { kind: 'label'; alarmId: string; value: string }
  | { kind: 'remove-city'; city: string };
interface DeskClockUi {
  tab: Tab;
  expanded: string | undefined;
  dialog: ClockDialog | undefined;
  menu: boolean;
}

const id = (name: string): string => `${clockPackage}:id/${name}`;

function minutesUntil(now: Date, hour: number, minute: number): number {
  const current = now.getUTCHours() * 60 + now.getUTCMinutes();
  const target = hour * 60 + minute;
  const diff = (target - current + 24 * 60) % (24 * 60);
  return diff === 0 ? 24 * 60 : diff;
}

function alarmSetToast(now: Date, hour: number, minute: number): string {
  const total = minutesUntil(now, hour, minute);
  const h = Math.floor(total / 60);
  const m = total % 60;
  const parts: string[] = [];
  if (h > 0) parts.push(`${h} ${h === 1 ? 'hour' : 'hours'}`);
  if (m > 0 || h === 0) parts.push(`${m} ${m === 1 ? 'minute' : 'minutes'}`);
  return `Alarm set for ${parts.join(' and ')} from now.`;
}

function toolbar(title: string, extra: Widget[] = []): Widget {
  return column({ id: id('app_bar_layout'), height: 64 }, [
    row({ cls: 'android.view.ViewGroup', id: id('toolbar'), padding: [24, 0, 0, 0], align: 'center', height: 'fill' }, [
      label(title, { id: id('action_bar_title'), fontSize: 22, width: 'fill' }),
      ...extra,
    ]),
  ]);
}

function tabBar(ui: DeskClockUi): Widget {
  const tabs: { tab: Tab; title: string; icon: string }[] = [
    { tab: 'alarm', title: 'Alarm', icon: 'alarm' },
    { tab: 'clock', title: 'Clock', icon: 'clock' },
    { tab: 'timer', title: 'Timer', icon: 'timer' },
    { tab: 'stopwatch', title: 'Stopwatch', icon: 'stopwatch' },
    { tab: 'bedtime', title: 'Bedtime', icon: 'bedtime' },
  ];
  return frame({ id: id('navigation_bar'), height: 80 }, [
    row({ cls: 'android.view.ViewGroup' }, tabs.map((t) => {
      const selected = ui.tab === t.tab;
      return view('android.widget.FrameLayout', {
        id: id(`tab_menu_${t.tab}`),
        desc: t.title,
        width: 'fill',
        layout: 'column',
        padding: [8, 8, 8, 8],
        onTap: () => {
          ui.tab = t.tab;
          ui.expanded = undefined;
        },
        flags: { clickable: !selected, focusable: true, selected },
      }, [
        frame({ id: id('navigation_bar_item_icon_container'), height: 32, align: 'center' }, [image(t.icon, { id: id('navigation_bar_item_icon_view'), flags: { selected } })]),
        label(t.title, { id: id(selected ? 'navigation_bar_item_large_label_view' : 'navigation_bar_item_small_label_view'), fontSize: 12, flags: { selected } }),
      ]);
    })),
  ]);
}

function alarmCard(context: ActivityContext<ClockState>, ui: DeskClockUi, alarm: Alarm): Widget {
  const time = formatTime12(alarm.hour, alarm.minute);
  const expanded = ui.expanded === alarm.id;
  const toggle = (): void => {
    alarm.enabled = !alarm.enabled;
    if (alarm.enabled) context.toast(alarmSetToast(context.clock, alarm.hour, alarm.minute));
  };
  const onoff = switchWidget(alarm.enabled, toggle, { id: id('onoff'), desc: `${time} alarm` });
  const clock = label(time, {
    id: id('digital_clock'),
    desc: time,
    fontSize: 40,
    width: 'fill',
    onTap: () => {
      ui.dialog = { kind: 'time', picker: openTimePicker(alarm.hour, alarm.minute), target: { kind: 'alarm', id: alarm.id } };
    },
  });
  const arrow = iconButton(expanded ? 'collapse' : 'expand', `${expanded ? 'Collapse' : 'Expand'} ${time} alarm`, () => {
    ui.expanded = expanded ? undefined : alarm.id;
  }, { id: id('arrow') });
  const summary = label(alarm.label !== '' ? `${alarm.label}, ${repeatSummary(alarm.days)}` : repeatSummary(alarm.days), { id: id(expanded ? 'repeat_summary' : 'days_of_week'), fontSize: 14, width: 'fill' });
  const children: Widget[] = [];
  if (expanded) {
    children.push(
      row({ align: 'center' }, [
        label(alarm.label, {
          id: id('edit_label'),
          hint: 'Add label',
          desc: alarm.label === '' ? 'No label specified' : `Label ${alarm.label}`,
          width: 'fill',
          onTap: () => {
            ui.dialog = { kind: 'label', alarmId: alarm.id, value: alarm.label };
          },
        }),
        arrow,
      ]),
      clock,
      row({ id: id('alarm_info'), align: 'center' }, [summary, onoff]),
      row({ id: id('repeat_days'), gap: 4 }, weekdays.map((day, i) => {
        const on = alarm.days.includes(day);
        return checkBox(on, () => {
          alarm.days = on ? alarm.days.filter((d) => d !== day) : weekdays.filter((d) => d === day || alarm.days.includes(d));
        }, { id: id(`day_button_${i}`), text: dayLetters[i], desc: dayNames[i], width: 'fill', look: on ? 'filled' : 'outlined' });
      })),
      label(alarm.ringtone, {
        id: id('choose_ringtone'),
        desc: `Ringtone ${alarm.ringtone}`,
        icon: 'bell',
        onTap: () => context.start('com.android.deskclock.ringtone.RingtonePickerActivity', { alarmId: alarm.id }),
      }),
      checkBox(alarm.vibrate, () => {
        alarm.vibrate = !alarm.vibrate;
      }, { id: id('vibrate_onoff'), text: 'Vibrate' }),
      button('Delete', () => {
        context.state.alarms = context.state.alarms.filter((a) => a.id !== alarm.id);
        ui.expanded = undefined;
        context.toast('Alarm deleted');
      }, { id: id('delete'), look: 'plain', icon: 'delete', width: 'wrap' }),
    );
  } else {
    children.push(row({ align: 'center' }, [clock, arrow]), row({ id: id('alarm_info'), align: 'center' }, [summary, onoff]));
  }
  return view('androidx.cardview.widget.CardView', {
    desc: alarm.label === '' ? ' Alarm' : `${alarm.label} Alarm`,
    look: 'card',
    onTap: () => {
      ui.expanded = expanded ? undefined : alarm.id;
    },
    flags: { clickable: true, focusable: true },
  }, [group({ id: id('alarm_card_layout'), padding: [16, 8, 16, 8], gap: 4 }, children)]);
}

function alarmTab(context: ActivityContext<ClockState>, ui: DeskClockUi): Widget[] {
  const sorted = [...context.state.alarms].sort((a, b) => a.hour * 60 + a.minute - (b.hour * 60 + b.minute));
  const list = sorted.length === 0
    ? [label('No alarms', { id: id('alarms_empty_view'), width: 'wrap' })]
    : sorted.map((alarm) => alarmCard(context, ui, alarm));
  return [
    frame({ id: id('main'), height: 'fill', justify: 'end' }, [
      recycler('alarms', { id: id('alarm_recycler_view'), padding: [16, 4, 16, 96], gap: 12, scroll: { key: 'alarms', shuffle: true } }, list),
      frame({ id: id('fab_container'), height: 96, justify: 'center', align: 'center' }, [
        view('android.widget.Button', {
          id: id('fab'),
          desc: 'Add alarm',
          icon: 'add',
          width: 72,
          height: 72,
          look: 'filled',
          onTap: () => {
            ui.dialog = { kind: 'time', picker: openTimePicker(context.clock.getUTCHours(), 0), target: { kind: 'new' } };
          },
          flags: { clickable: true, focusable: true },
        }),
      ]),
    ]),
  ];
}

function cityTime(now: Date, offsetMinutes: number): { time: string; dayNote: string } {
  const local = new Date(now.getTime() + offsetMinutes * 60_000);
  const dayDiff = local.getUTCDate() - now.getUTCDate();
  const diffHours = offsetMinutes / 60;
  const sign = diffHours >= 0 ? '+' : '-';
  const dayWord = dayDiff === 0 ? 'Today' : dayDiff > 0 || dayDiff < -20 ? 'Tomorrow' : 'Yesterday';
  return { time: formatTime12(local.getUTCHours(), local.getUTCMinutes()), dayNote: `${dayWord}, ${sign}${Math.abs(diffHours)} hr` };
}

function clockTab(context: ActivityContext<ClockState>, ui: DeskClockUi): Widget[] {
  const now = context.clock;
  const dateText = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(now);
  const cities = context.state.worldClocks.map((city) => {
    const t = cityTime(now, city.utcOffsetMinutes);
    return view('android.widget.FrameLayout', {
      layout: 'row',
      look: 'card',
      padding: [16, 12, 16, 12],
      onLongPress: () => {
        ui.dialog = { kind: 'remove-city', city: city.city };
      },
      flags: { clickable: false, longClickable: true, focusable: true },
    }, [
      column({ width: 'fill' }, [label(city.city, { id: id('city_name'), fontSize: 20 }), label(t.dayNote, { id: id('city_day'), fontSize: 14 })]),
      label(t.time, { id: id('digital_clock'), fontSize: 28 }),
    ]);
  });
  return [
    frame({ id: id('main'), height: 'fill', justify: 'end' }, [
      recycler('cities', { id: id('cities'), padding: [16, 8, 16, 96], gap: 8, scroll: { key: 'cities', shuffle: true } }, [
        column({ id: id('main_clock_frame'), padding: [8, 16, 8, 16] }, [
          label(formatTime12(now.getUTCHours(), now.getUTCMinutes()), { id: id('digital_clock'), fontSize: 56 }),
          label(dateText, { id: id('date'), desc: dateText, fontSize: 16 }),
        ]),
        ...cities,
      ]),
      frame({ id: id('fab_container'), height: 96, justify: 'center', align: 'center' }, [
        view('android.widget.Button', {
          id: id('fab'),
          desc: 'Add city',
          icon: 'globe',
          width: 72,
          height: 72,
          look: 'filled',
          onTap: () => context.start('com.android.deskclock.worldclock.CitySelectionActivity'),
          flags: { clickable: true, focusable: true },
        }),
      ]),
    ]),
  ];
}

function formatDigits(digits: string): string {
  const padded = digits.padStart(6, '0');
  return `${padded.slice(0, 2)}h ${padded.slice(2, 4)}m ${padded.slice(4, 6)}s`;
}

function digitsToSeconds(digits: string): number {
  const padded = digits.padStart(6, '0');
  return Number(padded.slice(0, 2)) * 3600 + Number(padded.slice(2, 4)) * 60 + Number(padded.slice(4, 6));
}

function formatDuration(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}` : `${m}:${String(s).padStart(2, '0')}`;
}

function timerTab(context: ActivityContext<ClockState>): Widget[] {
  const timer = context.state.timer;
  const running = timer.timers[0];
  if (running !== undefined) {
    return [
      column({ id: id('timer_view'), padding: 24, gap: 16, align: 'center' }, [
        label(`${Math.round(running.durationSeconds / 60)}m timer`, { id: id('timer_label'), fontSize: 16 }),
        label(formatDuration(running.remainingMs), { id: id('timer_time_text'), fontSize: 56 }),
        row({ gap: 16 }, [
          button('Delete', () => {
            timer.timers = timer.timers.filter((t) => t.id !== running.id);
          }, { id: id('reset_add'), look: 'plain' }),
          view('android.widget.Button', {
            id: id('fab'),
            desc: running.running ? 'Pause' : 'Start',
            icon: running.running ? 'pause' : 'play',
            width: 72,
            height: 72,
            look: 'filled',
            onTap: () => {
              running.running = !running.running;
            },
            flags: { clickable: true, focusable: true },
          }),
        ]),
      ]),
    ];
  }
  const digit = (d: string): Widget => button(d, () => {
    const next = (timer.setupDigits + d).replace(/^0+/, '');
    if (next.length <= 6) timer.setupDigits = next;
  }, { id: id(`timer_setup_digit_${d}`), width: 'fill', height: 72, look: 'plain', fontSize: 28 });
  const keypadRows = [['1', '2', '3'], ['4', '5', '6'], ['7', '8', '9'], ['00', '0']].map((ds, i) => {
    const keys = ds.map(digit);
    if (i === 3) {
      keys.push(button('⌫', () => {
        timer.setupDigits = timer.setupDigits.slice(0, -1);
      }, { id: id('timer_setup_delete'), desc: `Backspace ${timer.setupDigits.length}`, width: 'fill', height: 72, look: 'plain' }));
    }
    return row({ cls: 'android.view.ViewGroup', gap: 8 }, keys);
  });
  const seconds = digitsToSeconds(timer.setupDigits);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const fab: Widget[] = timer.setupDigits === ''
    ? []
    : [view('android.widget.Button', {
        id: id('fab'),
        desc: 'Start',
        icon: 'play',
        width: 72,
        height: 72,
        look: 'filled',
        onTap: () => {
          const durationSeconds = digitsToSeconds(timer.setupDigits);
          timer.timers.push({ id: `timer-${context.state.nextId++}`, durationSeconds, remainingMs: durationSeconds * 1000, running: true });
          timer.setupDigits = '';
        },
        flags: { clickable: true, focusable: true },
      })];
  return [
    group({ id: id('timer_setup'), padding: [24, 16, 24, 16], gap: 16 }, [
      label(formatDigits(timer.setupDigits), { id: id('timer_setup_time'), desc: `${h} hours, ${m} minutes, ${s} seconds`, fontSize: 44 }),
      frame({ id: id('timer_setup_digits') }, [group({ gap: 8 }, keypadRows)]),
    ]),
    group({ id: id('fab_container'), height: 96, align: 'center' }, fab),
  ];
}

function stopwatchTab(context: ActivityContext<ClockState>): Widget[] {
  const sw = context.state.stopwatch;
  const elapsed = sw.elapsedMs + (sw.running && sw.startedAt !== null ? context.now - sw.startedAt : 0);
  const centis = Math.floor((elapsed % 1000) / 10);
  const totalSeconds = Math.floor(elapsed / 1000);
  const text = `${Math.floor(totalSeconds / 60)}:${String(totalSeconds % 60).padStart(2, '0')}.${String(centis).padStart(2, '0')}`;
  const laps = sw.laps.map((lap, i) => label(`# ${i + 1}   ${formatDuration(lap)}`, { id: id('lap_number'), fontSize: 16 }));
  return [
    column({ id: id('stopwatch_view'), padding: 24, gap: 16, align: 'center' }, [
      label(text, { id: id('stopwatch_time_text'), fontSize: 56 }),
      ...laps,
      row({ gap: 16, align: 'center' }, [
        iconButton('reset', 'Reset', () => {
          sw.running = false;
          sw.elapsedMs = 0;
          sw.startedAt = null;
          sw.laps = [];
        }, { id: id('reset_add'), flags: { enabled: elapsed > 0 } }),
        view('android.widget.Button', {
          id: id('fab'),
          desc: sw.running ? 'Pause' : 'Start',
          icon: sw.running ? 'pause' : 'play',
          width: 72,
          height: 72,
          look: 'filled',
          onTap: () => {
            if (sw.running) {
              sw.elapsedMs = elapsed;
              sw.startedAt = null;
              sw.running = false;
            } else {
              sw.startedAt = context.now;
              sw.running = true;
            }
          },
          flags: { clickable: true, focusable: true },
        }),
        iconButton('flag', 'Lap', () => {
          sw.laps.push(elapsed);
        }, { id: id('lap'), flags: { enabled: sw.running } }),
      ]),
    ]),
  ];
}

function bedtimeTab(context: ActivityContext<ClockState>, ui: DeskClockUi): Widget[] {
  const b = context.state.bedtime;
  const card = (title: string, hour: number, minute: number, enabled: boolean, which: 'bedtime' | 'wake', toggle: () => void): Widget =>
    view('androidx.cardview.widget.CardView', { look: 'card', padding: 16, layout: 'row', align: 'center' }, [
      column({ width: 'fill' }, [
        label(title, { id: id(`${which}_title`), fontSize: 16 }),
        label(formatTime12(hour, minute), {
          id: id(`${which}_time`),
          fontSize: 32,
          onTap: () => {
            ui.dialog = { kind: 'time', picker: openTimePicker(hour, minute), target: { kind: which } };
          },
        }),
      ]),
      switchWidget(enabled, toggle, { id: id(`${which}_onoff`), desc: title }),
    ]);
  return [
    column({ id: id('bedtime_view'), padding: 16, gap: 16 }, [
      card('Bedtime', b.bedtimeHour, b.bedtimeMinute, b.bedtimeEnabled, 'bedtime', () => {
        b.bedtimeEnabled = !b.bedtimeEnabled;
      }),
      card('Wake-up', b.wakeHour, b.wakeMinute, b.wakeEnabled, 'wake', () => {
        b.wakeEnabled = !b.wakeEnabled;
      }),
      view('android.widget.LinearLayout', {
        id: id('sleep_sounds'),
        layout: 'column',
        look: 'card',
        padding: 16,
        onTap: () => {
          ui.dialog = { kind: 'sleep-sound' };
        },
        flags: { clickable: true, focusable: true },
      }, [label('Sleep sounds', { id: 'android:id/title', fontSize: 16 }), label(b.sleepSound, { id: 'android:id/summary', fontSize: 14 })]),
    ]),
  ];
}

function dialogs(context: ActivityContext<ClockState>, ui: DeskClockUi): Overlay[] {
  const dialog = ui.dialog;
  if (dialog === undefined) return [];
  const close = (): void => {
    ui.dialog = undefined;
    context.focus(undefined);
  };
  switch (dialog.kind) {
    case 'time':
      return [{
        kind: 'dialog',
        onDismiss: close,
        root: timePickerDialog(clockPackage, dialog.picker, {
          cancel: close,
          ok: () => {
            const time = pickedTime(dialog.picker);
            if (time === undefined) {
              context.toast('Enter a valid time');
              return;
            }
            const target = dialog.target;
            if (target.kind === 'new') {
              const alarm: Alarm = { id: `alarm-${context.state.nextId++}`, hour: time.hour, minute: time.minute, label: '', enabled: true, days: [], vibrate: true, ringtone: 'Default (Cesium)' };
              context.state.alarms.push(alarm);
              ui.expanded = alarm.id;
              context.toast(alarmSetToast(context.clock, time.hour, time.minute));
            } else if (target.kind === 'alarm') {
              const alarm = context.state.alarms.find((a) => a.id === target.id);
              if (alarm !== undefined) {
                alarm.hour = time.hour;
                alarm.minute = time.minute;
                alarm.enabled = true;
                context.toast(alarmSetToast(context.clock, time.hour, time.minute));
              }
            } else if (target.kind === 'bedtime') {
              context.state.bedtime.bedtimeHour = time.hour;
              context.state.bedtime.bedtimeMinute = time.minute;
            } else {
              context.state.bedtime.wakeHour = time.hour;
              context.state.bedtime.wakeMinute = time.minute;
            }
            close();
          },
        }),
      }];
    case 'label':
      return [{
        kind: 'dialog',
        onDismiss: close,
        root: column({ cls: 'android.widget.FrameLayout', id: 'android:id/parentPanel', look: 'card', padding: 24, gap: 16 }, [
          label('Label', { id: 'android:id/alertTitle', fontSize: 20 }),
          editText({ key: 'alarm-label', value: dialog.value, onChange: (value) => {
            dialog.value = value;
          } }, { id: id('label_input_field'), hint: 'Label' }),
          row({ id: 'android:id/buttonPanel', justify: 'end', gap: 8 }, [
            button('Cancel', close, { id: 'android:id/button2', look: 'plain' }),
            button('OK', () => {
              const alarm = context.state.alarms.find((a) => a.id === dialog.alarmId);
              if (alarm !== undefined) alarm.label = dialog.value.trim();
              close();
            }, { id: 'android:id/button1', look: 'plain' }),
          ]),
        ]),
      }];
    case 'sleep-sound':
      return [choiceDialog('Sleep sounds', sleepSounds, context.state.bedtime.sleepSound, (value) => {
        context.state.bedtime.sleepSound = value;
        close();
      }, close)];
    case 'remove-city':
      return [{
        kind: 'dialog',
        onDismiss: close,
        root: column({ cls: 'android.widget.FrameLayout', id: 'android:id/parentPanel', look: 'card', padding: 24, gap: 16 }, [
          label(`Remove ${dialog.city}?`, { id: 'android:id/alertTitle', fontSize: 20 }),
          row({ id: 'android:id/buttonPanel', justify: 'end', gap: 8 }, [
            button('Cancel', close, { id: 'android:id/button2', look: 'plain' }),
            button('Remove', () => {
              context.state.worldClocks = context.state.worldClocks.filter((c) => c.city !== dialog.city);
              close();
            }, { id: 'android:id/button1', look: 'plain' }),
          ]),
        ]),
      }];
  }
}

const deskClock = defineActivity<ClockState, DeskClockUi>({
  name: 'com.android.deskclock.DeskClock',
  create: (params) => ({ tab: (['alarm', 'clock', 'timer', 'stopwatch', 'bedtime'] as const).find((t) => t === params['tab']) ?? 'alarm', expanded: undefined, dialog: undefined, menu: false }),
  render: (context, ui) => {
    const titles: Record<Tab, string> = { alarm: 'Alarm', clock: 'Clock', timer: 'Timer', stopwatch: 'Stopwatch', bedtime: 'Bedtime' };
    let content: Widget[];
    switch (ui.tab) {
      case 'alarm':
        content = alarmTab(context, ui);
        break;
      case 'clock':
        content = clockTab(context, ui);
        break;
      case 'timer':
        content = timerTab(context);
        break;
      case 'stopwatch':
        content = stopwatchTab(context);
        break;
      case 'bedtime':
        content = bedtimeTab(context, ui);
        break;
    }
    const overlays: Overlay[] = dialogs(context, ui);
    if (ui.menu) {
      const item = (text: string): Widget => label(text, {
        id: id('title'),
        height: 48,
        padding: [16, 12, 16, 12],
        onTap: () => {
          ui.menu = false;
          if (text === 'Settings') context.start('com.android.deskclock.settings.SettingsActivity');
          else context.toast(`${text} is not available in the simulator`);
        },
      });
      overlays.push({
        kind: 'popup',
        onDismiss: () => {
          ui.menu = false;
        },
        root: view('android.widget.ListView', { layout: 'column', look: 'card' }, [item('Screen saver'), item('Settings'), item('Send feedback'), item('Help')]),
      });
    }
    return {
      root: group({ id: id('content') }, [
        toolbar(titles[ui.tab], [
          iconButton('more', 'More options', () => {
            ui.menu = true;
          }, { cls: 'android.widget.ImageView', id: id('overflow_action_button') }),
        ]),
        group({ id: id('desk_clock_pager_frame'), height: 'fill' }, [group({ id: id('desk_clock_pager'), height: 'fill', flags: { focusable: true } }, content)]),
        tabBar(ui),
      ]),
      overlays,
    };
  },
});

const citySelection = defineActivity<ClockState, { query: string }>({
  name: 'com.android.deskclock.worldclock.CitySelectionActivity',
  create: () => ({ query: '' }),
  render: (context, ui) => {
    const query = ui.query.trim().toLowerCase();
    const matches = clockCities.filter((c) => c.city.toLowerCase().includes(query));
    const rows = matches.map((c) => {
      const selected = context.state.worldClocks.some((w) => w.city === c.city);
      const t = cityTime(context.clock, c.utcOffsetMinutes);
      return view('android.widget.LinearLayout', {
        layout: 'row',
        align: 'center',
        padding: [16, 8, 16, 8],
        height: 64,
        onTap: () => {
          if (selected) context.state.worldClocks = context.state.worldClocks.filter((w) => w.city !== c.city);
          else context.state.worldClocks.push({ city: c.city, utcOffsetMinutes: c.utcOffsetMinutes });
          context.finish();
        },
        flags: { clickable: true, focusable: true },
      }, [
        checkBox(selected, () => undefined, { id: id('city_onoff'), width: 48, flags: { clickable: false, focusable: false } }),
        label(c.city, { id: id('city_name'), width: 'fill', fontSize: 18 }),
        label(t.time, { id: id('city_time'), fontSize: 14 }),
      ]);
    });
    return {
      root: column({}, [
        row({ cls: 'android.view.ViewGroup', id: id('toolbar'), height: 64, align: 'center', padding: [4, 0, 8, 0] }, [
          iconButton('back', 'Navigate up', () => context.finish()),
          editText({ key: 'city-search', value: ui.query, onChange: (value) => {
            ui.query = value;
          } }, { id: id('search_src_text'), hint: 'Search', width: 'fill', look: 'plain', cls: 'android.widget.AutoCompleteTextView' }),
        ]),
        recycler('city-list', { id: id('cities_list'), scroll: { key: 'city-list', shuffle: false } }, rows.length > 0 ? rows : [label('No results', { id: id('empty_view'), padding: 16 })]),
      ]),
    };
  },
});

const ringtonePicker = defineActivity<ClockState, { alarmId: string }>({
  name: 'com.android.deskclock.ringtone.RingtonePickerActivity',
  create: (params) => ({ alarmId: params['alarmId'] ?? '' }),
  render: (context, ui) => {
    const alarm = context.state.alarms.find((a) => a.id === ui.alarmId);
    const rows = clockRingtones.map((name) => {
      const selected = alarm?.ringtone === name;
      return view('android.widget.LinearLayout', {
        layout: 'row',
        align: 'center',
        height: 56,
        padding: [16, 0, 16, 0],
        onTap: () => {
          if (alarm !== undefined) alarm.ringtone = name;
        },
        flags: { clickable: true, focusable: true, selected },
      }, [
        image(selected ? 'radio-on' : 'radio-off', { id: id('sound_image_selected') }),
        label(name, { id: id('ringtone_name'), width: 'fill', padding: [16, 0, 0, 0] }),
      ]);
    });
    return {
      root: column({}, [
        row({ cls: 'android.view.ViewGroup', id: id('toolbar'), height: 64, align: 'center', padding: [4, 0, 8, 0] }, [
          iconButton('back', 'Navigate up', () => context.finish()),
          label('Alarm sound', { id: id('action_bar_title'), fontSize: 22, width: 'fill' }),
        ]),
        recycler('ringtones', { id: id('ringtone_content') }, [label('Device sounds', { id: id('ringtone_section_title'), fontSize: 14, padding: [16, 8, 16, 8] }), ...rows]),
      ]),
    };
  },
});

type ClockSettingsChoice = 'style' | 'home-time-zone' | 'silence-after' | 'snooze-length' | 'gradual';

const clockSettings = defineActivity<ClockState, { choice: ClockSettingsChoice | undefined }>({
  name: 'com.android.deskclock.settings.SettingsActivity',
  create: () => ({ choice: undefined }),
  render: (context, ui) => {
    const st = context.state.settings;
    const close = (): void => {
      ui.choice = undefined;
    };
    const pref = (title: string, summary: string, choice: ClockSettingsChoice): Widget =>
      view('android.widget.LinearLayout', {
        layout: 'column',
        padding: [24, 16, 24, 16],
        onTap: () => {
          ui.choice = choice;
        },
        flags: { clickable: true, focusable: true },
      }, [label(title, { id: 'android:id/title', fontSize: 18 }), label(summary, { id: 'android:id/summary', fontSize: 14 })]);
    const homeZone = clockCities.find((c) => c.city === st.homeTimeZone);
    const zoneLabel = (c: { city: string; utcOffsetMinutes: number }): string => {
      const h = Math.trunc(Math.abs(c.utcOffsetMinutes) / 60);
      const m = Math.abs(c.utcOffsetMinutes) % 60;
      return `(GMT${c.utcOffsetMinutes < 0 ? '-' : '+'}${h}:${String(m).padStart(2, '0')}) ${c.city}`;
    };
    const overlays: Overlay[] = [];
    const pick = (set: (value: string) => void) => (value: string): void => {
      set(value);
      close();
    };
    switch (ui.choice) {
      case 'style':
        overlays.push(choiceDialog('Style', ['Analog', 'Digital'], st.clockStyle, pick((v) => {
          st.clockStyle = v === 'Analog' ? 'Analog' : 'Digital';
        }), close));
        break;
      case 'home-time-zone':
        overlays.push(choiceDialog('Home time zone', clockCities.map(zoneLabel), homeZone === undefined ? '' : zoneLabel(homeZone), pick((v) => {
          st.homeTimeZone = clockCities.find((c) => zoneLabel(c) === v)?.city ?? st.homeTimeZone;
        }), close));
        break;
      case 'silence-after':
        overlays.push(choiceDialog('Silence after', ['1 minute', '5 minutes', '10 minutes', '15 minutes', '20 minutes', '25 minutes', 'Never'], st.silenceAfter, pick((v) => {
          st.silenceAfter = v;
        }), close));
        break;
      case 'snooze-length':
        overlays.push(choiceDialog('Snooze length', ['1 minute', '5 minutes', '10 minutes', '15 minutes', '20 minutes', '30 minutes'], st.snoozeLength, pick((v) => {
          st.snoozeLength = v;
        }), close));
        break;
      case 'gradual':
        overlays.push(choiceDialog('Gradually increase volume', ['Off', '5 seconds', '10 seconds', '30 seconds', '1 minute'], st.graduallyIncreaseVolume, pick((v) => {
          st.graduallyIncreaseVolume = v;
        }), close));
        break;
      case undefined:
        break;
    }
    return {
      root: column({}, [
        row({ cls: 'android.view.ViewGroup', id: id('toolbar'), height: 64, align: 'center', padding: [4, 0, 8, 0] }, [
          iconButton('back', 'Navigate up', () => context.finish()),
          label('Settings', { id: id('action_bar_title'), fontSize: 22, width: 'fill' }),
        ]),
        scrollView('clock-settings', { id: id('recycler_view') }, [
          label('Clock', { id: 'android:id/title', fontSize: 14, padding: [24, 16, 24, 4] }),
          pref('Style', st.clockStyle, 'style'),
          view('android.widget.LinearLayout', {
            layout: 'row',
            align: 'center',
            padding: [24, 16, 24, 16],
            onTap: () => {
              st.automaticHomeClock = !st.automaticHomeClock;
            },
            flags: { clickable: true, focusable: true },
          }, [
            column({ width: 'fill' }, [
              label('Automatic home clock', { id: 'android:id/title', fontSize: 18 }),
              label('While traveling in an area where the time is different, add a clock for home', { id: 'android:id/summary', fontSize: 14 }),
            ]),
            view('android.widget.Switch', { id: 'android:id/switch_widget', width: 52, height: 32, icon: st.automaticHomeClock ? 'switch-on' : 'switch-off', flags: { checkable: true, checked: st.automaticHomeClock } }),
          ]),
          pref('Home time zone', homeZone === undefined ? st.homeTimeZone : zoneLabel(homeZone), 'home-time-zone'),
          label('Alarms', { id: 'android:id/title', fontSize: 14, padding: [24, 16, 24, 4] }),
          pref('Silence after', st.silenceAfter, 'silence-after'),
          pref('Snooze length', st.snoozeLength, 'snooze-length'),
          row({ padding: [24, 8, 24, 8] }, [
            column({ width: 'fill' }, [
              label('Alarm volume', { id: 'android:id/title', fontSize: 18 }),
              seekBar({ value: st.alarmVolume, max: 100, onChange: (v) => {
                st.alarmVolume = v;
              } }, { id: id('seekbar'), desc: 'Alarm volume' }),
            ]),
          ]),
          pref('Gradually increase volume', st.graduallyIncreaseVolume, 'gradual'),
        ]),
      ]),
      overlays,
    };
  },
});

/**
 * The Pixel Clock (`com.google.android.deskclock`): bottom tabs Alarm / Clock / Timer /
 * Stopwatch / Bedtime. Alarms: add with the "Add alarm" FAB (Material time picker
 * dialog), expand a card to set label, repeat days, ringtone, vibrate, delete; switch
 * on/off. Clock: world clock list, "Add city" opens a searchable city list (tap toggles a
 * city), long-press a city to remove it. Timer keypad and Start. Stopwatch. Bedtime and
 * wake-up times and sleep sounds. More options → Settings opens the clock settings (style,
 * home time zone, silence after, snooze length, alarm volume, gradual volume), each
 * choice a single-choice dialog. Activity class names are the real ones
 * (`com.android.deskclock.DeskClock`).
 */
export const clockApp: SimApp<ClockState> = {
  packageName: clockPackage,
  label: 'Clock',
  icon: 'clock',
  launchActivity: 'com.android.deskclock.DeskClock',
  stateSchema: clockStateSchema,
  defaultState: defaultClockState,
  activities: [deskClock, citySelection, ringtonePicker, clockSettings],
  launchPermissions: [{ permission: 'android.permission.POST_NOTIFICATIONS', message: 'Allow Clock to send you notifications?' }],
  advance: tickClock,
};

/** Advances running timers by `ms` of virtual time; true while a timer or the stopwatch runs. */
export function tickClock(state: ClockState, ms: number): boolean {
  let running = state.stopwatch.running;
  for (const timer of state.timer.timers) {
    if (timer.running) {
      timer.remainingMs = Math.max(0, timer.remainingMs - ms);
      running = true;
    }
  }
  return running;
}
