/** How the dashboard writes amounts and times: English (the dashboard is in English only), the viewer's time zone. */

const money = new Map<string, Intl.NumberFormat>();

/**
 * The currencies written here without Intl, as Intl writes them in en-GB (test/unit/dashboard-app
 * compares): a page's first Intl object costs some 15 ms in Chromium (ICU starting), which Home's
 * first render does without. Any other currency goes through Intl.
 */
const SYMBOLS: Record<string, string> = { GBP: '£', EUR: '€', USD: 'US$' };

/** A whole number with its thousands grouped, as en-GB writes it: 1234567 → 1,234,567. */
export const formatCount = (value: number) => `${value < 0 ? '-' : ''}${String(Math.abs(Math.trunc(value))).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;

/** Minor units of `currency` as money, e.g. 1234 GBP → £12.34. */
export function formatMoney(minor: number, currency: string): string {
  const code = currency.toUpperCase();
  const symbol = SYMBOLS[code];
  if (symbol !== undefined && Number.isSafeInteger(minor)) {
    const abs = Math.abs(minor);
    return `${minor < 0 ? '-' : ''}${symbol}${formatCount(Math.floor(abs / 100))}.${String(abs % 100).padStart(2, '0')}`;
  }
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

// Made when first used (not as the module loads: Home uses neither, see SYMBOLS).
let dateTime: Intl.DateTimeFormat | undefined;
let fullTime: Intl.DateTimeFormat | undefined;

/** Unix seconds as "3 Dec 2026, 14:05". */
export const formatTime = (seconds: number) => (dateTime ??= new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' })).format(seconds * 1000);
/** With seconds, for timelines and logs. */
export const formatFullTime = (seconds: number) => (fullTime ??= new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' })).format(seconds * 1000);

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const two = (value: number) => String(value).padStart(2, '0');
/** Unix seconds as the day of a chart's axis, in the viewer's time zone: "Fri 27" (en-GB's short weekday and day, without Intl). */
export const formatDay = (seconds: number) => {
  const at = new Date(seconds * 1000);
  return `${WEEKDAYS[at.getDay()]} ${at.getDate()}`;
};
/** Unix seconds as the hour of a chart's axis, in the viewer's time zone: "14:00". */
export const formatHour = (seconds: number) => {
  const at = new Date(seconds * 1000);
  return `${two(at.getHours())}:${two(at.getMinutes())}`;
};
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
