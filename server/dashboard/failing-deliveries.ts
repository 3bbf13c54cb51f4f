import type { Owner } from '../events/owner.ts';
import type { Webhooks } from '../webhooks/webhooks.ts';

/** The most attempts of one endpoint read for the count (newest first); past it, older ones are not looked at. */
export const MAX_ATTEMPTS_READ = 5_000;

/**
 * Home's "failing webhook deliveries": the events (to each endpoint of the owner) whose latest attempt
 * since `since` failed, whether still on their retry schedule or given up. A delivery that a later
 * attempt (a scheduled one, or Retry) got through no longer counts: what is left needs a look.
 */
export async function failingDeliveries(webhooks: Pick<Webhooks, 'endpoints' | 'deliveries'>, owner: Owner, since: number): Promise<number> {
  let failing = 0;
  for (const endpoint of await webhooks.endpoints.ofOwner(owner)) {
    const seen = new Set<string>();
    let read = 0;
    pages: for (let after: string | undefined; read < MAX_ATTEMPTS_READ; ) {
      const page = await webhooks.deliveries.attempts(owner, endpoint.id, { limit: 100, ...(after ? { starting_after: after } : {}) });
      for (const attempt of page.data) {
        if (attempt.created < since) break pages;
        read++;
        // Newest first: the first attempt seen of an event is its latest.
        if (seen.has(attempt.event)) continue;
        seen.add(attempt.event);
        if (attempt.result === 'failed') failing++;
      }
      if (!page.has_more) break;
      after = page.data.at(-1)!.id;
    }
  }
  return failing;
}
