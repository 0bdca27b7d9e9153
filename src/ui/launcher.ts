/** Home-screen apps by package: a tap on one of their icons starts another app. */
const launcherPackage = /launcher|^com\.miui\.home$|^com\.android\.launcher|\.home$/i;

/** True for a home screen (launcher) package. */
export function isLauncherPackage(packageName: string): boolean {
  return launcherPackage.test(packageName);
}
