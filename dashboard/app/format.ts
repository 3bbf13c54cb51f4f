/** How the dashboard writes amounts and times: English (the dashboard is in English only), the viewer's time zone. */

const money = new Map<string, Intl.NumberFormat>();

/** Minor units of `currency` as money, e.g. 1234 GBP → £12.34. */
export function formatMoney(minor: number, currency: string): string {
  const code = currency.toUpperCase();
  let format = money.get(code);
  if (!format) money.set(code, (format = new Intl.NumberFormat('en-GB', { style: 'currency', currency: code })));
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}

/** Minor units as the plain number a person types (1234 GBP → 12.34), for an input's placeholder. */
export function majorText(minor: number, currency: string): string {
  const digits = new Intl.NumberFormat('en-GB', { style: 'currency', currency: currency.toUpperCase() }).resolvedOptions().maximumFractionDigits ?? 2;
  return (minor / 10 ** digits).toFixed(digits);
}

/** A major-unit amount the user typed (12.34) in minor units, or undefined when it is not one. */
export function parseMoney(text: string, currency: string): number | undefined {
  const digits = new Intl.NumberFormat('en-GB', { style: 'currency', currency: currency.toUpperCase() }).resolvedOptions().maximumFractionDigits ?? 2;
  const pattern = digits === 0 ? /^\d+$/ : new RegExp(`^\\d+(\\.\\d{1,${digits}})?$`);
  const trimmed = text.trim().replace(/,/g, '');
  if (!pattern.test(trimmed)) return undefined;
  return Math.round(Number(trimmed) * 10 ** digits);
}

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const fullTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });

/** Unix seconds as "3 Dec 2026, 14:05". */
export const formatTime = (seconds: number) => dateTime.format(seconds * 1000);
/** With seconds, for timelines and logs. */
export const formatFullTime = (seconds: number) => fullTime.format(seconds * 1000);
/** The machine-readable form for <time datetime>. */
export const isoTime = (seconds: number) => new Date(seconds * 1000).toISOString();

/** A status in words: requires_capture → Requires capture. */
export const words = (status: string) => (status.charAt(0).toUpperCase() + status.slice(1)).replaceAll('_', ' ');

/** A card as the list shows it: "Visa •••• 4242". */
export function cardText(card: { scheme?: string; last4?: string } | null | undefined): string {
  if (!card?.last4) return '—';
  const scheme = card.scheme ? card.scheme.charAt(0).toUpperCase() + card.scheme.slice(1) : 'Card';
  return `${scheme} •••• ${card.last4}`;
}
