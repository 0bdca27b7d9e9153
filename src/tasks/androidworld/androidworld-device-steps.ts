import type { AdbCheck, DeviceSetupStep } from '../task-schema.js';

/**
 * Building blocks of the AndroidWorld suite's device side: start steps and adb checks as
 * our task schema writes them (`adb shell …` runs through Appium's `mobile: shell`, whose
 * command is read by the device's shell, so pipes, `&&` and quotes work there).
 */

/** The packages of AndroidWorld's apps, by a short key. */
export const androidWorldPackages = {
  settings: 'com.android.settings',
  clock: 'com.google.android.deskclock',
  contacts: 'com.google.android.contacts',
  camera: 'com.android.camera2',
  dialer: 'com.google.android.dialer',
  chrome: 'com.android.chrome',
  files: 'com.google.android.documentsui',
  audioRecorder: 'com.dimowner.audiorecorder',
  clipper: 'ca.zgrs.clipper',
  expense: 'com.arduia.expense',
  markor: 'net.gsantner.markor',
  sms: 'com.simplemobiletools.smsmessenger',
  joplin: 'net.cozic.joplin',
  osmand: 'net.osmand',
  broccoli: 'com.flauschcode.broccoli',
  retro: 'code.name.monkey.retromusic',
  calendar: 'com.simplemobiletools.calendar.pro',
  draw: 'com.simplemobiletools.draw.pro',
  gallery: 'com.simplemobiletools.gallery.pro',
  openTracks: 'de.dennisguse.opentracks',
  tasks: 'org.tasks',
  vlc: 'org.videolan.vlc',
} as const;
export type AndroidWorldApp = keyof typeof androidWorldPackages;

/**
 * The APK files AndroidWorld installs (from its public bucket, docs/androidworld.md); the
 * system apps of the emulator image (Settings, Clock, Contacts, Camera, Dialer, Chrome,
 * Files) have none.
 */
export const androidWorldApks: Partial<Record<AndroidWorldApp, string>> = {
  audioRecorder: 'com.dimowner.audiorecorder_926.apk',
  clipper: 'clipper.apk',
  expense: 'com.arduia.expense_11.apk',
  markor: 'net.gsantner.markor_146.apk',
  sms: 'com.simplemobiletools.smsmessenger_85.apk',
  joplin: 'net.cozic.joplin_2097740.apk',
  osmand: 'net.osmand-4.6.13.apk',
  broccoli: 'com.flauschcode.broccoli_1020600.apk',
  retro: 'code.name.monkey.retromusic_10603.apk',
  calendar: 'com.simplemobiletools.calendar.pro_238.apk',
  draw: 'com.simplemobiletools.draw.pro_79.apk',
  gallery: 'com.simplemobiletools.gallery.pro_396.apk',
  openTracks: 'de.dennisguse.opentracks_5705.apk',
  tasks: 'org.tasks_130605.apk',
  vlc: 'org.videolan.vlc_13050408.apk',
};

/** Where AndroidWorld's apps keep the files its tasks read (its device constants). */
export const androidWorldFolders = {
  storage: '/storage/emulated/0',
  markor: '/storage/emulated/0/Documents/Markor',
  audioRecorder: '/storage/emulated/0/Android/data/com.dimowner.audiorecorder/files/Music/records',
  pictures: '/sdcard/Pictures',
  movies: '/sdcard/Movies',
  download: '/storage/emulated/0/Download',
} as const;

/** The app must be installed (with the APK to install when it is not). */
export function installed(app: AndroidWorldApp): DeviceSetupStep {
  const apk = androidWorldApks[app];
  return { installed: androidWorldPackages[app], ...(apk === undefined ? {} : { apk: `androidworld-apks/${apk}` }) };
}

/** A text quoted for the device's shell (single quotes; a quote inside is closed, escaped and reopened). */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** One `adb shell` start step. */
export function shell(command: string, note?: string): DeviceSetupStep {
  return { adb: `shell ${command}`, ...(note === undefined ? {} : { note }) };
}

/** Start steps that empty a folder (and make sure it exists). */
export function clearFolder(folder: string): DeviceSetupStep[] {
  return [shell(`mkdir -p ${shellQuote(folder)} && rm -rf ${shellQuote(folder)}/*`)];
}

/** A start step that writes `content` to `file` (its folder is made first). */
export function writeFile(file: string, content: string): DeviceSetupStep {
  const folder = file.slice(0, file.lastIndexOf('/'));
  return shell(`mkdir -p ${shellQuote(folder)} && printf %s ${shellQuote(content)} > ${shellQuote(file)}`);
}

/** Start steps that put `text` on the clipboard through the Clipper app (AndroidWorld's way). */
export function setClipboard(text: string): DeviceSetupStep[] {
  return [installed('clipper'), { launch: androidWorldPackages.clipper }, shell(`am broadcast -a clipper.set -e text ${shellQuote(text)}`)];
}

/** A start step that empties the SMS provider (messages and threads), as root. */
export function clearSms(): DeviceSetupStep {
  return shell('su 0 sqlite3 /data/data/com.android.providers.telephony/databases/mmssms.db "DELETE FROM sms; DELETE FROM threads;"', 'needs a rootable image (google_apis)');
}

/** A regex source that matches `text` literally. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** A regex source for `text` with every run of white space loosened to `\s+` (AndroidWorld compares note contents loosely). */
export function looseText(text: string): string {
  return text.trim().split(/\s+/).map(escapeRegex).join('\\s+');
}

/** A regex source for a phone number's digits, whatever the app puts between them. */
export function phoneDigits(number: string): string {
  return [...number.replace(/\D/g, '')].join('\\D*');
}

/** `file` exists (`present`) or not on the device. */
export function fileCheck(file: string, present: boolean): AdbCheck {
  return { command: `adb shell test -e ${shellQuote(file)} && echo present || echo absent`, expect: { equals: present ? 'present' : 'absent' } };
}

/** `folder` holds exactly `count` entries. */
export function entryCount(folder: string, count: number): AdbCheck {
  return { command: `adb shell ls -1 ${shellQuote(folder)} 2>/dev/null | wc -l`, expect: { equals: String(count) } };
}

/** The text of `file` is `content`, white space aside. */
export function fileContent(file: string, content: string): AdbCheck {
  return { command: `adb shell cat ${shellQuote(file)}`, expect: { matches: `^\\s*${looseText(content)}\\s*$` } };
}

/** Global or system settings value. */
export function settingCheck(namespace: 'global' | 'system' | 'secure', key: string, expect: AdbCheck['expect']): AdbCheck {
  return { command: `adb shell settings get ${namespace} ${key}`, expect };
}

/** A text message to `number` with `body` is in the sent box. */
export function smsSent(number: string, body: string): AdbCheck {
  return { command: 'adb shell content query --uri content://sms/sent --projection address:body', expect: { matches: `address=\\+?\\D*${phoneDigits(number)}, body=${looseText(body)}\\s*(\\n|$)` } };
}
