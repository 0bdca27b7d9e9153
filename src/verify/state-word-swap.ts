/**
 * Words a control says its state with, each beside the word it says after a tap ("Open
 * Menu" becomes "Close Menu", "STOP SERVICE" becomes "START SERVICE", 开启 becomes 关闭).
 * These are the language of toggling controls, not of any one app: a control whose own
 * text changes by such a swap answered the tap; one whose text changed otherwise (a
 * search hint that rotates on a timer, a row re-used for another item) says nothing.
 */
const opposites: ReadonlyArray<readonly [string, string]> = [
  ['open', 'close'],
  ['opened', 'closed'],
  ['start', 'stop'],
  ['start', 'pause'],
  ['play', 'pause'],
  ['resume', 'pause'],
  ['show', 'hide'],
  ['on', 'off'],
  ['enable', 'disable'],
  ['enabled', 'disabled'],
  ['expand', 'collapse'],
  ['grid', 'list'],
  ['connect', 'disconnect'],
  ['connected', 'disconnected'],
  ['more', 'less'],
  ['all', 'none'],
  ['lock', 'unlock'],
  ['locked', 'unlocked'],
  ['mute', 'unmute'],
  ['follow', 'unfollow'],
  ['follow', 'following'],
  ['subscribe', 'unsubscribe'],
  ['subscribe', 'subscribed'],
  ['like', 'unlike'],
  ['like', 'liked'],
  ['pin', 'unpin'],
  ['save', 'saved'],
  ['select', 'deselect'],
  ['add', 'remove'],
  ['开', '关'],
  ['开启', '关闭'],
  ['打开', '关闭'],
  ['启用', '停用'],
  ['启用', '禁用'],
  ['显示', '隐藏'],
  ['展开', '收起'],
  ['播放', '暂停'],
  ['開啟', '關閉'],
  ['開', '關'],
];

const pairs = new Set(opposites.flatMap(([left, right]) => [`${left}|${right}`, `${right}|${left}`]));
const stateWords = new Set(opposites.flat());

/** True when the whole text is one state word ("ON", "off", "開"): what a switch says of its state, not which switch it is. */
export function isStateWord(text: string): boolean {
  return stateWords.has(text.normalize('NFKC').toLowerCase().trim());
}

/** Han, kana and Hangul are written without spaces: compare them by character, other scripts by word. */
export const denseScript = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

function tokens(text: string): string[] {
  const loose = text.normalize('NFKC').toLowerCase().trim();
  return denseScript.test(loose) ? [...loose.replace(/\s+/g, '')] : loose.split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
}

/** The part where two token lists differ, after their common start and common end. */
function differingPart(from: readonly string[], to: readonly string[]): [string[], string[]] {
  let start = 0;
  while (start < from.length && start < to.length && from[start] === to[start]) start += 1;
  let end = 0;
  while (end < from.length - start && end < to.length - start && from[from.length - 1 - end] === to[to.length - 1 - end]) end += 1;
  return [from.slice(start, from.length - end), to.slice(start, to.length - end)];
}

/**
 * True when `to` is `from` with one state word swapped for its opposite, the rest kept
 * ("Grid view" → "List view", "震动已关闭" → "震动已开启"), or one word prefixed by "un"
 * or "dis" or stripped of it ("Mute" → "Unmute").
 */
export function stateWordSwap(from: string, to: string): boolean {
  const [before, after] = differingPart(tokens(from), tokens(to));
  if (before.length === 0 || after.length === 0) return false;
  const [left, right] = [before.join(''), after.join('')];
  if (before.length <= 2 && after.length <= 2 && pairs.has(`${left}|${right}`)) return true;
  if (before.length !== 1 || after.length !== 1) return false;
  return [left, right].some((word, index) => {
    const other = index === 0 ? right : left;
    return other.length >= 3 && (word === `un${other}` || word === `dis${other}`);
  });
}
