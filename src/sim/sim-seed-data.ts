import { z } from 'zod';
import { clockApp, clockStateSchema } from './apps/clock-app.js';
import { contactsApp, contactsStateSchema } from './apps/contacts-app.js';
import { notesApp, notesStateSchema } from './apps/notes-app.js';
import { settingsApp, settingsStateSchema } from './apps/settings-app.js';
import { eraseApp, type AnySimApp } from './sim-app.js';

/**
 * Device-level state: runtime permission decisions by `"<package>/<permission>"`
 * (`ask` = the app shows the permission dialog on its next launch).
 */
export const systemStateSchema = z.object({
  permissions: z.record(z.string(), z.enum(['granted', 'denied', 'ask'])),
});
export type SystemState = z.infer<typeof systemStateSchema>;

/** All apps' seed data and state, one key per app (see each app's schema). */
export const simSeedDataSchema = z.object({
  clock: clockStateSchema,
  contacts: contactsStateSchema,
  settings: settingsStateSchema,
  notes: notesStateSchema,
  system: systemStateSchema,
});
export type SimSeedData = z.infer<typeof simSeedDataSchema>;
/** Seed data as accepted on input: fields with defaults (e.g. `clock.settings`) may be left out. */
export type SimSeedDataInput = z.input<typeof simSeedDataSchema>;

/** Keys of `SimSeedData` that belong to an app. */
export type SimAppKey = Exclude<keyof SimSeedData, 'system'>;

/** The installable apps, by their key in `SimSeedData`. */
export const simApps: readonly { readonly key: SimAppKey; readonly app: AnySimApp }[] = [
  { key: 'clock', app: eraseApp(clockApp) },
  { key: 'contacts', app: eraseApp(contactsApp) },
  { key: 'settings', app: eraseApp(settingsApp) },
  { key: 'notes', app: eraseApp(notesApp) },
];

/** Default system state: every launch permission granted (no dialog unless seeded `ask`). */
export function defaultSystemState(): SystemState {
  const permissions: Record<string, 'granted' | 'denied' | 'ask'> = {};
  for (const { app } of simApps) {
    for (const p of app.launchPermissions ?? []) permissions[`${app.packageName}/${p.permission}`] = 'granted';
  }
  return { permissions };
}
