/**
 * A tiny 3×5 pixel font for the wireframe screenshots: digits, Latin letters (lowercase
 * drawn as capitals) and common punctuation. Each glyph is five rows of three bits,
 * most significant bit on the left. Unknown characters draw as a small box.
 */
const glyphs: Readonly<Record<string, readonly number[]>> = {
  A: [2, 5, 7, 5, 5], B: [6, 5, 6, 5, 6], C: [3, 4, 4, 4, 3], D: [6, 5, 5, 5, 6], E: [7, 4, 6, 4, 7],
  F: [7, 4, 6, 4, 4], G: [3, 4, 5, 5, 3], H: [5, 5, 7, 5, 5], I: [7, 2, 2, 2, 7], J: [1, 1, 1, 5, 2],
  K: [5, 5, 6, 5, 5], L: [4, 4, 4, 4, 7], M: [5, 7, 7, 5, 5], N: [6, 5, 5, 5, 5], O: [2, 5, 5, 5, 2],
  P: [6, 5, 6, 4, 4], Q: [2, 5, 5, 6, 3], R: [6, 5, 6, 5, 5], S: [3, 4, 2, 1, 6], T: [7, 2, 2, 2, 2],
  U: [5, 5, 5, 5, 7], V: [5, 5, 5, 5, 2], W: [5, 5, 7, 7, 5], X: [5, 5, 2, 5, 5], Y: [5, 5, 2, 2, 2],
  Z: [7, 1, 2, 4, 7],
  '0': [7, 5, 5, 5, 7], '1': [2, 6, 2, 2, 7], '2': [6, 1, 2, 4, 7], '3': [6, 1, 2, 1, 6], '4': [5, 5, 7, 1, 1],
  '5': [7, 4, 6, 1, 6], '6': [3, 4, 7, 5, 7], '7': [7, 1, 2, 2, 2], '8': [7, 5, 7, 5, 7], '9': [7, 5, 7, 1, 6],
  ' ': [0, 0, 0, 0, 0], '.': [0, 0, 0, 0, 2], ',': [0, 0, 0, 2, 4], ':': [0, 2, 0, 2, 0], ';': [0, 2, 0, 2, 4],
  '!': [2, 2, 2, 0, 2], '?': [6, 1, 2, 0, 2], '-': [0, 0, 7, 0, 0], '+': [0, 2, 7, 2, 0], '/': [1, 1, 2, 4, 4],
  '(': [1, 2, 2, 2, 1], ')': [4, 2, 2, 2, 4], "'": [2, 2, 0, 0, 0], '"': [5, 5, 0, 0, 0], '#': [5, 7, 5, 7, 5],
  '%': [5, 1, 2, 4, 5], '&': [2, 5, 2, 5, 3], '@': [7, 5, 7, 4, 7], '_': [0, 0, 0, 0, 7], '=': [0, 7, 0, 7, 0],
  '<': [1, 2, 4, 2, 1], '>': [4, 2, 1, 2, 4], '*': [0, 5, 2, 5, 0], '[': [3, 2, 2, 2, 3], ']': [6, 2, 2, 2, 6],
};
const unknownGlyph = [7, 5, 5, 5, 7];

/** Glyph width in font pixels. */
export const glyphWidth = 3;
/** Glyph height in font pixels. */
export const glyphHeight = 5;
/** Horizontal advance per glyph in font pixels. */
export const glyphAdvance = 4;

/** The five row bitmasks of a character. */
export function glyphRows(ch: string): readonly number[] {
  return glyphs[ch.toUpperCase()] ?? unknownGlyph;
}
