/**
 * Every kind of evidence a pass can rest on (a verdict's `tie`), with what it means in one
 * line. The names are stable: `senseact verify-replay` counts real passes and false passes
 * per kind, and a reader looks the name up here or in docs/verify-replay.md ("Evidence
 * kinds"), which lists the same names. Whether a kind makes a pass strong or weak is the
 * verdict's own `strength` (a few kinds are strong or weak by a condition: `choice-shown`).
 */
const meanings = {
  // The control's own change.
  'own-text-changed': "the control's own text swapped a state word for its opposite (Open → Close)",
  'own-state-changed': 'the control itself became checked or selected',
  'named-node-selected': "a node named like the control became selected (its tab)",
  'toggle-flipped': 'the switch or check box flipped',
  'checked-as-wanted': 'the switch or check box reads the state the commitment asked for',
  'switch-at-place-flipped': 'on a page that turned, the switch in its place reads otherwise, its label not beside it',
  'picker-section-active': 'a section of a picker (the minutes of a time input) in its place became the active one',
  'already-chosen': 'it was already chosen and still is (a tap that settles, not a change)',
  // Where it led: the new page or surface names it.
  'title-names-label': "the new page's title is the control's label",
  'heading-names-label': "new text at the top of the screen names the control's label",
  'heading-ends-label': 'new text at the top of the screen is how the label ends ("Have an account? Sign in" → "Sign in")',
  'surface-names-label': 'a dialog, menu or sheet opened whose title or message names the control',
  'surface-at-control': 'a menu opened that drops from the control',
  'choices-show-its-value': 'a list of choices opened with the value the row showed chosen',
  'display-reads-label': "a display now reads the control's label (a clock's hour, a chosen date)",
  'summary-names-label': 'a heading or summary now names the choice',
  'activity-names-label': "it opened an activity named like the control's label",
  'activity-names-id': "it opened an activity named like the control's resource id",
  'app-names-label': 'it opened the app the label names',
  'app-role-named': 'it opened the kind of app its words ask for (a browser for "Learn more")',
  'permission-names-resource': 'it raised the permission prompt for what its words use ("Import" → files)',
  'add-opened-editor': 'an "Add" or "New" control opened an editor with the focus in an empty field',
  // Fields.
  'field-holds-value': 'the field holds the typed value',
  'field-holds-digits': 'the field holds the typed digits, formatted (a phone number)',
  'field-focused': 'the field took the focus',
  'named-field-focused': 'a field named like the control took the focus ("Search" → "Search tasks")',
  'tapped-text-field-focused': 'its text turned into a field with the focus, holding the same text (an address bar)',
  'page-field-focused': "a new page opened with the focus in a field named like the tapped box",
  'some-field-focused': 'a new page opened with the focus in a field not named like the tapped box',
  'picker-opened': "the field's picker opened, at the field or naming it",
  'surface-opened': 'a surface opened, neither at the field nor naming it',
  'submitted-value-shown': 'the typing was submitted and the screen shows the typed value',
  'value-in-field-place': 'the field left the screen and what is in its place shows the typed value',
  'slider-reads-value': 'the slider reads the value asked for',
  // Choices.
  'option-chosen': 'the option is now checked or selected',
  'option-still-chosen': 'the option is still chosen',
  'choice-shown': 'its list closed and the screen shows the choice (weak when another of its choices shows too)',
  'choice-list-closed': 'its list of choices closed, but the choice is not shown',
  'spinner-shows-value': 'the drop-down shows the value asked for',
  'list-opened': 'its list of choices opened',
  // Scrolls.
  'content-moved': "the container's items moved the way the scroll goes",
  'content-replaced': "the container's content changed, but no item stayed to show which way",
  // Commits and dialogs.
  'left-edit-mode': 'on an editor, the commit is gone and the page kept (Done on a note)',
  'commit-gone': 'the commit is gone and the page stayed, as a cancel would leave it',
  'dismissed-to-covered-page': 'its dialog closed back to the page it covered, as a cancel would',
  'dismissed-page-not-in-dump': 'its dialog, dumped without the page under it, closed: nothing shows where it led',
  'dialog-value-shown': "the page the dialog was opened from now shows the value the dialog's field held",
  'opened-from-changed': 'the page the dialog was opened from is back, changed on the same tab',
  'came-from-changed': "an editor's commit led back to the page the run came from, changed on the same tab",
  'editor-finished': "an editor's commit finished the activity on top (the device's activity stack)",
  'confirmation-names-label': 'the switch asked for confirmation in a dialog naming it',
  'confirmation-opened': 'the switch asked for confirmation in a dialog not naming it',
  'permission-prompt': 'it raised a permission prompt that its words do not explain',
  'new-surface': 'a new surface opened; the surface rules take it from there',
  'surface-dismissed': 'a surface was dismissed',
  'new-page': 'it moved to a new page',
  // Back, Home and the run's trail.
  'went-back': 'Back returned to the page the run came from',
  'activity-finished': "Back finished the activity on top, by the device's activity stack",
  'left-for-home': "Back on an app's last page (no page under it on the trail) left for the home screen",
  'home-screen': 'Home left the app for the home screen',
  'control-went-back': 'a control named to leave (Cancel, Close, up) returned to the page the run came from',
  // The replay's memory of verified steps.
  'known-transition': 'the same control had the same verified effect from a page like this before',
  'known-destination': 'from other pages the control led to this page before, and no other control did',
  // The planner's own words.
  'expectation': 'the effect the commitment declared before it ran holds',
  'page-as-asked': 'the screen is on the package and activity the commitment asked for',
  'finish': 'finish: nothing to check (the task\'s own success check decides)',
  // Nothing tied.
  'screen-changed': 'the screen changed, but nothing ties the change to the control',
} as const satisfies Record<string, string>;

/** The name of a kind of evidence: one of the keys of `tieMeanings`. */
export type TieKind = keyof typeof meanings;

/** What each kind of evidence means, in one line. */
export const tieMeanings: Readonly<Record<TieKind, string>> = meanings;

/** True when `name` is a kind of evidence (a name read back from a report). */
export function isTieKind(name: string): name is TieKind {
  return Object.hasOwn(meanings, name);
}
