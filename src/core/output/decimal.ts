// Numbers written as people in Nepal write them: lakh grouping (1,25,000), rounded half away from
// zero. What Intl.NumberFormat('en-IN') writes, digit for digit (test/unit/decimal.test.ts holds
// the two side by side), without its first use's cost: loading the locale's data takes a run
// 10–20 ms, more than most tables' own work. A decimal text is written exactly, every digit kept;
// a number as JavaScript writes it (its shortest exact form), as Intl does.

export interface DecimalStyle {
  /** Decimals always written (2 for an amount: 12.50). */
  minimum: number;
  /** Decimals at most: the rest is rounded, half away from zero. */
  maximum: number;
  /** `exceptZero`: `+` before a positive number, no sign before zero (a score's +100, 0, -20). */
  sign?: 'exceptZero';
}

// A decimal as a reply or JavaScript writes one: 12, -0.5, 1.5e-7, 1e+21, .5, 5.
const DECIMAL = /^\s*([+-]?)(?=\.?\d)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/;

const formatters = new Map<string, Intl.NumberFormat>();

export function formatDecimal(value: number | string, style: DecimalStyle): string {
  const m = DECIMAL.exec(typeof value === 'number' ? String(value) : value);
  // NaN, ∞, hexadecimal and the other forms Intl reads, and exponents past a double's range, are
  // rare: Intl writes those.
  if (!m || !Number.isFinite(Number(value))) return intlFormat(value, style);
  const [, sign, whole = '', fraction = '', exponent = '0'] = m;
  // The significant digits, and where the decimal point falls among them.
  let digits = whole + fraction;
  let point = whole.length + Number(exponent);
  const first = digits.search(/[1-9]/);
  if (first === -1) [digits, point] = ['', 0];
  else [digits, point] = [digits.slice(first), point - first];

  const kept = point + style.maximum;
  if (kept < 0) [digits, point] = ['', 0];
  else if (kept < digits.length) {
    const up = digits[kept]! >= '5';
    digits = digits.slice(0, kept);
    if (up) {
      const next = (BigInt(`0${digits}`) + 1n).toString();
      // 9.995 → 10.00: one more digit before the point.
      if (next.length > digits.length) point++;
      digits = next;
    }
  }

  const zero = !/[1-9]/.test(digits);
  const integer = point > 0 ? digits.slice(0, point).padEnd(point, '0') : '0';
  const decimals = (point >= 0 ? digits.slice(point) : '0'.repeat(-point) + digits)
    .replace(/0+$/, '')
    .padEnd(style.minimum, '0');
  const negative = sign === '-' || Object.is(value, -0);
  const signText =
    style.sign === 'exceptZero' ? (zero ? '' : negative ? '-' : '+') : negative ? '-' : '';
  return `${signText}${lakhs(integer)}${decimals ? `.${decimals}` : ''}`;
}

/** 1250000 → 12,50,000: the last three digits, then twos. */
function lakhs(integer: string): string {
  if (integer.length <= 3) return integer;
  return `${integer.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',')},${integer.slice(-3)}`;
}

function intlFormat(value: number | string, style: DecimalStyle): string {
  const key = `${style.minimum} ${style.maximum} ${style.sign ?? ''}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-IN', {
      minimumFractionDigits: style.minimum,
      maximumFractionDigits: style.maximum,
      signDisplay: style.sign ?? 'auto',
    });
    formatters.set(key, formatter);
  }
  return formatter.format(value as number | Intl.StringNumericLiteral);
}
