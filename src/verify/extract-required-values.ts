/**
 * Values an intent says must end up on screen (docs/architecture.md §2.9): quoted strings, e-mail
 * addresses, phone numbers, times (`7:30`, `07:30 AM`, `7 pm`) and other numbers, in the
 * order they appear, without duplicates. A value inside a quoted string is not repeated
 * on its own. Deterministic: no model involved.
 */
export function extractRequiredValues(intent: string): string[] {
  const taken: [number, number][] = [];
  const found: { at: number; value: string }[] = [];
  const overlaps = (start: number, end: number): boolean => taken.some(([from, to]) => start < to && end > from);
  const take = (pattern: RegExp, group = 0): void => {
    for (const match of intent.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (overlaps(start, end)) continue;
      const value = (match[group] ?? match[0]).trim();
      taken.push([start, end]);
      if (value !== '') found.push({ at: start, value });
    }
  };
  take(/"([^"]+)"|“([^”]+)”|(?<!\w)'([^']+)'(?!\w)|‘([^’]+)’/g, 0);
  // Quoted values lose their quotes.
  for (const item of found) item.value = item.value.replace(/^["“'‘]|["”'’]$/g, '');
  take(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g);
  take(/\b\d{1,2}:\d{2}(\s?[AaPp]\.?[Mm]\.?)?(?![\d:])|\b\d{1,2}\s?[AaPp]\.?[Mm]\b\.?/g);
  take(/(\+\d{1,3}[\s-]?)?(\(\d{2,4}\)[\s-]?)?\d{3,4}[\s-]\d{3,4}([\s-]\d{2,4})?\b|\+\d{7,15}\b|\b\d{7,15}\b/g);
  take(/\b\d+(?:[.,]\d+)?\b/g);
  const seen = new Set<string>();
  return found
    .sort((a, b) => a.at - b.at)
    .map((item) => item.value)
    .filter((value) => (seen.has(value) ? false : (seen.add(value), true)));
}
