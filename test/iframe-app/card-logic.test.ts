import { expect } from '@open-wc/testing';
import { formatExpiry, formatNumber, normalise, problemOf, schemeOf, showsWhileTyping } from '../../iframe-app/shared/card.ts';
import { resolveLanguage } from '../../iframe-app/shared/i18n.ts';
import { safeTokens, TOKEN_NAMES } from '../../iframe-app/shared/theme.ts';

describe('card logic (iframe-app/shared/card.ts)', () => {
  it('formats numbers at each scheme’s gaps', () => {
    expect(formatNumber('4242424242424242')).to.equal('4242 4242 4242 4242');
    expect(formatNumber('378282246310005')).to.equal('3782 822463 10005');
    expect(formatNumber('42424')).to.equal('4242 4');
    expect(formatNumber('4242424242424242424')).to.equal('4242 4242 4242 4242 424');
  });

  it('detects schemes', () => {
    expect(schemeOf('4242')).to.equal('visa');
    expect(schemeOf('5555')).to.equal('mastercard');
    expect(schemeOf('2221')).to.equal('mastercard');
    expect(schemeOf('34')).to.equal('amex');
    expect(schemeOf('6011')).to.equal('discover');
    expect(schemeOf('3530')).to.equal('jcb');
    expect(schemeOf('9')).to.equal('unknown');
  });

  it('keeps the caret after the same digit when a space is inserted or removed', () => {
    // Typing the 5th digit at the end: "4242 4|"
    expect(normalise('number', '42424', 5)).to.deep.equal({ value: '42424', display: '4242 4', caret: 6 });
    // A digit typed in the middle: "42|9424242" → caret after the third digit
    expect(normalise('number', '4294 2424', 3).caret).to.equal(3);
    // Deleting the digit before a gap keeps the caret where it was
    expect(normalise('number', '4242 424', 4)).to.deep.equal({ value: '4242424', display: '4242 424', caret: 4 });
    // Too many digits are cut at the scheme's longest length
    expect(normalise('number', '3782 822463 100059999', 21).value).to.equal('378282246310005');
  });

  it('formats expiry as MM / YY, pads a lone month digit above 1 and reads autofilled forms', () => {
    expect(normalise('expiry', '4', 1)).to.deep.equal({ value: '04', display: '04', caret: 2 });
    expect(normalise('expiry', '123', 3).display).to.equal('12 / 3');
    expect(normalise('expiry', '12 / 345', 8).value).to.equal('1234');
    expect(normalise('expiry', '12/2030', 7).value).to.equal('1230');
    expect(normalise('expiry', '1/30', 4).value).to.equal('0130');
    expect(normalise('expiry', '1/', 2)).to.deep.equal({ value: '01', display: '01', caret: 2 });
    expect(formatExpiry('12')).to.equal('12');
  });

  it('limits the security code to the scheme’s length', () => {
    expect(normalise('cvc', '12345', 5, 'amex').value).to.equal('1234');
    expect(normalise('cvc', '1234', 4, 'visa').value).to.equal('123');
  });

  it('validates Luhn, length by scheme, a future expiry, CSC length and a name', () => {
    const now = new Date(Date.UTC(2026, 10, 15));
    expect(problemOf('number', '4242424242424242')).to.equal(undefined);
    expect(problemOf('number', '4242424242424241')).to.equal('numberInvalid');
    expect(problemOf('number', '424242')).to.equal('numberIncomplete');
    expect(problemOf('number', '378282246310005')).to.equal(undefined);
    expect(problemOf('expiry', '1126', undefined, now)).to.equal(undefined);
    expect(problemOf('expiry', '1026', undefined, now)).to.equal('expiryPast');
    expect(problemOf('expiry', '1326', undefined, now)).to.equal('expiryInvalid');
    expect(problemOf('expiry', '12', undefined, now)).to.equal('expiryIncomplete');
    expect(problemOf('cvc', '123', 'amex')).to.equal('cvcIncomplete');
    expect(problemOf('cvc', '1234', 'amex')).to.equal(undefined);
    expect(problemOf('cvc', '123', 'visa')).to.equal(undefined);
    expect(problemOf('name', '  ')).to.equal('nameRequired');
  });

  it('does not complain while the first digits are typed', () => {
    expect(showsWhileTyping('number', '4242', problemOf('number', '4242'))).to.equal(false);
    expect(showsWhileTyping('number', '4242424242424241', 'numberInvalid')).to.equal(true);
    expect(showsWhileTyping('expiry', '13', 'expiryInvalid')).to.equal(true);
    expect(showsWhileTyping('expiry', '1', 'expiryIncomplete')).to.equal(false);
  });

  it('resolves language tags to a catalogue', () => {
    expect(resolveLanguage('fr-CA')).to.equal('fr-CA');
    expect(resolveLanguage('fr-BE')).to.equal('fr');
    expect(resolveLanguage('pt-PT')).to.equal('pt');
    expect(resolveLanguage('pt-br')).to.equal('pt-BR');
    expect(resolveLanguage('es-MX')).to.equal('es-419');
    expect(resolveLanguage('zh-Hant')).to.equal('zh-TW');
    expect(resolveLanguage('zh-Hant-HK')).to.equal('zh-HK');
    expect(resolveLanguage('zh-Hans-HK')).to.equal('zh');
    expect(resolveLanguage('no')).to.equal('nb');
    expect(resolveLanguage('en-GB')).to.equal('en');
    expect(resolveLanguage('CY')).to.equal('cy');
    expect(resolveLanguage('xx')).to.equal(undefined);
  });

  it('keeps only the nineteen tokens, drops hostile values, reads bare numbers as pixels', () => {
    expect(TOKEN_NAMES).to.have.length(19);
    const safe = safeTokens({
      '--cpe-bg': '#fff',
      '--cpe-radius': 8,
      '--cpe-gap': '10',
      '--cpe-font': '"Inter", sans-serif',
      '--cpe-fg': 'red; background: url(https://evil.example/x)',
      '--cpe-accent': 'url(https://evil.example/x)',
      '--cpe-border': 'expression(alert(1))',
      '--cpe-focus': 'javascript:alert(1)',
      '--cpe-error': '}body{display:none',
      '--cpe-success': '<script>',
      '--cpe-input-bg': '\\75rl(x)',
      '--cpe-input-fg': '@import "x"',
      '--cpe-evil': 'blue',
    });
    expect(safe).to.deep.equal({ '--cpe-bg': '#fff', '--cpe-font': '"Inter", sans-serif', '--cpe-radius': '8px', '--cpe-gap': '10px' });
  });
});
