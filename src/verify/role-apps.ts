/**
 * Apps that play a role for every other app: the browser a link opens, the file picker
 * an "Import" opens, the store a "Rate this app" opens, the dialer a "Call" opens. Android
 * starts them through intents (a web address, a request for a document, a `market:`
 * address, a `tel:` number), so a control whose words name the role and an app of that
 * role that came up after it are tied, in any app. The words are the intents' own subjects,
 * not any app's labels.
 */

/** A role: the packages that play it and the words of a control that asks for it. */
interface Role {
  readonly name: string;
  readonly packages: RegExp;
  /** Whole words (Latin script) of a control's label or id that ask for the role. */
  readonly words: readonly string[];
  /** Words in scripts written without spaces, matched anywhere in the label. */
  readonly denseWords?: readonly string[];
}

const roles: readonly Role[] = [
  {
    name: 'the browser',
    packages: /^(com\.android\.chrome|com\.chrome\.\w+|org\.mozilla\.\w+|com\.brave\.browser|com\.opera\.\w+|com\.microsoft\.emmx|com\.sec\.android\.app\.sbrowser|com\.duckduckgo\.mobile\.android|com\.kiwibrowser\.browser|com\.vivaldi\.browser|com\.android\.browser|com\.UCMobile\.intl|com\.uc\.browser\.\w+|com\.quark\.browser|com\.heytap\.browser|com\.mi\.globalbrowser)$/,
    words: ['website', 'homepage', 'web', 'www', 'http', 'https', 'url', 'github', 'gitlab', 'blog', 'forum', 'wiki', 'docs', 'documentation', 'faq', 'help', 'support', 'privacy', 'policy', 'terms', 'license', 'licence', 'licenses', 'donate', 'changelog', 'source code', 'learn more', 'read more', 'more info'],
    denseWords: ['帮助', '技术支持', '官网', '网站', '隐私', '协议', '条款'],
  },
  {
    name: 'the file picker',
    packages: /documentsui$|\.photopicker$/,
    words: ['import', 'export', 'upload', 'attach', 'attachment', 'browse', 'restore', 'backup', 'file', 'files', 'folder', 'folders', 'directory', 'document', 'documents', 'pdf', 'gallery', 'image', 'images', 'photo', 'photos', 'picture', 'pictures'],
    denseWords: ['导入', '导出', '文件', '图片', '相册'],
  },
  {
    name: 'the app store',
    packages: /^com\.android\.vending$/,
    words: ['rate', 'rating', 'review', 'update', 'upgrade', 'install', 'premium', 'play store', 'google play', 'more apps'],
    denseWords: ['评分', '更新', '升级'],
  },
  {
    name: 'the dialer',
    packages: /dialer$|incallui$|^com\.android\.server\.telecom$/,
    words: ['call', 'dial', 'phone'],
    denseWords: ['拨打', '电话'],
  },
  {
    name: 'the camera',
    packages: /camera/i,
    words: ['camera', 'photo', 'picture', 'scan', 'qr', 'video', 'record', 'selfie'],
    denseWords: ['拍照', '相机', '扫一扫', '扫码'],
  },
  {
    name: 'the mail app',
    packages: /^com\.google\.android\.gm$|email|\.mail$/i,
    words: ['email', 'mail', 'contact us', 'feedback'],
    denseWords: ['邮件', '反馈'],
  },
];

/** `text` in lower case with an id's words apart: `addToDoItemFAB` → "add to do item fab", `report_issue_btn` → "report issue btn". */
export function spacedWords(text: string): string {
  return text.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-]+/g, ' ').toLowerCase();
}

/** The words of a control (its labels, its id split into words) as one lower-case line, spaced at both ends. */
function wordLine(texts: readonly string[]): string {
  return ` ${spacedWords(texts.join(' | ')).normalize('NFKC').replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
}

/** A label that is a web address ("https://github.com/…", "example.org"). */
const webAddress = /:\/\/|(^|\s)[\w-]+(\.[\w-]+)*\.(com|org|net|io|dev|app)(\/|\s|$)/;

/**
 * The role of `packageName`, when `texts` (a control's labels and id) ask for it, as words
 * ("Privacy policy" opening the browser, "Import" opening the file picker); undefined
 * otherwise.
 */
export function roleNamedBy(packageName: string, texts: readonly string[]): string | undefined {
  const role = roles.find((candidate) => candidate.packages.test(packageName));
  if (!role) return undefined;
  const line = wordLine(texts);
  const named = role.words.some((word) => line.includes(` ${word} `)) || (role.denseWords ?? []).some((word) => line.includes(word));
  if (named) return role.name;
  return role.name === 'the browser' && texts.some((text) => webAddress.test(text.toLowerCase())) ? role.name : undefined;
}

/**
 * What a runtime permission prompt asks for, as its message says it ("Allow Calendar to
 * access your contacts?"), and the words of a control whose action needs it: Android asks
 * for a permission group when an action first needs it, so "Import" raises the one for
 * files, "Scan the QR code" the camera's.
 */
const resources: readonly { readonly name: string; readonly prompt: RegExp; readonly words: readonly string[] }[] = [
  { name: 'contacts', prompt: /\bcontacts\b/i, words: ['contact', 'contacts', 'invite', 'friends'] },
  { name: 'files and media', prompt: /\b(photos|media|files|storage|music|videos)\b/i, words: ['file', 'files', 'folder', 'import', 'export', 'save', 'download', 'backup', 'restore', 'photo', 'photos', 'image', 'images', 'picture', 'pictures', 'gallery', 'media', 'pdf', 'document', 'documents', 'attach', 'upload'] },
  { name: 'the camera', prompt: /\b(take pictures|record video|camera)\b/i, words: ['camera', 'scan', 'qr', 'barcode', 'photo', 'picture', 'video', 'selfie'] },
  { name: 'location', prompt: /\blocation\b/i, words: ['location', 'map', 'maps', 'nearby', 'gps'] },
  { name: 'the microphone', prompt: /\b(record audio|microphone)\b/i, words: ['record', 'microphone', 'mic', 'voice', 'audio'] },
  { name: 'the calendar', prompt: /\bcalendar\b/i, words: ['calendar', 'event', 'events'] },
  { name: 'phone calls', prompt: /\bphone calls\b/i, words: ['call', 'phone', 'dial'] },
  { name: 'SMS', prompt: /\b(sms|text messages)\b/i, words: ['sms', 'message', 'messages'] },
  { name: 'notifications', prompt: /\bnotifications\b/i, words: ['notification', 'notifications', 'notify', 'reminder', 'reminders', 'alert', 'alerts'] },
];

/** The resource a permission prompt's message (`prompt`) asks for, when `texts` (a control's labels and id) use its words; undefined otherwise. */
export function resourceNamedBy(prompt: string, texts: readonly string[]): string | undefined {
  const line = wordLine(texts);
  return resources.find((resource) => resource.prompt.test(prompt) && resource.words.some((word) => line.includes(` ${word} `)))?.name;
}
