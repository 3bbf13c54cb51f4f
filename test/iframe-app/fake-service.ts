/**
 * What the frame apps under test ask "the service" (their own origin: the test server,
 * web-test-runner.config.mjs), scripted for one session token: a fake of the service at the network,
 * so no test replaces a frame's fetch. The frames send the token with each request.
 */
export interface FakeAnswer {
  status?: number;
  body?: unknown;
  /** Never answer. */
  hang?: true;
}

export interface SentRequest {
  method: string;
  path: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body?: any;
}

/**
 * Scripts `routes` ('GET /intent', 'POST /frames/tokenise', 'POST /frames/wallet/sheet', 'POST
 * /frames/wallet/approve': an answer, or answers in order, the last repeating) for a new session
 * token. Unscripted, GET /intent answers session pi_1 of £12.34 and the others 404.
 */
export async function fakeService(routes: Record<string, FakeAnswer | FakeAnswer[]> = {}): Promise<{ sessionToken: string; session: { paymentIntentId: string; sessionToken: string }; requests(): Promise<SentRequest[]> }> {
  const sessionToken = `st_${crypto.randomUUID()}`;
  const response = await fetch(`/__cpe/fake-service/${sessionToken}`, { method: 'PUT', body: JSON.stringify({ routes }) });
  if (!response.ok) throw new Error(`the fake service refused the script: ${response.status}`);
  return {
    sessionToken,
    session: { paymentIntentId: 'pi_1', sessionToken },
    requests: async () => (await fetch(`/__cpe/fake-service/${sessionToken}`)).json(),
  };
}

/** A GET /intent answer (protocol/schemas/intent.ts SessionIntent) for session pi_1 of `amount` `currency`. */
export const intentAnswer = (amount: number, currency: string, amountFormatted: string): FakeAnswer => ({
  body: { paymentIntentId: 'pi_1', status: 'requires_payment_method', amount, currency, amount_formatted: amountFormatted, moto: false, opaque_key: 'opq_fake' },
});
