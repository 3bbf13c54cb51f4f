/**
 * Rows of one index key kept in insertion (sequence) order. Sequence numbers only grow, so appends
 * keep the array sorted and a cursor is found by binary search: a page costs the same at 100 rows
 * and at 100,000.
 */
export class OrderedIndex<T extends { id: string }> {
  readonly rows: T[] = [];

  constructor(private readonly seqOf: (row: T) => number) {}

  add(row: T): void {
    const seq = this.seqOf(row);
    const last = this.rows.at(-1);
    if (!last || this.seqOf(last) < seq) this.rows.push(row);
    else this.rows.splice(this.lowerBound(seq), 0, row);
  }

  remove(row: T): void {
    const at = this.lowerBound(this.seqOf(row));
    if (this.rows[at]?.id === row.id) this.rows.splice(at, 1);
  }

  replace(row: T): void {
    const at = this.lowerBound(this.seqOf(row));
    if (this.rows[at]?.id === row.id) this.rows[at] = row;
  }

  /** Position of the first row whose sequence is >= seq. */
  lowerBound(seq: number): number {
    let lo = 0;
    let hi = this.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.seqOf(this.rows[mid]) < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
