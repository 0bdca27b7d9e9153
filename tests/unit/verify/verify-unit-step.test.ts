// verifyUnitStep on real transitions (tests/fixtures/transitions): what really happened
// passes, and the same step with a changed-nothing or a wrong after screen does not.
import { describe, expect, it } from 'vitest';
import { perceive } from '../../../src/perception/perceive.js';
import type { UiTree } from '../../../src/ui/ui-tree.js';
import { parsePredicate } from '../../../src/verify/parse-predicate.js';
import type { ContractArgs } from '../../../src/verify/unit-contract.js';
import type { VerifyOutcome } from '../../../src/verify/verify-outcome.js';
import { alreadyInWantedState, isPixelOnlyUnit, verifyUnitStep } from '../../../src/verify/verify-unit-step.js';
import { screen, setAttribute } from './screens.js';
import { actedUnit, screenXml, transition } from './transitions.js';

async function verify(id: string, options: { args?: ContractArgs; after?: 'before' | UiTree; expectation?: string } = {}): Promise<VerifyOutcome> {
  const step = await transition(id);
  const after = options.after === 'before' ? step.before : options.after ?? step.after;
  return verifyUnitStep({
    unit: actedUnit(step),
    args: options.args ?? {},
    before: step.before,
    after,
    ...(options.expectation === undefined ? {} : { expectation: parsePredicate(options.expectation) }),
  });
}

const launcherApps = 'lc-lc-2023-12-27_173450';

describe('verifyUnitStep: clicks and their evidence', () => {
  it('passes a launcher tap that opened the app drawer; the same tap changing nothing fails', async () => {
    // The drawer's search bar "Search Apps" names "Apps", but a label shown somewhere on the new page is on too
    // many other pages to tie the change to the tap (it passed 25 wrong-effect controls on the team's corpus).
    expect(await verify(launcherApps)).toMatchObject({ outcome: 'pass', strength: 'weak', tie: 'screen-changed' });
    // "Apps" is an icon without text: no change may mean an effect in pixels only, so vision is due at once.
    expect(await verify(launcherApps, { after: 'before' })).toMatchObject({ outcome: 'fail', code: 'pixel-only' });
    // A text button that changed nothing is an ordinary no-change.
    expect(await verify('lc-lc-2023-12-31_212707', { after: 'before' })).toMatchObject({ outcome: 'fail', code: 'no-change' });
  });

  it('records strong evidence when the change is tied to the control, weak when only something changed', async () => {
    expect(await verify('lc-lc-2023-12-31_212707')).toMatchObject({ outcome: 'pass', strength: 'strong', reason: expect.stringContaining('became selected') });
    expect(await verify('lc-lc-2023-12-27_174610')).toMatchObject({ outcome: 'pass', strength: 'strong', reason: expect.stringContaining('com.thomsonreuters.reuters') });
    // "Navigate up" to a page that lists the one it left: any page of the app may list it, so it ties nothing.
    expect(await verify('lc-lc-2024-01-24_183113')).toMatchObject({ outcome: 'pass', strength: 'weak' });
    expect(await verify('lc-lc-2024-01-30_154547')).toMatchObject({ outcome: 'pass', strength: 'strong', reason: expect.stringContaining('editor') });
    // The Calendar icon led to an account screen of another app: a change, nothing tying it to "Calendar".
    expect(await verify('lc-lc-2023-12-27_173454')).toMatchObject({ outcome: 'pass', strength: 'weak' });
    // Wrong effect: the Reuters icon's step judged on the Calendar icon's after screen is no strong pass.
    const reutersOnCalendar = await verify('lc-lc-2023-12-27_174610', { after: (await transition('lc-lc-2023-12-27_173454')).after });
    expect(reutersOnCalendar).toMatchObject({ outcome: 'pass', strength: 'weak' });
  });

  it('a filter whose page heading now names it ("T-shirt" → "T-shirt - Women") is tied to it; another page is not', async () => {
    const women = 'hzx-demo_Amazon4_2025-04-09_20-43-38-6';
    expect(await verify(women)).toMatchObject({ outcome: 'pass', strength: 'strong', reason: expect.stringContaining('naming it') });
    expect(await verify(women, { after: 'before' })).toMatchObject({ outcome: 'fail' });
    // The same filter page changing in the same way, but with a heading that does not name "Women": nothing ties it.
    const step = await transition(women);
    const unnamed = screen(screenXml(step.afterFile).replace('T-shirt - Women: Clothing', 'T-shirt - Men: Clothing'));
    expect(await verify(women, { after: unnamed })).toMatchObject({ outcome: 'pass', strength: 'weak' });
  });

  it('"Enable in Settings" (在設定中啟用) that opened the Settings app is tied to it; the Settings app from another control is not', async () => {
    const enable = 'gp-testing_repeat-2022-02-05_102533';
    expect(await verify(enable)).toMatchObject({ outcome: 'pass', strength: 'strong', reason: expect.stringContaining('Settings app') });
    expect((await verify(enable, { after: 'before' })).outcome).toBe('fail');
    // Settings' "Apps" list opened by "Continue" in another app is no Settings button's doing.
    const settingsElsewhere = await verify('gp-multi-2021-12-13_094726', { after: (await transition(enable)).after });
    expect(settingsElsewhere).not.toMatchObject({ strength: 'strong' });
  });

  it('an activity named like a word of the app\'s package ties nothing to a control whose id says that word', async () => {
    const googleSearch = 'lc-lc-2024-01-22_002007';
    const searchIcon = 'lc-lc-2023-12-27_203509';
    expect(await verify(googleSearch)).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'title-names-label' });
    expect(await verify(searchIcon)).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'activity-names-label' });
    // The search bar judged on the search icon's after screen: SearchNowActivity says "search", but so does the
    // app (com.google.android.googlequicksearchbox), whatever control of it opened the page.
    const onIconsPage = await verify(googleSearch, { after: (await transition(searchIcon)).after });
    expect(onIconsPage).toMatchObject({ outcome: 'pass', strength: 'weak' });
    // An id word the app's package does not say still ties: settingButton opened SettingActivity.
    expect(await verify('lc-lc-2024-01-24_190623')).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'activity-names-id' });
  });

  it('a menu that drops at the control is tied to it, unless its entries name another control of the screen or it is as wide as the screen', async () => {
    const moreOptions = 'lc-lc-2024-01-24_155046';
    expect(await verify(moreOptions)).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'surface-at-control' });
    // The same toolbar with a "Night mode" button where "Open Menu" is: the menu "Enable night mode" is that
    // button's, dropped at the same corner, not the overflow's.
    const step = await transition(moreOptions);
    const before = screen(setAttribute(screenXml(step.beforeFile), 'content-desc="Open Menu"', 'content-desc', 'Night mode'), { packageName: step.before.packageName, activity: step.before.activity });
    expect(verifyUnitStep({ unit: actedUnit(step, before), args: {}, before, after: step.after })).toMatchObject({ outcome: 'pass', strength: 'weak' });
    // A window as wide as the screen (a dialog) lines up with any control at its edge: it says nothing of where it came from.
    const wide = screen(screenXml(step.afterFile).replaceAll('[738,98][1426,266]', '[14,98][1426,266]'), { packageName: step.after.packageName, activity: step.after.activity });
    expect(verifyUnitStep({ unit: actedUnit(step), args: {}, before: step.before, after: wide })).toMatchObject({ outcome: 'pass', strength: 'weak' });
  });

  it('a dial number that becomes selected is tied to the tap; another number drawn in its place is not the same item', async () => {
    const thirty = 'navi-com_google_android_deskclock-task_driven_2025-05-16_13-09-41-3';
    expect(await verify(thirty)).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'own-state-changed' });
    // Wrong effect: the hour display tapped instead turns the dial to hours; "6" is drawn where "30" was, selected.
    const hours = await transition('navi-com_google_android_deskclock-task_driven_2025-05-16_13-09-41-1');
    expect(await verify(thirty, { after: hours.after })).toMatchObject({ outcome: 'pass', strength: 'weak' });
  });

  it('a display re-drawn with every number of the dial does not read the tapped label', async () => {
    // Tapping "10" on the hour dial turns it into the minutes dial, whose "10" is drawn where "2" was: a re-draw.
    expect(await verify('navi-com_google_android_deskclock-task_driven_2025-05-16_12-59-22-10')).toMatchObject({ outcome: 'pass', strength: 'weak' });
  });

  it('passes a tap on the tab that is already selected when nothing changed, as settled', async () => {
    expect(await verify('lc-lc-2023-12-31_144714')).toMatchObject({ outcome: 'pass', code: 'already-selected' });
  });

  it('an icon that appeared in the tapped row is a change (a song row showing its playing mark); the same screen is not', async () => {
    // Only an ImageView without text or state came: the nodes the delta compares are all the same (ρ = 1).
    const song = 'tm-root-2021-11-23_105916';
    expect(await verify(song)).toMatchObject({ outcome: 'pass', strength: 'weak', tie: 'screen-changed', reason: expect.stringContaining('only 1 image(s) came or went') });
    expect(await verify(song, { after: 'before' })).toMatchObject({ outcome: 'fail', code: 'no-change' });
    const step = await transition(song);
    // The same icon moved elsewhere is a change too; the icon dropped from the after screen again leaves nothing.
    const moved = screen(screenXml(step.afterFile).replace('bounds="[964,1360][1019,1415]"', 'bounds="[964,1500][1019,1555]"'));
    expect(await verify(song, { after: moved })).toMatchObject({ outcome: 'pass', tie: 'screen-changed' });
    const dropped = screen(screenXml(step.afterFile).replace(/<node [^>]*bounds="\[964,1360\]\[1019,1415\]"[^>]*\/>/, ''));
    expect(await verify(song, { after: dropped })).toMatchObject({ outcome: 'fail', code: 'no-change' });
  });

  it('is inconclusive when only the reported activity changed and the hierarchy is the same', async () => {
    expect(await verify('lc-lc-2023-12-27_191358')).toMatchObject({ outcome: 'inconclusive', code: 'activity-only' });
  });

  it('fails a tap on an icon that changed nothing as pixel-only (the gate opens at once)', async () => {
    const step = await transition('lc-lc-2024-01-30_155336');
    expect(step.noVisibleEffect).toBe(true);
    expect(isPixelOnlyUnit(actedUnit(step), step.before)).toBe(true);
    expect(await verify(step.id)).toMatchObject({ outcome: 'fail', code: 'pixel-only' });
    expect(isPixelOnlyUnit(actedUnit(await transition('lc-lc-2023-12-31_212707')), (await transition('lc-lc-2023-12-31_212707')).before)).toBe(false);
  });
});

describe('verifyUnitStep: an expectation must be evidence of change', () => {
  const drawerShown = 'exists(desc="Search Apps")';
  const homeShown = 'exists(desc="Apps")';

  it('a stale expectation (it held before the tap) does not verify a tap that changed nothing', async () => {
    const step = await transition(launcherApps);
    // Both screens show the home screen's "Apps" icon: the expectation holds before and after.
    const stale = await verify(launcherApps, { after: 'before', expectation: homeShown });
    expect(stale.outcome).toBe('fail');
    expect(stale.reason).toContain('already held before the action');
    expect(perceive(step.before).units.some((unit) => unit.label === 'Apps')).toBe(true);
    // A text tab likewise: "Sellers" is on screen before and after a tap that changed nothing.
    expect(await verify('lc-lc-2023-12-31_212707', { after: 'before', expectation: 'exists(text="Sellers")' })).toMatchObject({ outcome: 'fail', code: 'no-change' });
  });

  it('an expectation that became true passes the tap strongly; one that fails fails it', async () => {
    expect(await verify(launcherApps, { expectation: drawerShown })).toMatchObject({ outcome: 'pass', strength: 'strong', reason: expect.stringContaining('newly true') });
    expect(await verify(launcherApps, { expectation: 'exists(text="No such app")' })).toMatchObject({ outcome: 'fail', code: 'expectation-failed' });
  });

  it('a stale expectation leaves a real change to the contract, and says so', async () => {
    const verdict = await verify(launcherApps, { expectation: 'package = "com.android.launcher3"' });
    expect(verdict.outcome).toBe('pass');
    expect(verdict.reason).toContain('already held before the action');
  });
});

describe('verifyUnitStep: select, checked and selected alike', () => {
  const extraLarge = 'lc-lc-2024-01-14_004038';

  it('passes a choice in a dialog that closed when the page shows the chosen label', async () => {
    expect(await verify(extraLarge)).toMatchObject({ outcome: 'pass', code: 'choice-shown', strength: 'strong' });
    expect(await verify('lc-lc-2024-01-25_175352')).toMatchObject({ outcome: 'pass', code: 'choice-shown' });
  });

  it('a list of choices that closed with the choice nowhere on screen is a weak pass; one still open is not', async () => {
    const step = await transition(extraLarge);
    // The page under the dialog with its summary reading otherwise: the list closed, the choice is not shown.
    const unshown = screen(screenXml(step.afterFile).replaceAll('text="Extra Large"', 'text="Text size"'));
    expect(verifyUnitStep({ unit: actedUnit(step), args: {}, before: step.before, after: unshown })).toMatchObject({ outcome: 'pass', strength: 'weak', tie: 'choice-list-closed' });
    expect(await verify(extraLarge, { after: 'before' })).toMatchObject({ outcome: 'fail', code: 'no-change' });
  });

  it('a page that shows the choice and another of its choices names neither: a weak pass', async () => {
    const step = await transition(extraLarge);
    // Another setting's summary reading "Normal" (another choice of the dialog) beside "Extra Large": had "Normal"
    // been taken, the page could look the same.
    const both = screen(screenXml(step.afterFile).replace('text="Every 4 hours"', 'text="Normal"'));
    expect(verifyUnitStep({ unit: actedUnit(step), args: {}, before: step.before, after: both })).toMatchObject({ outcome: 'pass', strength: 'weak', code: 'choice-shown', reason: expect.stringContaining('shows another of its choices') });
  });

  it('does not pass another option of the same dialog on that screen', async () => {
    const step = await transition(extraLarge);
    const large = perceive(step.before).units.find((unit) => unit.label === 'Large');
    if (!large) throw new Error('no "Large" option in the ABC News dialog');
    const verdict = verifyUnitStep({ unit: large, args: {}, before: step.before, after: step.after });
    expect(verdict.outcome).not.toBe('pass');
  });

  it('passes the option that became checked and fails when another option of its group did', async () => {
    const step = await transition(extraLarge);
    const xml = screenXml(step.beforeFile);
    const chosen = screen(setAttribute(setAttribute(xml, 'text="Extra Large"', 'checked', 'true'), 'text="Normal"', 'checked', 'false'));
    const other = screen(setAttribute(setAttribute(xml, 'text="Large"', 'checked', 'true'), 'text="Normal"', 'checked', 'false'));
    const unit = actedUnit(step);
    expect(verifyUnitStep({ unit, args: {}, before: step.before, after: chosen })).toMatchObject({ outcome: 'pass', strength: 'strong' });
    expect(verifyUnitStep({ unit, args: {}, before: step.before, after: other })).toMatchObject({ outcome: 'fail', code: 'other-option' });
  });

  it('treats a checked radio as chosen: the loop does not tap it again', async () => {
    const step = await transition('hrx-task_Calendar_2025-08-14_14-15-55-5');
    const pm = actedUnit(step);
    expect(pm.type).toBe('select');
    expect(pm.state.checked).toBe(true);
    expect(pm.state.selected).toBe(false);
    expect(alreadyInWantedState(pm, {})).toBe(true);
  });
});

describe('verifyUnitStep: a control that answers in its own text or switch', () => {
  it('an own text that swaps a state word is the control answering; one that changed otherwise ties nothing', async () => {
    // The drawer button reads "Close menu" once the drawer is open.
    expect(await verify('lc-lc-2024-01-24_155359')).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'own-text-changed' });
    // A search box whose hint rotates on a timer ("搜索 秒针" → "搜索 五十年以后"): the same change shows on any later
    // screen of the app (17 of 27 wrong-effect controls passed strong on the team's corpus when this counted).
    const hint = await verify('tm-root-2021-11-23_094648');
    expect(hint).toMatchObject({ outcome: 'pass', strength: 'weak' });
    expect(hint.tie).not.toBe('own-text-changed');
    const other = await transition('tm-root-2021-11-23_094635');
    expect(await verify('tm-root-2021-11-23_094648', { after: other.after })).not.toMatchObject({ strength: 'strong' });
  });

  it('a text that turned into a focused field in its place, holding the same text, is the control answering', async () => {
    // The news app's "Search News" bar is a text until tapped; then a field with the focus, where it was.
    expect(await verify('lc-lc-2024-01-24_193428')).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'tapped-text-field-focused' });
    // Another step's after screen (a story page of the app) has no such field: only something changed.
    const story = await transition('lc-lc-2024-01-24_190623');
    expect(await verify('lc-lc-2024-01-24_193428', { after: story.after })).not.toMatchObject({ strength: 'strong' });
    expect(await verify('lc-lc-2024-01-24_193428', { after: 'before' })).toMatchObject({ outcome: 'fail' });
  });

  it('a switch flipped on the same page is strong; on a page that turned, the switch in its place is another', async () => {
    expect(await verify('ug-task_system_2024-05-20_19-52-52-4')).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'toggle-flipped' });
    // Another step's after screen: the Internet page, whose Wi-Fi switch sits where Airplane mode's did, off.
    const internet = await transition('ug-task_system_2024-11-12_23-54-19-3');
    expect(await verify('ug-task_system_2024-05-20_19-52-52-4', { after: internet.after })).toMatchObject({ outcome: 'pass', strength: 'weak', tie: 'switch-at-place-flipped' });
  });
});

describe('verifyUnitStep: commits, toggles and fills on real screens', () => {
  it('a permission prompt the commit raised is a new surface, not a failure', async () => {
    expect(await verify('lc-lc-2024-01-11_153632')).toMatchObject({ outcome: 'pass', code: 'raised-prompt' });
    expect(await verify('drme-ScreenShotAnalyser_samples2_a2dp.Vol_137.apk_Nexus_One_API_25-2018-06-05_105841')).toMatchObject({ outcome: 'pass', code: 'raised-prompt' });
    expect(await verify('lc-lc-2024-01-11_153632', { after: 'before' })).toMatchObject({ outcome: 'fail', code: 'no-change' });
  });

  it('a dialog dismissed back to the page it covered is weak, as a cancel would be; a window whose dump hides what it covered is weak', async () => {
    // "Add to cart" in a sheet over the product page: the sheet is gone and the page under it is still there, as
    // after closing the sheet without adding (5 of 5 such wrong-effect controls passed strong when this was strong).
    expect(await verify('hzx-demo_Amazon4_2025-04-09_20-43-38-12')).toMatchObject({ outcome: 'pass', strength: 'weak', reason: expect.stringContaining('as a cancel would be') });
    // "Allow" in the permission window: its dump is the window alone, so any other page after it would look the same.
    expect(await verify('lc-lc-2023-12-27_224638')).toMatchObject({ outcome: 'pass', strength: 'weak', reason: expect.stringContaining('not in the dump') });
    expect(await verify('lc-lc-2023-12-27_224638', { after: 'before' })).toMatchObject({ outcome: 'fail' });
  });

  it('a "Done" that leaves edit mode on the same page passes, tied to its own button', async () => {
    expect(await verify('hzx-task_A_2025-03-24_10-51-01-6')).toMatchObject({ outcome: 'pass', code: 'sealed', strength: 'strong' });
  });

  it('a switch that asks for confirmation passes as a raised prompt; in another app the dialog is not its question', async () => {
    expect(await verify('gp-mal-2021-12-14_021609')).toMatchObject({ outcome: 'pass', code: 'raised-prompt', strength: 'strong' });
    expect(await verify('gp-multi-2021-12-13_094710')).toMatchObject({ outcome: 'pass', code: 'raised-prompt', strength: 'weak' });
    // The system's "built for an older version of Android" dialog, after Continue on the same screen.
    const systemDialog = (await transition('gp-multi-2021-12-13_094726')).after;
    expect((await verify('gp-multi-2021-12-13_094710', { after: systemDialog })).outcome).not.toBe('pass');
  });

  it('text typed without clearing passes only when the field holds what it had followed by the text', async () => {
    const id = 'navi-com_android_chrome-task_driven_2025-05-16_12-03-06-6';
    const step = await transition(id);
    if (step.action.kind !== 'set-text') throw new Error(`${id} is not a set_text`);
    const prior = actedUnit(step).state.value ?? '';
    expect(prior).not.toBe('');
    expect(await verify(id, { args: { value: step.action.text, priorText: prior } })).toMatchObject({ outcome: 'pass', strength: 'strong' });
    expect(await verify(id, { args: { value: step.action.text } })).toMatchObject({ outcome: 'fail', code: 'value-mismatch' });
  });

  it('a submitted search whose field left the screen passes when the results show the typed text', async () => {
    const id = 'lc-lc-2024-01-24_171644';
    const step = await transition(id);
    if (step.action.kind !== 'set-text') throw new Error(`${id} is not a set_text`);
    expect(step.action.submitted).toBe(true);
    expect(await verify(id, { args: { value: step.action.text, submitted: true } })).toMatchObject({ outcome: 'pass', code: 'value-shown-elsewhere' });
    // Without the submit the results page proves the typing only because the bar in the field's place reads the value.
    expect(await verify(id, { args: { value: step.action.text } })).toMatchObject({ outcome: 'pass', reason: expect.stringContaining('in its place') });
    expect((await verify(id, { args: { value: 'something else', submitted: true } })).outcome).not.toBe('pass');
  });

  it('a field that left the screen passes when its place now shows the typed value, not when the value is only elsewhere', async () => {
    // YouTube demo: "Alligatoah" typed into the search box; the next screen is the results page whose bar reads it.
    const id = 'lh-demo_Youtube_2024-12-11_13-22-18-3';
    const step = await transition(id);
    if (step.action.kind !== 'set-text') throw new Error(`${id} is not a set_text`);
    expect(step.action.submitted).toBe(false);
    const typed = { args: { value: step.action.text } };
    expect(await verify(id, typed)).toMatchObject({ outcome: 'pass', strength: 'strong', code: 'value-shown-elsewhere', reason: expect.stringContaining('in its place') });
    // Another value is not shown there; the before screen's own suggestion list already read "alligatoah" lower down.
    expect((await verify(id, { args: { value: 'Mozart' } })).outcome).not.toBe('pass');
    // The same results page with the query moved away from the field's place (a suggestion row, say) proves nothing.
    const moved = screen(setAttribute(screenXml(step.afterFile), 'resource-id="com.google.android.youtube:id/search_query"', 'bounds', '[147,900][596,984]'));
    expect((await verify(id, { ...typed, after: moved })).outcome).toBe('inconclusive');
    expect((await verify(id, { ...typed, after: 'before' })).outcome).toBe('fail');
  });
});
