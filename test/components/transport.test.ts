import { expect } from '@open-wc/testing';
import { scrub } from '../../components/transport/transport.ts';

describe('scrub(): no secret in an error message, whoever wrote it', () => {
  it('redacts card tokens, vaulted cards, session tokens (cpe_st_…) and opaque keys (opq_…)', () => {
    const text = scrub('Refused: tok_abcDEF123456 card_9f8e7d6c5b4a session cpe_st_Ab-Cd_Ef0123456789xyz key opq_Z1y2X3w4V5u6 pi_kept12345 and ok_opaque123456.');
    expect(text).to.equal('Refused: [redacted] [redacted] session [redacted] key [redacted] pi_kept12345 and [redacted].');
  });

  it('keeps short words and ids that are not secrets', () => {
    expect(scrub('a token_ or st_ alone, pi_123, the stock_ market')).to.equal('a token_ or st_ alone, pi_123, the stock_ market');
  });
});
