// The foreground task's activity stack read from `dumpsys activity activities`. The texts
// below are written for these tests in the layouts Android prints (Android 10 and later:
// `* Task{…}`; Android 7 to 9: `Task id #`, `* TaskRecord{…}` and a "Running activities"
// list that names the same activities with `Run #`), not copied from a device.
import { describe, expect, it } from 'vitest';
import { parseActivityStack } from '../../../src/ui/parse-activity-stack.js';

const android13 = `ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)
Display #0 (activities from top to bottom):
  * Task{8c1f2e3 #24 type=standard A=10151:com.example.notes U=0 visible=true visibleRequested=true mode=fullscreen translucent=false sz=3}
    mLastPausedActivity: ActivityRecord{2d81f01 u0 com.example.notes/.ListActivity t24}
    * Hist #2: ActivityRecord{77a0c9d u0 com.example.notes/.EditActivity t24}
      packageName=com.example.notes processName=com.example.notes
    * Hist #1: ActivityRecord{2d81f01 u0 com.example.notes/.ListActivity t24}
    * Hist #0: ActivityRecord{f3b2a10 u0 com.example.notes/com.example.common.LauncherAlias t24}
  * Task{1a2b3c4 #1 type=home ?? U=0 visible=false visibleRequested=false mode=fullscreen translucent=false sz=1}
    * Hist #0: ActivityRecord{5e6f7a8 u0 com.google.android.apps.nexuslauncher/.NexusLauncherActivity t1}

  Resumed activities in task display areas (from top to bottom):
    Resumed: ActivityRecord{77a0c9d u0 com.example.notes/.EditActivity t24}
`;

const android9 = `ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)
Display #0 (activities from top to bottom):

  Stack #3: type=standard mode=fullscreen
  isSleeping=false
    Task id #41
    * TaskRecord{3f0e1a2 #41 A=com.example.clock U=0 StackId=3 sz=2}
      * Hist #1: ActivityRecord{9a8b7c6 u0 com.example.clock/.AlarmEditor t41}
      * Hist #0: ActivityRecord{1c2d3e4 u0 com.example.clock/.DeskClock t41}

    Running activities (most recent first):
      TaskRecord{3f0e1a2 #41 A=com.example.clock U=0 StackId=3 sz=2}
        Run #1: ActivityRecord{9a8b7c6 u0 com.example.clock/.AlarmEditor t41}
        Run #0: ActivityRecord{1c2d3e4 u0 com.example.clock/.DeskClock t41}

  Stack #0: type=home mode=fullscreen
    Task id #2
    * TaskRecord{7d6c5b4 #2 I=com.android.launcher3/.Launcher U=0 StackId=0 sz=1}
      * Hist #0: ActivityRecord{0f1e2d3 u0 com.android.launcher3/.Launcher t2}
`;

describe('parseActivityStack', () => {
  it('reads the task on top, its activities top first, as component names', () => {
    expect(parseActivityStack(android13)).toEqual(['com.example.notes/.EditActivity', 'com.example.notes/.ListActivity', 'com.example.notes/com.example.common.LauncherAlias']);
  });

  it('reads the older layout, where the running activities are listed again', () => {
    expect(parseActivityStack(android9)).toEqual(['com.example.clock/.AlarmEditor', 'com.example.clock/.DeskClock']);
  });

  it('keeps to the top task: a task listed below it is not under its activities', () => {
    const homeOnTop = android13.replace(/ {2}\* Task\{8c1f2e3[\s\S]*?(?= {2}\* Task\{1a2b3c4)/, '');
    expect(parseActivityStack(homeOnTop)).toEqual(['com.google.android.apps.nexuslauncher/.NexusLauncherActivity']);
  });

  it('reads the spacing of recent versions and a line without its star', () => {
    expect(parseActivityStack('      * Hist  #0: ActivityRecord{2b2ce0f u0 com.example/.MainActivity t61}\n')).toEqual(['com.example/.MainActivity']);
    expect(parseActivityStack('        Hist #1: ActivityRecord{1e44eb8 u0 com.example/.view.Detail t653}\n        Hist #0: ActivityRecord{1e44eb9 u0 com.example/.MainActivity t653}\n'))
      .toEqual(['com.example/.view.Detail', 'com.example/.MainActivity']);
    // A word that only ends in "Hist" is no history line.
    expect(parseActivityStack('  mHist #0: ActivityRecord{2b2ce0f u0 com.example/.MainActivity t61}')).toEqual([]);
  });

  it('reads a record with more after its task number', () => {
    expect(parseActivityStack('* Hist #0: ActivityRecord{77a0c9d u0 com.example.notes/.EditActivity t24 f}}')).toEqual(['com.example.notes/.EditActivity']);
  });

  it('gives no stack for a text that lists no activity', () => {
    expect(parseActivityStack('')).toEqual([]);
    expect(parseActivityStack("/system/bin/sh: dumpsys: inaccessible or not found\n")).toEqual([]);
    expect(parseActivityStack('Permission Denial: can\'t dump ActivityManager from pid=123')).toEqual([]);
  });
});
