/** `12.34` in the currency's minor units (`1234` GBP) formatted for a language: `£12.34`, `12,34 £`. */
export function formatMinor(amount: number, currency: string, lang: string): string {
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat(lang, { style: 'currency', currency });
  } catch {
    format = new Intl.NumberFormat('en', { style: 'currency', currency });
  }
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}

/** `{name}` placeholders of a catalogue text. */
export const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (all, key: string) => values[key] ?? all);
