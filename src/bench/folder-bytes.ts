import { lstatSync, readdirSync } from 'node:fs';
import * as path from 'node:path';

/** Bytes of the regular files under a folder (links are not followed); 0 when it does not exist. */
export function folderBytes(folder: string): number {
  return folderUsage(folder).bytes;
}

/** Bytes and number of the regular files under a folder (links are not followed); zeros when it does not exist. */
export function folderUsage(folder: string): { bytes: number; files: number } {
  const usage = { bytes: 0, files: 0 };
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return usage;
  }
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      const inner = folderUsage(full);
      usage.bytes += inner.bytes;
      usage.files += inner.files;
    } else if (entry.isFile()) {
      usage.bytes += lstatSync(full).size;
      usage.files += 1;
    }
  }
  return usage;
}

/** Bytes as a person reads them: `225.4 MB`, `812 KB`, `96 B` (decimal units). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${Math.round(bytes / 1e3)} KB`;
  return `${bytes} B`;
}

/**
 * One line saying what a bench output folder takes on disk, in how many files, and in
 * what: the traces (with a compact trace's store), the report pages and the rest
 * (results, memory). E.g. `disk: 12.4 MB in 1046 files (traces 7.0 MB, report 3.1 MB,
 * other 2.3 MB)`. The folder is not in it (the `results:` line above names it): a deep
 * working folder made the line wider than 120 columns.
 */
export function describeBenchDisk(outDir: string): string {
  const total = folderUsage(outDir);
  const traces = folderBytes(path.join(outDir, 'traces'));
  const report = folderBytes(path.join(outDir, 'report'));
  const other = Math.max(0, total.bytes - traces - report);
  return `disk: ${formatBytes(total.bytes)} in ${total.files} files (traces ${formatBytes(traces)}, report ${formatBytes(report)}, other ${formatBytes(other)})`;
}
