/**
 * Escapes text for HTML element content and quoted attribute values: `& < > " '` and
 * the backtick become character references. Every piece of data the report puts in an
 * attribute goes through here (via `html`), so app text cannot close the attribute.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (character) => entities[character] ?? character);
}

/**
 * Escapes text for element content only: `& < >` become character references, quotes
 * stay (outside a tag they open nothing). `html` uses it for text between tags, where
 * app text such as `<script>` shows as text; never for attribute values.
 */
export function escapeText(text: string): string {
  return text.replace(/[&<>]/g, (character) => entities[character] ?? character);
}

const entities: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};
