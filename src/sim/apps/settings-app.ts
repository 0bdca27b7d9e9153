import { z } from 'zod';
import { defineActivity, type ActivityContext, type Overlay, type Screen, type SimApp } from '../sim-app.js';
import { button, column, editText, frame, iconButton, image, label, row, seekBar, view, type Widget } from '../widget.js';

/** Package of the Settings app. */
export const settingsPackage = 'com.android.settings';

/**
 * Settings' state as task checks read it via `appState('com.android.settings')`.
 * Volumes and brightness are 0–100 (%). `privateDns` is `off`, `automatic` or a
 * provider hostname. `apps` lists the installed apps Settings knows about.
 */
export const settingsStateSchema = z.object({
  network: z.object({
    wifi: z.boolean(),
    wifiNetwork: z.string(),
    wifiAutoOn: z.boolean(),
    airplaneMode: z.boolean(),
    mobileData: z.boolean(),
    bluetooth: z.boolean(),
    privateDns: z.string(),
  }),
  display: z.object({ brightness: z.number().int().min(0).max(100), adaptiveBrightness: z.boolean(), darkTheme: z.boolean(), screenTimeout: z.string() }),
  sound: z.object({
    mediaVolume: z.number().int().min(0).max(100),
    callVolume: z.number().int().min(0).max(100),
    ringVolume: z.number().int().min(0).max(100),
    alarmVolume: z.number().int().min(0).max(100),
    doNotDisturb: z.boolean(),
    ringVibration: z.boolean(),
  }),
  battery: z.object({ level: z.number().int().min(0).max(100), showPercentage: z.boolean(), batterySaver: z.boolean() }),
  apps: z.array(z.object({ packageName: z.string(), label: z.string(), notifications: z.boolean(), storageMb: z.number() })),
  storage: z.object({ totalGb: z.number(), appsGb: z.number(), systemGb: z.number(), imagesGb: z.number() }),
  system: z.object({ languages: z.array(z.string()), timeZone: z.string() }),
  about: z.object({ deviceName: z.string(), model: z.string(), androidVersion: z.string(), securityUpdate: z.string(), buildNumber: z.string(), phoneNumber: z.string() }),
});
export type SettingsState = z.infer<typeof settingsStateSchema>;

/** Default seed: Wi-Fi on (AndroidWifi), Bluetooth on, airplane mode off, Android 13. */
export function defaultSettingsState(): SettingsState {
  return {
    network: { wifi: true, wifiNetwork: 'AndroidWifi', wifiAutoOn: true, airplaneMode: false, mobileData: true, bluetooth: true, privateDns: 'automatic' },
    display: { brightness: 60, adaptiveBrightness: true, darkTheme: false, screenTimeout: '30 seconds' },
    sound: { mediaVolume: 60, callVolume: 70, ringVolume: 70, alarmVolume: 80, doNotDisturb: false, ringVibration: true },
    battery: { level: 100, showPercentage: false, batterySaver: false },
    apps: [
      { packageName: 'com.booking', label: 'Booking.com', notifications: true, storageMb: 187 },
      { packageName: 'com.android.chrome', label: 'Chrome', notifications: true, storageMb: 412 },
      { packageName: 'com.google.android.deskclock', label: 'Clock', notifications: true, storageMb: 38 },
      { packageName: 'com.google.android.contacts', label: 'Contacts', notifications: true, storageMb: 54 },
      { packageName: 'com.google.android.apps.maps', label: 'Maps', notifications: true, storageMb: 298 },
      { packageName: 'com.simplemobiletools.notes.pro', label: 'Notes', notifications: true, storageMb: 21 },
      { packageName: 'com.google.android.youtube', label: 'YouTube', notifications: true, storageMb: 356 },
    ],
    storage: { totalGb: 128, appsGb: 4.2, systemGb: 14.6, imagesGb: 1.3 },
    system: { languages: ['English (United States)'], timeZone: 'GMT+00:00 Coordinated Universal Time' },
    about: { deviceName: 'Pixel 7', model: 'Pixel 7', androidVersion: '13', securityUpdate: 'May 5, 2024', buildNumber: 'TQ3A.230805.001', phoneNumber: '+1 650-555-6789' },
  };
}

type Page =
  | 'home' | 'network' | 'internet' | 'wifi-preferences' | 'connected' | 'connection-preferences' | 'bluetooth' | 'apps' | 'all-apps' | 'app-info'
  | 'app-notifications' | 'notifications' | 'battery' | 'storage' | 'sound' | 'dnd' | 'vibration' | 'display' | 'system' | 'languages'
  | 'date-time' | 'about' | 'android-version' | 'security' | 'location' | 'accessibility' | 'wallpaper';

type SettingsDialog =
  | { kind: 'private-dns'; mode: string; hostname: string }
  | { kind: 'rename'; target: 'device' | 'bluetooth'; value: string }
  | { kind: 'wifi-password'; network: string; password: string };

/** A secured network the simulator can join with any WPA2 password (8 characters or more). */
const securedNetwork = 'CafeNet';

interface SettingsUi {
  page: Page;
  app: string;
  dialog: SettingsDialog | undefined;
}

const sid = (name: string): string => `${settingsPackage}:id/${name}`;

type Pref =
  | { kind: 'link'; title: string; summary?: string; icon?: string; onTap: () => void }
  | { kind: 'switch'; title: string; summary?: string; icon?: string; checked: boolean; enabled?: boolean; onToggle: () => void }
  | { kind: 'slider'; title: string; icon?: string; value: number; onChange: (value: number) => void }
  | { kind: 'info'; title: string; summary: string }
  | { kind: 'category'; title: string }
  | { kind: 'button'; title: string; onTap: () => void };

function prefWidget(pref: Pref): Widget {
  const iconFrame = (icon: string | undefined): Widget[] =>
    icon === undefined ? [] : [row({ id: sid('icon_frame'), width: 56, align: 'center', justify: 'start' }, [image(icon, { id: 'android:id/icon' })])];
  const texts = (title: string, summary: string | undefined): Widget =>
    column({ cls: 'android.widget.RelativeLayout', width: 'fill', justify: 'center' }, [
      label(title, { id: 'android:id/title', fontSize: 18 }),
      ...(summary === undefined ? [] : [label(summary, { id: 'android:id/summary', fontSize: 14 })]),
    ]);
  switch (pref.kind) {
    case 'link':
      return row({ padding: [24, 16, 24, 16], align: 'center', onTap: pref.onTap, flags: { clickable: true, focusable: true } }, [...iconFrame(pref.icon), texts(pref.title, pref.summary)]);
    case 'switch':
      return row({ padding: [24, 16, 24, 16], align: 'center', onTap: pref.enabled === false ? undefined : pref.onToggle, flags: { clickable: true, focusable: true, enabled: pref.enabled ?? true } }, [
        ...iconFrame(pref.icon),
        texts(pref.title, pref.summary),
        row({ id: 'android:id/widget_frame', width: 'wrap', align: 'center' }, [
          view('android.widget.Switch', { id: 'android:id/switch_widget', width: 52, height: 32, icon: pref.checked ? 'switch-on' : 'switch-off', flags: { checkable: true, checked: pref.checked, enabled: pref.enabled ?? true } }),
        ]),
      ]);
    case 'slider':
      return row({ padding: [24, 8, 24, 8], align: 'center' }, [
        ...iconFrame(pref.icon),
        column({ width: 'fill' }, [
          label(pref.title, { id: 'android:id/title', fontSize: 18 }),
          seekBar({ value: pref.value, max: 100, onChange: pref.onChange }, { id: sid('seekbar'), desc: pref.title }),
        ]),
      ]);
    case 'info':
      return row({ padding: [24, 16, 24, 16], onTap: () => undefined, flags: { clickable: true, focusable: true } }, [texts(pref.title, pref.summary)]);
    case 'category':
      return label(pref.title, { id: 'android:id/title', padding: [24, 16, 24, 4], fontSize: 14 });
    case 'button':
      return row({ padding: [24, 8, 24, 8] }, [button(pref.title, pref.onTap, { id: sid('zen_mode_settings_turn_on_button') })]);
  }
}

const pageTitles: Record<Page, string> = {
  home: 'Settings', network: 'Network & internet', internet: 'Internet', 'wifi-preferences': 'Network preferences', connected: 'Connected devices',
  'connection-preferences': 'Connection preferences', bluetooth: 'Bluetooth', apps: 'Apps', 'all-apps': 'All apps', 'app-info': 'App info',
  'app-notifications': 'Notifications', notifications: 'Notifications', battery: 'Battery', storage: 'Storage', sound: 'Sound & vibration',
  dnd: 'Do Not Disturb', vibration: 'Vibration & haptics', display: 'Display', system: 'System', languages: 'Languages', 'date-time': 'Date & time',
  about: 'About phone', 'android-version': 'Android version', security: 'Security & privacy', location: 'Location', accessibility: 'Accessibility',
  wallpaper: 'Wallpaper & style',
};

function prefsFor(context: ActivityContext<SettingsState>, ui: SettingsUi): Pref[] {
  const s = context.state;
  const open = (page: Page, params: Record<string, string> = {}): (() => void) => () => context.start('com.android.settings.SubSettings', { page, ...params });
  const onOff = (v: boolean): string => (v ? 'On' : 'Off');
  const setAirplane = (on: boolean): void => {
    s.network.airplaneMode = on;
    if (on) {
      s.network.wifi = false;
      s.network.bluetooth = false;
    }
  };
  switch (ui.page) {
    case 'home':
      return [
        { kind: 'link', title: 'Network & internet', summary: 'Mobile, Wi‑Fi, hotspot', icon: 'wifi', onTap: open('network') },
        { kind: 'link', title: 'Connected devices', summary: 'Bluetooth, pairing', icon: 'devices', onTap: open('connected') },
        { kind: 'link', title: 'Apps', summary: 'Assistant, recent apps, default apps', icon: 'apps', onTap: open('apps') },
        { kind: 'link', title: 'Notifications', summary: 'Notification history, conversations', icon: 'bell', onTap: open('notifications') },
        { kind: 'link', title: 'Battery', summary: `${s.battery.level}%`, icon: 'battery', onTap: open('battery') },
        { kind: 'link', title: 'Storage', summary: `${Math.round(((s.storage.appsGb + s.storage.systemGb + s.storage.imagesGb) / s.storage.totalGb) * 100)}% used - ${(s.storage.totalGb - s.storage.appsGb - s.storage.systemGb - s.storage.imagesGb).toFixed(1)} GB free`, icon: 'storage', onTap: open('storage') },
        { kind: 'link', title: 'Sound & vibration', summary: 'Volume, haptics, Do Not Disturb', icon: 'volume', onTap: open('sound') },
        { kind: 'link', title: 'Display', summary: 'Dark theme, font size, brightness', icon: 'display', onTap: open('display') },
        { kind: 'link', title: 'Wallpaper & style', summary: 'Colors, themed icons, app grid', icon: 'palette', onTap: open('wallpaper') },
        { kind: 'link', title: 'Accessibility', summary: 'Display, interaction, audio', icon: 'accessibility', onTap: open('accessibility') },
        { kind: 'link', title: 'Security & privacy', summary: 'App security, device lock, permissions', icon: 'lock', onTap: open('security') },
        { kind: 'link', title: 'Location', summary: 'On - 3 apps have access to location', icon: 'location', onTap: open('location') },
        { kind: 'link', title: 'System', summary: 'Languages, gestures, time, backup', icon: 'info', onTap: open('system') },
        { kind: 'link', title: 'About phone', summary: s.about.deviceName, icon: 'phone', onTap: open('about') },
      ];
    case 'network':
      return [
        { kind: 'link', title: 'Internet', summary: s.network.airplaneMode && !s.network.wifi ? 'Airplane mode' : s.network.wifi ? s.network.wifiNetwork : 'Off', icon: 'wifi', onTap: open('internet') },
        { kind: 'link', title: 'SIMs', summary: 'T-Mobile', icon: 'sim', onTap: () => context.toast('No SIM settings in the simulator') },
        { kind: 'switch', title: 'Airplane mode', icon: 'airplane', checked: s.network.airplaneMode, onToggle: () => setAirplane(!s.network.airplaneMode) },
        { kind: 'link', title: 'Hotspot & tethering', summary: 'Off', icon: 'hotspot', onTap: () => undefined },
        { kind: 'link', title: 'Data Saver', summary: 'Off', icon: 'data', onTap: () => undefined },
        { kind: 'link', title: 'VPN', summary: 'None', icon: 'vpn', onTap: () => undefined },
        { kind: 'link', title: 'Private DNS', summary: s.network.privateDns === 'off' ? 'Off' : s.network.privateDns === 'automatic' ? 'Automatic' : s.network.privateDns, onTap: () => {
          ui.dialog = { kind: 'private-dns', mode: s.network.privateDns === 'off' || s.network.privateDns === 'automatic' ? s.network.privateDns : 'hostname', hostname: s.network.privateDns === 'off' || s.network.privateDns === 'automatic' ? '' : s.network.privateDns };
        } },
      ];
    case 'internet':
      return [
        { kind: 'switch', title: 'Wi‑Fi', checked: s.network.wifi, onToggle: () => {
          s.network.wifi = !s.network.wifi;
        } },
        ...(s.network.wifi
          ? ([
              { kind: 'link', title: s.network.wifiNetwork, summary: 'Connected', icon: 'wifi', onTap: () => undefined },
              { kind: 'link', title: 'GoogleGuest', summary: 'Open', icon: 'wifi', onTap: () => context.toast('Cannot connect to GoogleGuest') },
              { kind: 'link', title: 'HomeNet-5G', summary: 'Saved', icon: 'wifi', onTap: () => context.toast('Cannot connect to HomeNet-5G') },
              ...(s.network.wifiNetwork === securedNetwork
                ? []
                : [{ kind: 'link', title: securedNetwork, summary: 'Secured', icon: 'wifi', onTap: () => {
                    ui.dialog = { kind: 'wifi-password', network: securedNetwork, password: '' };
                  } } satisfies Pref]),
            ] satisfies Pref[])
          : []),
        { kind: 'link', title: 'Network preferences', summary: s.network.wifiAutoOn ? 'Wi‑Fi turns back on automatically' : 'Wi‑Fi doesn’t turn back on automatically', onTap: open('wifi-preferences') },
        { kind: 'switch', title: 'Mobile data', summary: 'T-Mobile', checked: s.network.mobileData && !s.network.airplaneMode, enabled: !s.network.airplaneMode, onToggle: () => {
          s.network.mobileData = !s.network.mobileData;
        } },
      ];
    case 'wifi-preferences':
      return [
        { kind: 'switch', title: 'Turn on Wi‑Fi automatically', summary: 'Wi‑Fi will turn back on near high‑quality saved networks, like your home network', checked: s.network.wifiAutoOn, onToggle: () => {
          s.network.wifiAutoOn = !s.network.wifiAutoOn;
        } },
        { kind: 'switch', title: 'Notify for public networks', summary: 'Notify when a high‑quality public network is available', checked: false, enabled: false, onToggle: () => undefined },
      ];
    case 'connected':
      return [
        { kind: 'link', title: 'Pair new device', icon: 'add', onTap: () => context.toast('No devices nearby') },
        { kind: 'link', title: 'Connection preferences', summary: 'Bluetooth, Android Auto', icon: 'bluetooth', onTap: open('connection-preferences') },
      ];
    case 'connection-preferences':
      return [
        { kind: 'link', title: 'Bluetooth', summary: onOff(s.network.bluetooth), icon: 'bluetooth', onTap: open('bluetooth') },
        { kind: 'link', title: 'Android Auto', summary: 'Use apps on your car screen', icon: 'car', onTap: () => undefined },
        { kind: 'link', title: 'Printing', summary: '1 print service on', icon: 'print', onTap: () => undefined },
      ];
    case 'bluetooth':
      return [
        { kind: 'switch', title: 'Use Bluetooth', checked: s.network.bluetooth, onToggle: () => {
          s.network.bluetooth = !s.network.bluetooth;
        } },
        { kind: 'link', title: 'Device name', summary: s.about.deviceName, onTap: () => {
          ui.dialog = { kind: 'rename', target: 'bluetooth', value: s.about.deviceName };
        } },
        { kind: 'link', title: 'Pair new device', icon: 'add', onTap: () => context.toast('No devices nearby') },
      ];
    case 'apps':
      return [
        { kind: 'category', title: 'Recently opened apps' },
        ...s.apps.slice(0, 3).map((app): Pref => ({ kind: 'link', title: app.label, summary: '0 min. ago', icon: 'app', onTap: open('app-info', { app: app.packageName }) })),
        { kind: 'link', title: `See all ${s.apps.length} apps`, onTap: open('all-apps') },
        { kind: 'link', title: 'Default apps', summary: 'Chrome, Phone, and Messages', onTap: () => undefined },
        { kind: 'link', title: 'Screen time', summary: '0 minutes today', onTap: () => undefined },
      ];
    case 'all-apps':
      return s.apps.map((app): Pref => ({ kind: 'link', title: app.label, summary: `${app.storageMb} MB`, icon: 'app', onTap: open('app-info', { app: app.packageName }) }));
    case 'app-info': {
      const app = s.apps.find((a) => a.packageName === ui.app);
      if (app === undefined) return [{ kind: 'info', title: 'App not found', summary: ui.app }];
      return [
        { kind: 'info', title: app.label, summary: 'Installed' },
        { kind: 'link', title: 'Notifications', summary: app.notifications ? '~0 notifications per week' : 'Off', onTap: open('app-notifications', { app: app.packageName }) },
        { kind: 'link', title: 'Permissions', summary: 'No permissions requested', onTap: () => undefined },
        { kind: 'link', title: 'Storage & cache', summary: `${app.storageMb} MB used in internal storage`, onTap: () => undefined },
        { kind: 'button', title: 'Uninstall', onTap: () => {
          s.apps = s.apps.filter((a) => a.packageName !== app.packageName);
          context.toast(`${app.label} uninstalled`);
          context.finish();
        } },
      ];
    }
    case 'app-notifications': {
      const app = s.apps.find((a) => a.packageName === ui.app);
      if (app === undefined) return [{ kind: 'info', title: 'App not found', summary: ui.app }];
      return [{ kind: 'switch', title: `All ${app.label} notifications`, checked: app.notifications, onToggle: () => {
        app.notifications = !app.notifications;
      } }];
    }
    case 'notifications':
      return [
        { kind: 'link', title: 'App notifications', summary: `${s.apps.filter((a) => a.notifications).length} apps can send notifications`, onTap: open('all-apps') },
        { kind: 'link', title: 'Notification history', onTap: () => undefined },
        { kind: 'link', title: 'Do Not Disturb', summary: onOff(s.sound.doNotDisturb), onTap: open('dnd') },
      ];
    case 'battery':
      return [
        { kind: 'info', title: `${s.battery.level}%`, summary: 'Fully charged' },
        { kind: 'link', title: 'Battery usage', onTap: () => undefined },
        { kind: 'switch', title: 'Battery Saver', checked: s.battery.batterySaver, onToggle: () => {
          s.battery.batterySaver = !s.battery.batterySaver;
        } },
        { kind: 'switch', title: 'Battery percentage', summary: 'Show battery percentage in status bar', checked: s.battery.showPercentage, onToggle: () => {
          s.battery.showPercentage = !s.battery.showPercentage;
        } },
      ];
    case 'storage':
      return [
        { kind: 'info', title: `${(s.storage.appsGb + s.storage.systemGb + s.storage.imagesGb).toFixed(1)} GB used`, summary: `of ${s.storage.totalGb} GB` },
        { kind: 'info', title: 'Apps', summary: `${s.storage.appsGb} GB` },
        { kind: 'info', title: 'Images', summary: `${s.storage.imagesGb} GB` },
        { kind: 'info', title: 'System', summary: `${s.storage.systemGb} GB` },
      ];
    case 'sound':
      return [
        { kind: 'slider', title: 'Media volume', icon: 'music', value: s.sound.mediaVolume, onChange: (v) => {
          s.sound.mediaVolume = v;
        } },
        { kind: 'slider', title: 'Call volume', icon: 'call', value: s.sound.callVolume, onChange: (v) => {
          s.sound.callVolume = v;
        } },
        { kind: 'slider', title: 'Ring & notification volume', icon: 'bell', value: s.sound.ringVolume, onChange: (v) => {
          s.sound.ringVolume = v;
        } },
        { kind: 'slider', title: 'Alarm volume', icon: 'alarm', value: s.sound.alarmVolume, onChange: (v) => {
          s.sound.alarmVolume = v;
        } },
        { kind: 'link', title: 'Do Not Disturb', summary: onOff(s.sound.doNotDisturb), onTap: open('dnd') },
        { kind: 'link', title: 'Vibration & haptics', summary: onOff(s.sound.ringVibration), onTap: open('vibration') },
      ];
    case 'dnd':
      return [
        { kind: 'info', title: 'Do Not Disturb', summary: s.sound.doNotDisturb ? 'On' : 'Off' },
        { kind: 'button', title: s.sound.doNotDisturb ? 'Turn off now' : 'Turn on now', onTap: () => {
          s.sound.doNotDisturb = !s.sound.doNotDisturb;
        } },
      ];
    case 'vibration':
      return [{ kind: 'switch', title: 'Ring vibration', checked: s.sound.ringVibration, onToggle: () => {
        s.sound.ringVibration = !s.sound.ringVibration;
      } }];
    case 'display':
      return [
        { kind: 'category', title: 'Brightness' },
        { kind: 'slider', title: 'Brightness level', icon: 'brightness', value: s.display.brightness, onChange: (v) => {
          s.display.brightness = v;
        } },
        { kind: 'switch', title: 'Adaptive brightness', checked: s.display.adaptiveBrightness, onToggle: () => {
          s.display.adaptiveBrightness = !s.display.adaptiveBrightness;
        } },
        { kind: 'category', title: 'Appearance' },
        { kind: 'switch', title: 'Dark theme', summary: s.display.darkTheme ? 'Will never turn off automatically' : 'Will never turn on automatically', checked: s.display.darkTheme, onToggle: () => {
          s.display.darkTheme = !s.display.darkTheme;
        } },
        { kind: 'link', title: 'Screen timeout', summary: `After ${s.display.screenTimeout} of inactivity`, onTap: () => undefined },
      ];
    case 'system':
      return [
        { kind: 'link', title: 'Languages', summary: s.system.languages[0] ?? '', icon: 'language', onTap: open('languages') },
        { kind: 'link', title: 'Gestures', icon: 'gesture', onTap: () => undefined },
        { kind: 'link', title: 'Date & time', summary: s.system.timeZone, icon: 'clock', onTap: open('date-time') },
        { kind: 'link', title: 'Backup', icon: 'backup', onTap: () => undefined },
        { kind: 'link', title: 'Reset options', icon: 'reset', onTap: () => undefined },
      ];
    case 'languages':
      return [{ kind: 'category', title: 'App languages' }, ...s.system.languages.map((lang, i): Pref => ({ kind: 'info', title: `${i + 1}`, summary: lang }))];
    case 'date-time':
      return [
        { kind: 'switch', title: 'Set time automatically', checked: true, onToggle: () => undefined },
        { kind: 'info', title: 'Time zone', summary: s.system.timeZone },
      ];
    case 'about':
      return [
        { kind: 'link', title: 'Device name', summary: s.about.deviceName, onTap: () => {
          ui.dialog = { kind: 'rename', target: 'device', value: s.about.deviceName };
        } },
        { kind: 'info', title: 'Phone number', summary: s.about.phoneNumber },
        { kind: 'info', title: 'Model', summary: s.about.model },
        { kind: 'link', title: 'Android version', summary: s.about.androidVersion, onTap: open('android-version') },
        { kind: 'info', title: 'Build number', summary: s.about.buildNumber },
      ];
    case 'android-version':
      return [
        { kind: 'info', title: 'Android version', summary: s.about.androidVersion },
        { kind: 'info', title: 'Android security update', summary: s.about.securityUpdate },
        { kind: 'info', title: 'Build number', summary: s.about.buildNumber },
      ];
    case 'security':
    case 'location':
    case 'accessibility':
    case 'wallpaper':
      return [{ kind: 'info', title: pageTitles[ui.page], summary: 'Nothing to change here in the simulator' }];
  }
}

function settingsDialog(context: ActivityContext<SettingsState>, ui: SettingsUi): Overlay[] {
  const dialog = ui.dialog;
  if (dialog === undefined) return [];
  const close = (): void => {
    ui.dialog = undefined;
    context.focus(undefined);
  };
  const shell = (title: string, body: Widget[], positive: string, onPositive: () => void): Overlay => ({
    kind: 'dialog',
    onDismiss: close,
    root: column({ cls: 'android.widget.FrameLayout', id: 'android:id/parentPanel', look: 'card', padding: 24, gap: 12 }, [
      label(title, { id: 'android:id/alertTitle', fontSize: 20 }),
      ...body,
      row({ id: 'android:id/buttonPanel', justify: 'end', gap: 8 }, [
        button('Cancel', close, { id: 'android:id/button2', look: 'plain' }),
        button(positive, onPositive, { id: 'android:id/button1', look: 'plain' }),
      ]),
    ]),
  });
  if (dialog.kind === 'wifi-password') {
    return [shell(dialog.network, [
      editText({ key: 'wifi-password', value: dialog.password, onChange: (value) => {
        dialog.password = value;
      } }, { id: sid('password'), hint: 'Password', flags: { password: true } }),
    ], 'Connect', () => {
      if (dialog.password.length < 8) {
        context.toast('The password must have at least 8 characters');
        return;
      }
      context.state.network.wifi = true;
      context.state.network.wifiNetwork = dialog.network;
      close();
    })];
  }
  if (dialog.kind === 'rename') {
    return [shell(dialog.target === 'device' ? 'Device name' : 'Rename this device', [
      editText({ key: 'rename', value: dialog.value, onChange: (value) => {
        dialog.value = value;
      } }, { id: sid('edittext'), hint: 'Enter name' }),
    ], dialog.target === 'device' ? 'OK' : 'Rename', () => {
      if (dialog.value.trim() !== '') context.state.about.deviceName = dialog.value.trim();
      close();
    })];
  }
  const radio = (mode: string, text: string): Widget => view('android.widget.RadioButton', {
    id: sid(`private_dns_mode_${mode === 'hostname' ? 'provider' : mode}`),
    text,
    height: 48,
    icon: dialog.mode === mode ? 'radio-on' : 'radio-off',
    onTap: () => {
      dialog.mode = mode;
    },
    flags: { checkable: true, checked: dialog.mode === mode, clickable: true, focusable: true },
  });
  return [shell('Select Private DNS mode', [
    radio('off', 'Off'),
    radio('automatic', 'Automatic'),
    radio('hostname', 'Private DNS provider hostname'),
    editText({ key: 'dns-hostname', value: dialog.hostname, onChange: (value) => {
      dialog.hostname = value;
    } }, { id: sid('private_dns_mode_provider_hostname'), hint: 'Enter hostname of DNS provider', flags: { enabled: dialog.mode === 'hostname' } }),
  ], 'Save', () => {
    if (dialog.mode === 'hostname') {
      if (dialog.hostname.trim() === '') {
        context.toast('Invalid hostname');
        return;
      }
      context.state.network.privateDns = dialog.hostname.trim();
    } else {
      context.state.network.privateDns = dialog.mode;
    }
    close();
  })];
}

function renderPage(context: ActivityContext<SettingsState>, ui: SettingsUi): Screen {
  const prefs = prefsFor(context, ui).map(prefWidget);
  const isHome = ui.page === 'home';
  const appBar: Widget = isHome
    ? column({ id: sid('app_bar'), padding: [24, 48, 24, 16], gap: 24 }, [
        label('Settings', { id: sid('homepage_title'), fontSize: 36 }),
        view('android.widget.LinearLayout', {
          id: sid('search_action_bar'),
          layout: 'row',
          look: 'card',
          height: 56,
          padding: [16, 0, 16, 0],
          align: 'center',
          onTap: () => context.toast('Settings search is not available in the simulator'),
          flags: { clickable: true, focusable: true },
        }, [image('search', { id: sid('search_icon') }), label('Search settings', { id: sid('search_action_bar_title'), padding: [16, 0, 0, 0] })]),
      ])
    : column({ id: sid('app_bar') }, [
        frame({ id: sid('collapsing_toolbar'), desc: pageTitles[ui.page], height: 200, justify: 'end' }, [
          row({ cls: 'android.view.ViewGroup', id: sid('action_bar'), height: 64, align: 'center' }, [
            iconButton('back', 'Navigate up', () => context.finish()),
            view('android.view.View', { width: 'fill' }),
          ]),
          label(pageTitles[ui.page], { id: sid('collapsing_toolbar_title'), fontSize: 32, padding: [24, 0, 24, 16], height: 'wrap', flags: { selected: false } }),
        ]),
      ]);
  return {
    root: view('android.widget.ScrollView', { id: sid('content_parent'), layout: 'column', height: 'fill', scroll: { key: 'page' }, flags: { scrollable: true } }, [
      appBar,
      frame({ id: sid('content_frame') }, [
        view('androidx.recyclerview.widget.RecyclerView', { id: sid('recycler_view'), layout: 'column', flags: { focusable: true } }, prefs),
      ]),
    ]),
    overlays: settingsDialog(context, ui),
  };
}

const pages = Object.keys(pageTitles) as Page[];

const settingsHome = defineActivity<SettingsState, SettingsUi>({
  name: 'com.android.settings.Settings',
  create: () => ({ page: 'home', app: '', dialog: undefined }),
  render: renderPage,
});

const subSettings = defineActivity<SettingsState, SettingsUi>({
  name: 'com.android.settings.SubSettings',
  create: (params) => ({ page: pages.find((p) => p === params['page']) ?? 'home', app: params['app'] ?? '', dialog: undefined }),
  render: renderPage,
});

/**
 * Android 13 Settings (`com.android.settings`): a homepage of categories and nested
 * pages (`SubSettings`) — Network & internet (Internet with the Wi-Fi switch, networks
 * (the secured CafeNet asks for a password in a password field) and network preferences,
 * airplane mode, Private DNS dialog), Connected devices → Connection
 * preferences → Bluetooth (switch, device name), Apps (all apps, app info,
 * per-app notifications, uninstall), Battery (percentage), Storage, Sound & vibration
 * (volume SeekBars 0–100, Do Not Disturb, ring vibration), Display (brightness SeekBar,
 * dark theme), System (languages, date & time), About phone (device name, Android 13).
 * Preference rows are clickable LinearLayouts; their switches are checkable, not
 * clickable, as on a real device.
 */
export const settingsApp: SimApp<SettingsState> = {
  packageName: settingsPackage,
  label: 'Settings',
  icon: 'settings',
  launchActivity: 'com.android.settings.Settings',
  stateSchema: settingsStateSchema,
  defaultState: defaultSettingsState,
  activities: [settingsHome, subSettings],
};
