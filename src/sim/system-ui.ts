import { button, column, frame, image, label, row, view, type Widget } from './widget.js';

/** Package of the status and navigation bars. */
export const systemUiPackage = 'com.android.systemui';
/** Package of the soft keyboard (Gboard). */
export const keyboardPackage = 'com.google.android.inputmethod.latin';
/** Package of runtime permission dialogs. */
export const permissionControllerPackage = 'com.google.android.permissioncontroller';

/** Status bar height in dp. */
export const statusBarDp = 24;
/** Three-button navigation bar height in dp. */
export const navBarDp = 48;
/** Soft keyboard height in dp (above the navigation bar). */
export const keyboardDp = 260;

/** `9:05` style time, as the status bar shows it. */
export function formatStatusTime(date: Date): string {
  const hours = date.getUTCHours() % 12 === 0 ? 12 : date.getUTCHours() % 12;
  return `${hours}:${String(date.getUTCMinutes()).padStart(2, '0')}`;
}

/** The status bar window: clock, notification area, Wi-Fi/cell/battery icons. */
export function statusBar(date: Date, options: { wifi: boolean; airplane: boolean; bluetooth: boolean; battery: number; showPercentage: boolean }): Widget {
  const s = (name: string): string => `${systemUiPackage}:id/${name}`;
  const time = formatStatusTime(date);
  const period = date.getUTCHours() < 12 ? 'AM' : 'PM';
  const icons: Widget[] = [];
  if (options.airplane) icons.push(image('airplane', { id: s('airplane'), desc: 'Airplane mode on.', width: 18, height: 18 }));
  if (options.bluetooth) icons.push(image('bluetooth', { id: s('bluetooth'), desc: 'Bluetooth on.', width: 18, height: 18 }));
  if (options.wifi) icons.push(image('wifi', { id: s('wifi_signal'), desc: 'Wifi signal full.', width: 18, height: 18 }));
  if (!options.airplane) icons.push(image('signal', { id: s('mobile_signal'), desc: 'Phone signal full.', width: 18, height: 18 }));
  return frame({ id: s('status_bar_container'), look: 'filled' }, [
    row({ cls: 'android.widget.FrameLayout', id: s('status_bar'), padding: [16, 0, 16, 0], align: 'center', justify: 'space-between' }, [
      label(time, { id: s('clock'), desc: `${time}\u202f${period}`, fontSize: 14 }),
      row({ id: s('system_icons'), align: 'center', gap: 4 }, [
        ...icons,
        ...(options.showPercentage ? [label(`${options.battery}%`, { id: s('battery_percentage_view'), fontSize: 14 })] : []),
        view('android.widget.LinearLayout', { id: s('battery'), desc: `Battery ${options.battery} percent.`, width: 24, height: 18, icon: 'battery' }),
      ]),
    ]),
  ]);
}

/** The three-button navigation bar: Back, Home, Overview. */
export function navigationBar(actions: { back: () => void; home: () => void; overview: () => void }): Widget {
  const s = (name: string): string => `${systemUiPackage}:id/${name}`;
  const key = (id: string, desc: string, icon: string, onTap: () => void): Widget =>
    view('android.widget.ImageView', { id: s(id), desc, icon, width: 'fill', onTap, flags: { clickable: true, focusable: true, longClickable: id === 'home' } });
  return frame({ id: s('navigation_bar_frame'), look: 'filled' }, [
    row({ cls: 'android.widget.FrameLayout', id: s('navigation_bar_view'), padding: [48, 0, 48, 0] }, [
      key('back', 'Back', 'back', actions.back),
      key('home', 'Home', 'home', actions.home),
      key('recent_apps', 'Overview', 'overview', actions.overview),
    ]),
  ]);
}

const keyRows = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

/** The soft keyboard (Gboard-like): letter keys type, plus shift-less space, delete and enter. */
export function softKeyboard(actions: { type: (text: string) => void; backspace: () => void; enter: () => void; hide: () => void }): Widget {
  const k = (name: string): string => `${keyboardPackage}:id/${name}`;
  const keyWidget = (text: string, desc: string, onTap: () => void, width: number | 'fill' = 'fill'): Widget =>
    view('android.widget.FrameLayout', { desc, text: '', icon: `key:${text}`, width, onTap, look: 'outlined', flags: { clickable: true, focusable: true } });
  const letterRows = keyRows.map((letters, i) =>
    row({ id: k(`key_row_${i}`), height: 'fill', gap: 4, padding: i === 1 ? [18, 0, 18, 0] : 0 }, [...letters].map((letter) => keyWidget(letter, letter, () => actions.type(letter)))),
  );
  return frame({ id: k('keyboard_holder'), look: 'filled' }, [
    column({ cls: 'android.widget.FrameLayout', id: k('keyboard_area'), padding: [4, 8, 4, 8], gap: 6 }, [
      row({ id: k('keyboard_header'), height: 40, justify: 'end' }, [
        view('android.widget.ImageButton', { id: k('key_pos_header_hide'), desc: 'Hide keyboard', icon: 'chevron-down', width: 48, onTap: actions.hide, flags: { clickable: true, focusable: true } }),
      ]),
      ...letterRows,
      row({ id: k('key_row_3'), height: 'fill', gap: 4 }, [
        keyWidget('⌫', 'Delete', actions.backspace, 64),
        keyWidget(',', ',', () => actions.type(','), 40),
        keyWidget('␣', 'Space', () => actions.type(' ')),
        keyWidget('.', '.', () => actions.type('.'), 40),
        keyWidget('⏎', 'Enter', actions.enter, 64),
      ]),
    ]),
  ]);
}

/** A toast: `android.widget.Toast` holding a message TextView. */
export function toastWidget(text: string): Widget {
  return view('android.widget.Toast', { layout: 'column', look: 'card', padding: [16, 10, 16, 10], width: 'wrap', height: 'wrap' }, [
    label(text, { id: 'android:id/message', fontSize: 14 }),
  ]);
}

/** The runtime permission dialog of the permission controller. */
export function permissionDialog(message: string, actions: { allow: () => void; deny: () => void }): Widget {
  const p = (name: string): string => `${permissionControllerPackage}:id/${name}`;
  return column({ cls: 'android.widget.LinearLayout', id: p('grant_dialog'), look: 'card', padding: 24, gap: 16 }, [
    image('bell', { id: p('permission_icon'), width: 32, height: 32 }),
    label(message, { id: p('permission_message'), fontSize: 20 }),
    column({ id: p('grant_singleton'), gap: 8 }, [
      button('Allow', actions.allow, { id: p('permission_allow_button'), width: 'fill' }),
      button("Don't allow", actions.deny, { id: p('permission_deny_button'), width: 'fill' }),
    ]),
  ]);
}

/** An unexpected dialog ("Rate this app" / "Update available") with dismiss buttons. */
export function interstitialDialog(kind: 'rate' | 'update', appLabel: string, dismiss: () => void): Widget {
  const title = kind === 'rate' ? `Enjoying ${appLabel}?` : 'Update available';
  const message = kind === 'rate' ? 'Rate this app on Google Play. It only takes a moment.' : `A new version of ${appLabel} is available.`;
  const positive = kind === 'rate' ? 'Rate now' : 'Update';
  const negative = kind === 'rate' ? 'Not now' : 'Later';
  return column({ cls: 'android.widget.FrameLayout', id: 'android:id/parentPanel', look: 'card', padding: 24, gap: 12 }, [
    label(title, { id: 'android:id/alertTitle', fontSize: 20 }),
    label(message, { id: 'android:id/message' }),
    row({ id: 'android:id/buttonPanel', justify: 'end', gap: 8 }, [
      button(negative, dismiss, { id: 'android:id/button2', look: 'plain' }),
      button(positive, dismiss, { id: 'android:id/button1', look: 'plain' }),
    ]),
  ]);
}
