import * as path from 'node:path';
import type { Command } from 'commander';
import { CassetteReadError } from '../../model/cassette-read-error.js';
import { readCassette, type CassetteEntry } from '../../model/cassette.js';
import { exitCodes, type CliIo } from '../cli-io.js';
import type { CommandRegistration } from '../command-registration.js';

interface CassetteOptions {
  json?: boolean;
  hash?: string;
}

/**
 * `senseact cassette <file> [--hash <prefix>] [--json]`: lists the calls of a recorded
 * cassette (index, hash, occurrence, role, model, tokens, images, the last user text),
 * with totals per role and model; `--hash` shows the full request and reply of matching
 * calls (to compare with the request a `CassetteMissError` names). Exit 2 when the file
 * is missing or malformed.
 */
export const cassetteCommand: CommandRegistration = (program: Command, io: CliIo, setExitCode) => {
  program
    .command('cassette')
    .description('List the model calls recorded in a cassette (JSONL), or show the calls whose hash starts with --hash.')
    .argument('<file>', 'cassette file written by a recording model')
    .option('--hash <prefix>', 'show the full request and reply of the calls whose hash starts with this')
    .option('--json', 'print JSON')
    .action((file: string, options: CassetteOptions) => {
      let entries: CassetteEntry[];
      try {
        entries = readCassette(path.resolve(io.cwd, file));
      } catch (error) {
        if (!CassetteReadError.isInstance(error)) throw error;
        io.stderr(`senseact cassette: ${error.message}\n`);
        setExitCode(exitCodes.badInput);
        return;
      }
      if (options.hash !== undefined) {
        const prefix = options.hash.toLowerCase();
        const matching = entries.filter((entry) => entry.hash.startsWith(prefix));
        if (matching.length === 0) {
          io.stderr(`senseact cassette: no call in ${file} has a hash starting with ${JSON.stringify(options.hash)}; run without --hash to list them.\n`);
          setExitCode(exitCodes.failure);
          return;
        }
        io.stdout(options.json === true ? `${JSON.stringify(matching, null, 2)}\n` : matching.map(renderEntry).join('\n'));
        return;
      }
      const totals = summarize(entries);
      if (options.json === true) {
        io.stdout(`${JSON.stringify({ calls: entries.length, totals, entries: entries.map((entry, index) => listing(entry, index)) }, null, 2)}\n`);
        return;
      }
      const lines = entries.map((entry, index) => {
        const item = listing(entry, index);
        return `${String(index).padStart(4)}  ${entry.hash.slice(0, 12)}#${entry.occurrence}  ${entry.role.padEnd(9)} ${entry.model.padEnd(20)} ${String(item.promptTokens).padStart(6)}+${String(item.completionTokens).padEnd(5)} ${item.images > 0 ? `${item.images} img ` : ''}${JSON.stringify(item.lastUserText)}`;
      });
      lines.push('', `${entries.length} call(s)`);
      for (const [key, total] of Object.entries(totals)) lines.push(`  ${key}: ${total.calls} call(s), ${total.promptTokens}+${total.completionTokens} tokens, ${total.images} image(s)`);
      io.stdout(`${lines.join('\n')}\n`);
    });
};

function listing(entry: CassetteEntry, index: number) {
  const lastUser = [...entry.request.messages].reverse().find((message) => message.role === 'user');
  const text = (lastUser?.content ?? '').replace(/\s+/g, ' ').trim();
  return {
    index,
    hash: entry.hash,
    occurrence: entry.occurrence,
    role: entry.role,
    model: entry.model,
    promptTokens: entry.reply.usage.promptTokens,
    completionTokens: entry.reply.usage.completionTokens,
    images: entry.request.messages.reduce((count, message) => count + (message.images?.length ?? 0), 0),
    lastUserText: text.length > 60 ? `${text.slice(0, 60)}…` : text,
  };
}

function summarize(entries: readonly CassetteEntry[]): Record<string, { calls: number; promptTokens: number; completionTokens: number; images: number }> {
  const totals: Record<string, { calls: number; promptTokens: number; completionTokens: number; images: number }> = {};
  for (const [index, entry] of entries.entries()) {
    const key = `${entry.role} ${entry.model}`;
    const item = listing(entry, index);
    const total = totals[key] ?? { calls: 0, promptTokens: 0, completionTokens: 0, images: 0 };
    totals[key] = { calls: total.calls + 1, promptTokens: total.promptTokens + item.promptTokens, completionTokens: total.completionTokens + item.completionTokens, images: total.images + item.images };
  }
  return totals;
}

function renderEntry(entry: CassetteEntry): string {
  const lines = [`hash ${entry.hash} occurrence ${entry.occurrence}: role ${entry.role}, model ${entry.model}`];
  for (const message of entry.request.messages) {
    const images = message.images === undefined ? '' : ` [${message.images.map((image) => `image ${image.sha256.slice(0, 12)} ${image.bytes} B`).join(', ')}]`;
    lines.push(`--- ${message.role}${images}`, message.content);
  }
  lines.push(`=== reply (${entry.reply.model}, ${entry.reply.usage.promptTokens}+${entry.reply.usage.completionTokens} tokens, ${Math.round(entry.reply.latencyMs)} ms)`, entry.reply.text, '');
  return lines.join('\n');
}
