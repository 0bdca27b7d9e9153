/**
 * How to start a worker thread on the module `entry` (a URL of a sibling `.ts` or `.js`
 * file of the caller): from compiled JS the module itself; from TypeScript source (tsx,
 * vitest) a small bootstrap that registers tsx's loader in the thread first, since a
 * thread does not inherit the loader its parent runs under. Pass the result to
 * `new Worker(script, { eval })`.
 */
export function workerScript(entry: URL): { readonly script: URL | string; readonly eval: boolean } {
  if (!entry.pathname.endsWith('.ts')) return { script: entry, eval: false };
  const loader = import.meta.resolve('tsx/esm/api');
  return { script: `import(${JSON.stringify(loader)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`, eval: true };
}

/** The sibling module `name` (without extension) of `from` (an `import.meta.url`), with `from`'s extension. */
export function siblingModule(from: string, name: string): URL {
  return new URL(`./${name}${from.endsWith('.ts') ? '.ts' : '.js'}`, from);
}
