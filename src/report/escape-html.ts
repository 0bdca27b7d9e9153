/**
 * Escapes text for HTML element content and quoted attribute values: `& < > " '` and
 * the backtick become character references. Every piece of data the report shows goes
 * through here (via `html`), so app text such as `<script>` shows as text.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (character) => entities[character] ?? character);
}

const entities: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};
