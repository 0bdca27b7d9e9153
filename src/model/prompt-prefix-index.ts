import { estimateTokens } from './estimate-tokens.js';
import { commonStart } from './shared-prompt-prefix.js';

/**
 * The prompts an endpoint has seen, kept in sorted order so that the longest start a new
 * prompt shares with any of them takes two comparisons (its neighbours in that order)
 * instead of one per earlier prompt: a bench of thousands of calls stays linear-ish.
 */
export class PromptPrefixIndex {
  private readonly sorted: string[] = [];

  /** How many prompts the index holds. */
  get size(): number {
    return this.sorted.length;
  }

  /** Characters at the start of `text` that the earlier prompt sharing most begins with too (0: none). */
  sharedChars(text: string): number {
    const at = this.insertionPoint(text);
    const before = at > 0 ? commonStart(text, this.sorted[at - 1]!) : 0;
    const after = at < this.sorted.length ? commonStart(text, this.sorted[at]!) : 0;
    return Math.max(before, after);
  }

  /** Tokens (o200k estimate) of that shared start: what a prefix cache keeping every earlier prompt could serve. */
  sharedTokens(text: string): number {
    const chars = this.sharedChars(text);
    return chars === 0 ? 0 : estimateTokens(text.slice(0, chars));
  }

  /** Adds a prompt (after its shared start was asked for). */
  add(text: string): void {
    this.sorted.splice(this.insertionPoint(text), 0, text);
  }

  /** Where `text` goes in the sorted list (binary search by UTF-16 code units, the order `commonStart` reads in). */
  private insertionPoint(text: string): number {
    let low = 0;
    let high = this.sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.sorted[middle]! < text) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
