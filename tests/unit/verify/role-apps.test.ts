// A control whose words ask for a role (a help page, a file, an update, feedback by mail) that
// opened the app of that role is tied to it (`app-role-named`), and so is one that raised the
// permission prompt for what its words use (`permission-names-resource`), on real transitions
// (tests/fixtures/transitions-roles, each with its licence there); the same app or prompt after a
// control whose words ask for another role or resource, or for none, is not.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadTransitions } from '../../../src/tasks/replay/load-transitions.js';
import type { ReplayStep } from '../../../src/tasks/replay/replay-task.js';
import type { UiTree } from '../../../src/ui/ui-tree.js';
import { resourceNamedBy, roleNamedBy } from '../../../src/verify/role-apps.js';
import type { VerifyOutcome } from '../../../src/verify/verify-outcome.js';
import { verifyUnitStep } from '../../../src/verify/verify-unit-step.js';
import { actedUnit, transition } from './transitions.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const rolesFile = path.join(repoRoot, 'tests/fixtures/transitions-roles/transitions.jsonl');

const sendFeedback = 'lc-lc-2024-01-12_163518';
const checkForUpdates = 'gp-testing_repackage-2021-12-19_093742';
const learnMore = 'lh-task_Youtube_2024-12-06_13-22-47-2';
const searchContacts = 'lc-lc-2023-12-31_143807';

let loaded: ReturnType<typeof loadTransitions> | undefined;

async function step(id: string): Promise<ReplayStep> {
  loaded ??= loadTransitions(rolesFile);
  const source = await loaded;
  const found = source.tasks.flatMap((task) => task.steps).find((candidate) => candidate.id === id);
  if (!found) throw new Error(`${id} is not in ${rolesFile}`);
  return found;
}

async function verify(id: string, after?: UiTree): Promise<VerifyOutcome> {
  const recorded = await step(id);
  return verifyUnitStep({ unit: actedUnit(recorded), args: {}, before: recorded.before, after: after ?? recorded.after });
}

describe('roleNamedBy', () => {
  it('names the role of a role app when the control\'s words ask for it, as whole words', () => {
    expect(roleNamedBy('org.mozilla.firefox', ['Privacy policy'])).toBe('the browser');
    expect(roleNamedBy('com.android.chrome', ['技术支持'])).toBe('the browser');
    expect(roleNamedBy('org.mozilla.firefox', ['https://github.com/someone/app'])).toBe('the browser');
    expect(roleNamedBy('com.android.documentsui', ['Import', 'listImportButton'])).toBe('the file picker');
    expect(roleNamedBy('com.android.vending', ['Rate this app'])).toBe('the app store');
    expect(roleNamedBy('com.android.dialer', ['Call contact'])).toBe('the dialer');
    // An id's words count as words: sendFeedbackButton → "send feedback button".
    expect(roleNamedBy('com.google.android.gm', ['', 'sendFeedbackButton'])).toBe('the mail app');
  });

  it('names nothing for words of another role, a word inside a longer one, or an app that plays no role', () => {
    expect(roleNamedBy('org.mozilla.firefox', ['Settings'])).toBeUndefined();
    expect(roleNamedBy('org.mozilla.firefox', ['Import'])).toBeUndefined();
    expect(roleNamedBy('com.android.documentsui', ['Privacy policy'])).toBeUndefined();
    expect(roleNamedBy('org.mozilla.firefox', ['Helpful tips'])).toBeUndefined();
    expect(roleNamedBy('com.example.notes', ['Help'])).toBeUndefined();
  });
});

describe('verifyUnitStep: a control that opened the app its words ask for', () => {
  it('ties "Learn more" to the browser, "檢查更新" (check for updates) to the Play Store and "Send Feedback" to Gmail', async () => {
    expect(await verify(learnMore)).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'app-role-named', reason: expect.stringContaining('the browser') });
    expect(await verify(checkForUpdates)).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'app-role-named', reason: expect.stringContaining('the app store') });
    expect(await verify(sendFeedback)).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'app-role-named', reason: expect.stringContaining('the mail app') });
  });

  it('ties none of them to another step\'s app, and a tap that changed nothing fails', async () => {
    const [browser, store, mail] = await Promise.all([learnMore, checkForUpdates, sendFeedback].map(async (id) => (await step(id)).after));
    // Each control judged on the screens the other two led to: another role's app is not what its words ask for.
    for (const [id, others] of [[learnMore, [store, mail]], [checkForUpdates, [browser, mail]], [sendFeedback, [browser, store]]] as const) {
      for (const after of others) expect(await verify(id, after)).not.toMatchObject({ tie: 'app-role-named' });
    }
    expect((await verify(learnMore, (await step(learnMore)).before)).outcome).toBe('fail');
  });
});

describe('resourceNamedBy and a permission prompt the action raised', () => {
  it('names what the prompt asks for when the control\'s words use it', () => {
    expect(resourceNamedBy('Allow Calendar to access your contacts?', ['Add contact birthdays'])).toBe('contacts');
    expect(resourceNamedBy('Allow 1List to access photos and media on your device?', ['Import'])).toBe('files and media');
    expect(resourceNamedBy('Allow AirUnlock to take pictures and record video?', ['SCAN THE QR CODE'])).toBe('the camera');
    expect(resourceNamedBy('Allow Calendar to access your contacts?', ['Import'])).toBeUndefined();
    expect(resourceNamedBy('Allow ABC News to access photos, media, and files on your device?', ['OK'])).toBeUndefined();
  });

  it('ties "Search for contacts" to the contacts prompt it raised, not to a prompt for files; "OK" raising a prompt stays weak', async () => {
    expect(await verify(searchContacts)).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'permission-names-resource', reason: expect.stringContaining('contacts') });
    // ABC News' "OK" raised "Allow ABC News to access photos, media, and files on your device?" (tests/fixtures/transitions).
    const filesPrompt = await transition('lc-lc-2024-01-11_153632');
    expect(await verify(searchContacts, filesPrompt.after)).not.toMatchObject({ strength: 'strong' });
    expect(verifyUnitStep({ unit: actedUnit(filesPrompt), args: {}, before: filesPrompt.before, after: filesPrompt.after })).toMatchObject({ outcome: 'pass', strength: 'weak', tie: 'permission-prompt' });
  });
});
