/**
 * `npm run -s gen:docs`: writes the README's sections that are generated from the code, between their
 * markers (`<!-- generated: name -->` … `<!-- /generated: name -->`): the table of error codes, from
 * api/error-codes.ts; and docs/api-reference.md, from the operation table (gen-api-docs.ts). A test
 * (test/server/error-codes.test.ts, api-docs-fresh.test.ts) fails while either differs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { ERROR_CODES, type ErrorCodeRow } from '../api/error-codes.ts';
import { API_DOCS_PATH, apiDocs } from './gen-api-docs.ts';

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
  const reference = apiDocs();
  const stale = readFileSync(API_DOCS_PATH, 'utf8') !== reference;
  if (stale) writeFileSync(API_DOCS_PATH, reference);
  process.stdout.write(stale ? 'docs/api-reference.md rewritten.\n' : 'docs/api-reference.md is up to date.\n');
}
