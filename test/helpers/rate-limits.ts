/** Limiter settings for tests. No limit at all (the limiter's off setting, as testConfig's default). */
export const off = { perSecond: 0, burst: 0 };
/** A limit of `burst` requests that does not refill within a test (one token in 10,000 s), so a slow machine cannot pass it. */
export const only = (burst: number) => ({ perSecond: 0.0001, burst });
