/**
 * Card schemes the hosted fields and the service recognise: the number prefixes, the lengths and the
 * security code length of each. One table for the frames (formatting, detection, validation as you
 * type) and the service (tokenise validation).
 */
export const SCHEMES = {
  visa: { pattern: /^4/, lengths: [13, 16, 19], cvc: 3, gaps: [4, 8, 12] },
  mastercard: { pattern: /^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/, lengths: [16], cvc: 3, gaps: [4, 8, 12] },
  amex: { pattern: /^3[47]/, lengths: [15], cvc: 4, gaps: [4, 10] },
  discover: { pattern: /^(6011|65|64[4-9])/, lengths: [16, 19], cvc: 3, gaps: [4, 8, 12] },
  diners: { pattern: /^(30[0-5]|309|36|3[89])/, lengths: [14, 16, 19], cvc: 3, gaps: [4, 10] },
  jcb: { pattern: /^35(2[89]|[3-8]\d)/, lengths: [16, 19], cvc: 3, gaps: [4, 8, 12] },
  maestro: { pattern: /^(5[06-9]|6\d)/, lengths: [12, 13, 14, 15, 16, 17, 18, 19], cvc: 3, gaps: [4, 8, 12] },
  unknown: { pattern: /^/, lengths: [12, 13, 14, 15, 16, 17, 18, 19], cvc: 3, gaps: [4, 8, 12] },
} as const;
export type Scheme = keyof typeof SCHEMES;
export const SCHEME_NAMES = Object.keys(SCHEMES) as [Scheme, ...Scheme[]];

export function schemeOf(digits: string): Scheme {
  return SCHEME_NAMES.find((s) => SCHEMES[s].pattern.test(digits))!;
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
