import { z } from 'zod';
import { defineActivity, type SimApp } from '../sim-app.js';
import { frame, group, label, row, view, type Widget } from '../widget.js';

/** Package of the home screen. */
export const launcherPackage = 'com.google.android.apps.nexuslauncher';

/** The launcher keeps no data of its own. */
export const launcherStateSchema = z.object({});
export type LauncherState = z.infer<typeof launcherStateSchema>;

const id = (name: string): string => `${launcherPackage}:id/${name}`;

const dateFormat = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * The Pixel launcher home screen: an "At a glance" date, a grid of installed app icons
 * (TextView with the label as text and content-desc, clickable and long-clickable), a
 * hotseat and a Google search bar. Tapping an icon starts the app.
 */
export const launcherApp: SimApp<LauncherState> = {
  packageName: launcherPackage,
  label: 'Pixel Launcher',
  icon: 'home',
  launchActivity: 'com.google.android.apps.nexuslauncher.NexusLauncherActivity',
  stateSchema: launcherStateSchema,
  defaultState: () => ({}),
  activities: [
    defineActivity<LauncherState, Record<string, never>>({
      name: 'com.google.android.apps.nexuslauncher.NexusLauncherActivity',
      create: () => ({}),
      render: (context) => {
        const apps = context.installedApps();
        const icon = (app: { packageName: string; label: string; icon: string }): Widget =>
          label(app.label, {
            desc: app.label,
            icon: app.icon,
            width: 'fill',
            height: 96,
            fontSize: 12,
            onTap: () => context.launch(app.packageName),
            onLongPress: () => context.toast(`${app.label}: app info`),
            flags: { clickable: true, focusable: true, longClickable: true },
          });
        const cells: Widget[] = apps.map(icon);
        while (cells.length % 4 !== 0) cells.push(view('android.view.View', { width: 'fill' }));
        const gridRows: Widget[] = [];
        for (let i = 0; i < cells.length; i += 4) gridRows.push(row({ cls: 'android.view.ViewGroup', gap: 8 }, cells.slice(i, i + 4)));
        return {
          root: frame({ id: id('launcher') }, [
            frame({ id: id('drag_layer'), justify: 'end' }, [
              view('android.view.View', { id: id('scrim_view') }),
              view('android.widget.ScrollView', { id: id('workspace'), layout: 'column', padding: [16, 8, 16, 180], flags: { scrollable: true } }, [
                group({ gap: 16, height: 'fill' }, [
                  frame({ id: id('search_container_workspace'), height: 104 }, [
                    view('androidx.viewpager.widget.ViewPager', { id: id('smartspace_card_pager'), desc: 'At a glance', layout: 'column', padding: [8, 36, 8, 8], flags: { focusable: true, longClickable: true } }, [
                      label(dateFormat.format(context.clock), { id: id('date'), desc: dateFormat.format(context.clock), fontSize: 22, onTap: () => context.toast('At a glance') }),
                    ]),
                  ]),
                  view('android.view.View', { height: 'fill' }),
                  group({ gap: 8 }, gridRows),
                ]),
              ]),
              view('android.view.ViewGroup', { id: id('hotseat'), layout: 'column', height: 90, padding: [24, 8, 24, 8], justify: 'end' }, [
                view('android.widget.FrameLayout', {
                  id: id('search_container_hotseat'),
                  desc: 'Google search',
                  height: 56,
                  look: 'card',
                  layout: 'row',
                  icon: 'search',
                  onTap: () => context.toast('Google app is not installed'),
                  flags: { clickable: true, focusable: true },
                }),
              ]),
            ]),
          ]),
        };
      },
    }),
  ],
};
