/**
 * An Android component name as the device reports it (`com.app/.MainActivity`, DroidBot's
 * `foreground_activity` and `activity_stack`) split into its package and its activity. Without
 * a package before a slash, the package is '' and the whole name is the activity.
 */
export function splitComponentName(name: string): { readonly packageName: string; readonly activity: string } {
  const slash = name.indexOf('/');
  return slash > 0 ? { packageName: name.slice(0, slash), activity: name.slice(slash + 1) } : { packageName: '', activity: name };
}
