/**
 * The foreground task's activity stack from the text of `dumpsys activity activities`
 * (what `adb shell dumpsys activity activities` prints), top first, as `package/activity`
 * component names, as DroidBot records `activity_stack`.
 *
 * Every Android version since 5 lists each activity of a task on a line
 * `* Hist #<n>: ActivityRecord{<hash> u<user> <package>/<activity> t<task>…}` (recent ones
 * write `Hist  #<n>`, some vendors' builds leave out the `*`), the tasks and their
 * activities from top to bottom; the task heading differs by version (`Task id #12`,
 * `* TaskRecord{… #12 …}`, `* Task{… #12 …}`, tasks nested in others), and the numbers
 * after `Hist` do not say the order on every version, so the task is read from each line's
 * `t<task>` and the order from the lines'. The first such line is the activity on top of
 * the screen; the stack is every activity of its task, in the order listed. Empty when the
 * text lists no activity (an error message, a device that prints nothing): the verifier
 * then has no stack, as on a screen read without one.
 */
export function parseActivityStack(dumpsys: string): string[] {
  const activities: { component: string; task: string }[] = [];
  for (const match of dumpsys.matchAll(historyLine)) activities.push({ component: match[1]!, task: match[2]! });
  const top = activities[0];
  if (top === undefined) return [];
  return activities.filter((activity) => activity.task === top.task).map((activity) => activity.component);
}

/** `* Hist #1: ActivityRecord{5d3f8c1 u0 com.example.notes/.EditActivity t12}` (later versions may add fields after `t12`). */
const historyLine = /\bHist\s*#\d+:\s*ActivityRecord\{\S+\s+u\d+\s+([^\s/{}]+\/[^\s{}]+)\s+t(\d+)\b/g;
