/**
 * `npm run -s gen:docs`: writes the README's sections that are generated from the code, between their
 * markers (`<!-- generated: name -->` … `<!-- /generated: name -->`): the table of error codes, from
 * api/error-codes.ts. A test (test/server/docs-fresh.test.ts) fails while the README differs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { ERROR_CODES, type ErrorCodeRow } from '../api/error-codes.ts';

const README = new URL('../README.md', import.meta.url);

/** The README's table of every error code: status, type and meaning, in the table's order. */
export function errorCodesTable(): string {
  const rows = Object.entries(ERROR_CODES as Record<string, ErrorCodeRow>).map(
    ([code, row]) => `| \`${code}\` | ${row.status ?? '200 (an attempt’s `error`)'} | \`${row.type}\` | ${row.client ? '`cpe/server` only: ' : ''}${row.means} |`,
  );
  return ['| code | HTTP status | type | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

const SECTIONS: Record<string, () => string> = { 'error-codes': errorCodesTable };

/** `text` with each generated section replaced by what the code gives now. */
export function withGeneratedSections(text: string): string {
  let out = text;
  for (const [name, make] of Object.entries(SECTIONS)) {
    const open = `<!-- generated: ${name} (npm run -s gen:docs) -->`;
    const close = `<!-- /generated: ${name} -->`;
    const start = out.indexOf(open);
    const end = out.indexOf(close);
    if (start < 0 || end < start) throw new Error(`README.md has no section between "${open}" and "${close}"`);
    out = `${out.slice(0, start + open.length)}\n${make()}\n${out.slice(end)}`;
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const before = readFileSync(README, 'utf8');
  const after = withGeneratedSections(before);
  if (after !== before) writeFileSync(README, after);
  process.stdout.write(after === before ? 'README.md is up to date.\n' : 'README.md: generated sections rewritten.\n');
}
