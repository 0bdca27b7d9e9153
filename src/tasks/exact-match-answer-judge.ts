import type { AnswerJudge, AnswerJudgeRequest, AnswerJudgement } from './answer-judge.js';

const numberWords: Record<string, string> = {
  zero: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10',
  eleven: '11', twelve: '12', thirteen: '13', fourteen: '14', fifteen: '15', sixteen: '16', seventeen: '17', eighteen: '18', nineteen: '19', twenty: '20',
  none: '0', no: 'no',
};

function toTwentyFour(hourText: string, minuteText: string | undefined, meridiem: string | undefined): string {
  let hour = Number(hourText);
  const minute = minuteText === undefined ? 0 : Number(minuteText);
  if (meridiem !== undefined) {
    const pm = meridiem.startsWith('p');
    if (hour === 12) hour = pm ? 12 : 0;
    else if (pm) hour += 12;
  }
  return `${String(hour).padStart(2, '0')}h${String(minute).padStart(2, '0')}`;
}

/**
 * Normalises an answer for comparison: lower case; times (`3PM`, `3:00 pm`, `15:00`)
 * to 24-hour `hhHmm` tokens (`15h00`); thousands separators dropped (`18,250` → `18250`); numbers in
 * canonical form (`3.50` → `3.5`); number words up to twenty to digits; punctuation to
 * spaces; whitespace collapsed. Returns the tokens.
 */
export function normalizeAnswer(text: string): string[] {
  let value = text.toLocaleLowerCase().normalize('NFKC');
  value = value.replace(/\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s*m\b\.?/g, (_match, hour: string, minute: string | undefined, meridiem: string) => ` ${toTwentyFour(hour, minute, meridiem)} `);
  value = value.replace(/\b(\d{1,2}):(\d{2})\b/g, (_match, hour: string, minute: string) => ` ${toTwentyFour(hour, minute, undefined)} `);
  value = value.replace(/(\d),(?=\d{3}\b)/g, '$1');
  value = value.replace(/(?<![\p{L}\p{N}])\d+(?:\.\d+)?(?![\p{L}\p{N}])/gu, (number) => String(Number(number)));
  value = value.replace(/[^\p{L}\p{N}.]+/gu, ' ').replace(/(?<!\d)\.|\.(?!\d)/g, ' ');
  return value
    .split(/\s+/)
    .filter(Boolean)
    .map((token) => numberWords[token] ?? token);
}

const negations = new Set(['not', 'no', 'never', 'none', 'isn', 'aren', 'doesn', 'don', 'hasn', 'haven', 'wasn', 'off']);

/** Negation words in the answer that the accepted answer lacks: containment would flip the meaning. */
function addsNegation(answer: readonly string[], expected: readonly string[]): boolean {
  return answer.some((token) => negations.has(token) && !expected.includes(token));
}

/** A number written with separators, as phone numbers are: `(555) 010-2000`, `+1 650-555-6789`. */
function isPhoneLike(text: string): boolean {
  return /^[\d\s()+\-.]+$/.test(text.trim()) && text.replace(/\D/g, '').length >= 5;
}

/** The digit runs of phone-like stretches of an answer, separators removed. */
function phoneDigitsIn(text: string): string[] {
  return (text.match(/[\d(+][\d\s()+\-.]{3,}\d/g) ?? []).map((run) => run.replace(/\D/g, ''));
}

function containsSequence(haystack: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0) return false;
  for (let start = 0; start + needle.length <= haystack.length; start++) {
    if (needle.every((token, offset) => haystack[start + offset] === token)) return true;
  }
  return false;
}

/**
 * The offline answer judge: correct when the normalised answer equals an accepted
 * answer, or contains one as a whole-token sequence ("Yes, it is on" contains "yes")
 * without adding a negation ("it is not open" does not match "open"), or, for a
 * phone-like accepted answer, contains the same digits ("5550102000" for "(555) 010-2000").
 * Cannot judge paraphrases; that is what the model judge is for.
 */
export class ExactMatchAnswerJudge implements AnswerJudge {
  readonly name = 'exact';

  judge(request: AnswerJudgeRequest): Promise<AnswerJudgement> {
    return Promise.resolve(this.judgeSync(request));
  }

  /** The same verdict, synchronously. */
  judgeSync(request: Pick<AnswerJudgeRequest, 'expected' | 'answer'>): AnswerJudgement {
    const answer = normalizeAnswer(request.answer);
    if (answer.length === 0) return { correct: false, judge: this.name, reason: 'the answer is empty after normalisation' };
    for (const expected of request.expected) {
      if (isPhoneLike(expected) && phoneDigitsIn(request.answer).includes(expected.replace(/\D/g, ''))) {
        return { correct: true, judge: this.name, reason: `has the digits of "${expected}"` };
      }
      const tokens = normalizeAnswer(expected);
      if (tokens.join(' ') === answer.join(' ')) return { correct: true, judge: this.name, reason: `equals "${expected}" after normalisation` };
      if (containsSequence(answer, tokens) && !addsNegation(answer, tokens)) return { correct: true, judge: this.name, reason: `contains "${expected}" after normalisation` };
    }
    return { correct: false, judge: this.name, reason: `"${request.answer}" matches none of ${JSON.stringify(request.expected)} after normalisation` };
  }
}
