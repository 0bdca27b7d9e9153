import { lstatSync, readdirSync } from 'node:fs';
import * as path from 'node:path';

/** Bytes of the regular files under a folder (links are not followed); 0 when it does not exist. */
export function folderBytes(folder: string): number {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) total += folderBytes(full);
    else if (entry.isFile()) total += lstatSync(full).size;
  }
  return total;
}

/** Bytes as a person reads them: `225.4 MB`, `812 KB`, `96 B` (decimal units). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${Math.round(bytes / 1e3)} KB`;
  return `${bytes} B`;
}

/**
 * One line saying what a bench output folder takes on disk, and in what: the traces, the
 * report pages and the rest (results, memory). E.g. `disk: 225.4 MB in runs/x (traces
 * 189.0 MB, report 33.1 MB, other 3.3 MB)`.
 */
export function describeBenchDisk(outDir: string): string {
  const total = folderBytes(outDir);
  const traces = folderBytes(path.join(outDir, 'traces'));
  const report = folderBytes(path.join(outDir, 'report'));
  const other = Math.max(0, total - traces - report);
  return `disk: ${formatBytes(total)} in ${outDir} (traces ${formatBytes(traces)}, report ${formatBytes(report)}, other ${formatBytes(other)})`;
}
