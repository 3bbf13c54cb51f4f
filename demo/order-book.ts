import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The shop's orders, kept in `demo-orders.json` of the data folder (beside the service's data) when
 * there is one, so that an order page's address and the order numbers survive a restart of the demo.
 * Without a folder (the tests' in-memory service) they live in memory only. Written whole and
 * atomically (a temporary file renamed over the old one) after each change: a demo's few orders.
 */
export function orderBook<O extends { reference: string }>(dataDir?: string) {
  const file = dataDir && join(dataDir, 'demo-orders.json');
  const orders = new Map<string, O>();
  if (file && existsSync(file)) for (const order of (JSON.parse(readFileSync(file, 'utf8')) as { orders: O[] }).orders) orders.set(order.reference, order);
  return {
    orders,
    /** The highest order number so far: numbering goes on from it. */
    lastNumber: Math.max(1000, ...[...orders.keys()].map((reference) => Number(/^ORD-(\d+)-/.exec(reference)?.[1] ?? 0))),
    save(): void {
      if (!file) return;
      mkdirSync(dataDir!, { recursive: true });
      writeFileSync(`${file}.tmp`, JSON.stringify({ orders: [...orders.values()] }));
      renameSync(`${file}.tmp`, file);
    },
  };
}
