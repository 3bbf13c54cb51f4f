import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { DocumentText } from '../../server/store/document-text.ts';

const text = (chunks: Uint8Array[]) => Buffer.concat(chunks).toString('utf8');

test('the kept text is always exactly JSON.stringify of the document, whatever the changes', () => {
  const id = fc.oneof(fc.constantFrom('a', 'b', 'c', 'd', 'ü', '12', '0', '1001', 'x"y'), fc.string({ maxLength: 4 }).filter((s) => s !== '__proto__'));
  const op = fc.record({
    kind: fc.constantFrom('insert', 'update', 'delete'),
    collection: fc.constantFrom('contacts', 'merchants'),
    id,
    value: fc.jsonValue({ maxDepth: 2 }),
    write: fc.boolean(),
  });
  fc.assert(
    fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
      const data: { version: number; seq: number; collections: Record<string, Record<string, unknown>> } = { version: 1, seq: 0, collections: { contacts: {} } };
      const doc = new DocumentText();
      const snapshots: [Uint8Array[], string][] = [];
      for (const { kind, collection, id, value, write } of ops) {
        const rows = (data.collections[collection] ??= {});
        const has = Object.hasOwn(rows, id);
        // The collections' own rules: insert only new ids, update and delete only existing ones.
        if (kind === 'insert' && has) continue;
        if (kind !== 'insert' && !has) continue;
        if (kind === 'delete') delete rows[id];
        else rows[id] = { value, _seq: ++data.seq };
        doc.changed(collection, kind, id);
        if (write) snapshots.push([doc.chunks(data), JSON.stringify(data)]);
      }
      snapshots.push([doc.chunks(data), JSON.stringify(data)]);
      // Earlier snapshots are not altered by later changes.
      for (const [chunks, expected] of snapshots) assert.equal(text(chunks), expected);
    }),
    { numRuns: 500 },
  );
});
