// The page title is read from the app bar, known by its class or resource-id in any case and
// spelling (`Toolbar`, `action_bar`, `actionbar`, `AppBar`): the same test `dismissalControl`
// uses to find the up button at the bar's start. Without a bar, the first text near the top.
import { describe, expect, it } from 'vitest';
import { pageTitle } from '../../../src/verify/page-title.js';
import { hierarchy, node, screen } from './screens.js';

const app = 'com.example.notes';

/** A page whose bar (class `barClass`, id `barId`) holds the title "Shopping", under a first row "Milk" near the top. */
function page(barClass: string, barId: string) {
  return screen(hierarchy(node({ class: 'android.widget.FrameLayout', package: app, bounds: '[0,0][1080,2400]' },
    node({ text: 'Offline', package: app, bounds: '[40,0][400,50]' })
    + node({ class: barClass, 'resource-id': barId, package: app, bounds: '[0,60][1080,220]' },
      node({ class: 'android.widget.TextView', text: 'Shopping', package: app, bounds: '[170,100][800,180]' }))
    + node({ text: 'Milk', clickable: true, package: app, bounds: '[0,300][1080,480]' }))), { packageName: app, activity: '.NoteActivity' });
}

describe('pageTitle', () => {
  it.each([
    ['android.view.ViewGroup', `${app}:id/toolbar`],
    ['androidx.appcompat.widget.Toolbar', ''],
    ['android.view.ViewGroup', `${app}:id/main_actionbar`],
    ['android.view.ViewGroup', `${app}:id/TopAppBar`],
    ['android.widget.LinearLayout', 'android:id/action_bar'],
  ])('reads the title inside a bar (%s, id "%s")', (barClass, barId) => {
    expect(pageTitle(page(barClass, barId))).toBe('Shopping');
  });

  it('without a bar, takes the first text near the top of the window', () => {
    expect(pageTitle(page('android.widget.LinearLayout', `${app}:id/header`))).toBe('Offline');
  });
});
