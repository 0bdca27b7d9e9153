import { button, column, editText, iconButton, label, row, view, type Widget } from '../widget.js';

/** Editable state of the Material time picker dialog. */
export interface TimePickerState {
  /** 1–12 on the dial. */
  hour12: number;
  minute: number;
  pm: boolean;
  mode: 'dial' | 'input';
  /** Which chip the dial edits. */
  selecting: 'hour' | 'minute';
  /** Input-mode text of the two fields. */
  hourText: string;
  minuteText: string;
}

/** A picker opened at a 24-hour time. */
export function openTimePicker(hour: number, minute: number): TimePickerState {
  const hour12 = hour % 12 === 0 ? 12 : hour % 12;
  return { hour12, minute, pm: hour >= 12, mode: 'dial', selecting: 'hour', hourText: String(hour12), minuteText: String(minute).padStart(2, '0') };
}

/** The picked 24-hour time, or undefined when the input-mode text is not a valid time. */
export function pickedTime(picker: TimePickerState): { hour: number; minute: number } | undefined {
  let hour12 = picker.hour12;
  let minute = picker.minute;
  if (picker.mode === 'input') {
    const h = Number.parseInt(picker.hourText, 10);
    const m = Number.parseInt(picker.minuteText === '' ? '0' : picker.minuteText, 10);
    if (!Number.isInteger(h) || h < 1 || h > 12 || !Number.isInteger(m) || m < 0 || m > 59) return undefined;
    hour12 = h;
    minute = m;
  }
  return { hour: (hour12 % 12) + (picker.pm ? 12 : 0), minute };
}

/**
 * The Material time picker as the Pixel Clock shows it (resource ids `material_*`):
 * dial mode with hour/minute chips and a clock face of numbers, or input mode with two
 * EditTexts; AM/PM toggles; a mode switch; Cancel and OK.
 */
export function timePickerDialog(pkg: string, picker: TimePickerState, actions: { ok: () => void; cancel: () => void }): Widget {
  const id = (name: string): string => `${pkg}:id/${name}`;
  const set = (update: Partial<TimePickerState>): void => {
    Object.assign(picker, update);
  };
  const period = column({ id: id('material_clock_period_toggle'), width: 52 }, [
    view('android.widget.CompoundButton', { id: id('material_clock_period_am_button'), text: 'AM', height: 40, look: picker.pm ? 'outlined' : 'filled', onTap: () => set({ pm: false }), flags: { checkable: true, checked: !picker.pm, clickable: true, focusable: true } }),
    view('android.widget.CompoundButton', { id: id('material_clock_period_pm_button'), text: 'PM', height: 40, look: picker.pm ? 'filled' : 'outlined', onTap: () => set({ pm: true }), flags: { checkable: true, checked: picker.pm, clickable: true, focusable: true } }),
  ]);
  let body: Widget[];
  if (picker.mode === 'dial') {
    const hourChip = view('android.view.View', {
      id: id('material_hour_tv'),
      text: String(picker.hour12),
      desc: `${picker.hour12} o'clock`,
      width: 96,
      height: 80,
      fontSize: 40,
      look: picker.selecting === 'hour' ? 'filled' : 'outlined',
      onTap: () => set({ selecting: 'hour' }),
      flags: { checkable: true, checked: picker.selecting === 'hour', clickable: true, focusable: true },
    });
    const minuteChip = view('android.view.View', {
      id: id('material_minute_tv'),
      text: String(picker.minute).padStart(2, '0'),
      desc: `${picker.minute} minutes`,
      width: 96,
      height: 80,
      fontSize: 40,
      look: picker.selecting === 'minute' ? 'filled' : 'outlined',
      onTap: () => set({ selecting: 'minute' }),
      flags: { checkable: true, checked: picker.selecting === 'minute', clickable: true, focusable: true },
    });
    const values = picker.selecting === 'hour' ? [12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] : [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55];
    const face = values.map((value) => {
      const isHour = picker.selecting === 'hour';
      const text = isHour ? String(value) : String(value).padStart(2, '0');
      const selected = isHour ? value === picker.hour12 : value === picker.minute;
      return view('android.widget.TextView', {
        text,
        desc: isHour ? `${value} o'clock` : `${value} minutes`,
        width: 'fill',
        height: 40,
        look: selected ? 'filled' : 'plain',
        onTap: () => (isHour ? set({ hour12: value, selecting: 'minute' }) : set({ minute: value })),
        flags: { clickable: true, focusable: true, selected },
      });
    });
    const faceRows: Widget[] = [];
    for (let i = 0; i < face.length; i += 4) faceRows.push(row({ gap: 4 }, face.slice(i, i + 4)));
    body = [
      label('Select time', { id: id('header_title'), fontSize: 14 }),
      row({ id: id('material_clock_display'), gap: 8, align: 'center' }, [hourChip, label(':', { fontSize: 40 }), minuteChip, view('android.view.View', { width: 'fill' }), period]),
      view('android.view.View', { id: id('material_clock_face'), layout: 'column', gap: 6, padding: 8, look: 'card' }, faceRows),
    ];
  } else {
    body = [
      label('Enter time', { id: id('header_title'), fontSize: 14 }),
      row({ id: id('material_textinput_timepicker'), gap: 8, align: 'center' }, [
        column({ width: 96 }, [
          editText({ key: 'timepicker-hour', value: picker.hourText, onChange: (value) => set({ hourText: value.replace(/\D/g, '').slice(0, 2) }) }, { height: 72, fontSize: 32 }),
          label('Hour', { id: id('material_label'), fontSize: 12 }),
        ]),
        label(':', { fontSize: 40 }),
        column({ width: 96 }, [
          editText({ key: 'timepicker-minute', value: picker.minuteText, onChange: (value) => set({ minuteText: value.replace(/\D/g, '').slice(0, 2) }) }, { height: 72, fontSize: 32 }),
          label('Minute', { id: id('material_label'), fontSize: 12 }),
        ]),
        view('android.view.View', { width: 'fill' }),
        period,
      ]),
    ];
  }
  const modeDesc = picker.mode === 'dial' ? 'Switch to text input mode for the time input.' : 'Switch to clock mode for the time input.';
  return column({ cls: 'android.view.ViewGroup', look: 'card', padding: 24, gap: 16 }, [
    ...body,
    row({ gap: 8, align: 'center' }, [
      iconButton(picker.mode === 'dial' ? 'keyboard' : 'clock', modeDesc, () => set({ mode: picker.mode === 'dial' ? 'input' : 'dial' }), { id: id('material_timepicker_mode_button') }),
      view('android.view.View', { width: 'fill' }),
      button('Cancel', actions.cancel, { id: id('material_timepicker_cancel_button'), look: 'plain' }),
      button('OK', actions.ok, { id: id('material_timepicker_ok_button'), look: 'plain' }),
    ]),
  ]);
}
