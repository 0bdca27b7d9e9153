import { describe, expect, it } from 'vitest';
import { terminalSafe } from '../../../src/report/format-trace-step.js';

describe('terminalSafe', () => {
  it('shows escape sequences and other control characters as \\xNN, keeps newlines and tabs', () => {
    expect(terminalSafe('a\u001b[2Jb\u0007\n\tc\u009bd')).toBe('a\\x1b[2Jb\\x07\n\tc\\x9bd');
  });
});
