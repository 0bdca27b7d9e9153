import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { traceText } from '../trace/read-trace.js';
import { compressedTraceFileName, traceFileName } from '../trace/trace-writer.js';

/** How many of the latest runs the resource list names. */
export const listedRuns = 20;

/** The files of a run folder the list names, those it holds (the rest are read by their URI: steps/001/after.xml). */
const listedFiles = [traceFileName, compressedTraceFileName, 'result.json'];
const traceFiles: ReadonlySet<string> = new Set([traceFileName, compressedTraceFileName]);

/** Run folders under `root` (folders holding a trace.jsonl or trace.jsonl.gz), newest first, at most `limit`. */
export function latestRuns(root: string, limit = listedRuns): { dir: string; modified: number }[] {
  const found: { dir: string; modified: number }[] = [];
  const walk = (dir: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // no runs folder yet: nothing to list
    }
    const trace = entries.find((entry) => entry.isFile() && traceFiles.has(entry.name));
    if (trace !== undefined) {
      found.push({ dir, modified: statSync(path.join(dir, trace.name)).mtimeMs });
      return;
    }
    if (depth >= 5) return;
    for (const entry of entries) if (entry.isDirectory() && entry.name !== 'steps') walk(path.join(dir, entry.name), depth + 1);
  };
  walk(root, 0);
  return found.sort((a, b) => b.modified - a.modified).slice(0, limit);
}

/** The file a `senseact://runs/<path>` URI names under `root`, or undefined when it leaves the folder. */
export function runFile(root: string, relative: string): string | undefined {
  const resolved = path.resolve(root, decodeURIComponent(relative));
  const inside = path.relative(path.resolve(root), resolved);
  if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) return undefined;
  return resolved;
}

/**
 * Registers the runs' reports and traces as read-only resources: `senseact://runs/<suite>/<task>/<run-id>/trace.jsonl`
 * and `result.json` of the {@link listedRuns} latest runs are listed; any file of a run
 * folder is read by its URI (PNG as a blob; `trace.jsonl.gz` as its text). Nothing is written.
 */
export function registerRunResources(server: McpServer, root: string): void {
  const template = new ResourceTemplate('senseact://runs/{+path}', {
    list: () => ({
      resources: latestRuns(root).flatMap((run) => listedFiles.filter((file) => {
        try {
          return statSync(path.join(run.dir, file)).isFile();
        } catch {
          return false; // result.json is written at the end of a run: not there yet
        }
      }).map((file) => {
        const relative = path.relative(root, path.join(run.dir, file)).split(path.sep).join('/');
        return { uri: `senseact://runs/${relative}`, name: relative, mimeType: file.endsWith('.json') ? 'application/json' : 'application/x-ndjson' };
      })),
    }),
  });
  server.registerResource('runs', template, { title: 'SenseAct runs', description: 'Reports and traces of the latest runs (read-only): trace.jsonl, result.json, steps/<n>/*.' }, (uri, variables) => {
    const relative = String(variables['path'] ?? '');
    const file = runFile(root, relative);
    if (!file) throw new Error(`senseact://runs/${relative} is outside the runs folder; use a URI from resources/list`);
    const bytes = readFileSync(file);
    // A compact trace cut short (a run killed while it wrote) reads as far as it goes, as `senseact debug` reads it.
    if (file.endsWith('.gz')) return { contents: [{ uri: uri.href, mimeType: 'application/x-ndjson', text: traceText(bytes, file) }] };
    if (file.endsWith('.png')) return { contents: [{ uri: uri.href, mimeType: 'image/png', blob: bytes.toString('base64') }] };
    return { contents: [{ uri: uri.href, mimeType: file.endsWith('.json') ? 'application/json' : 'text/plain', text: bytes.toString('utf8') }] };
  });
}
