// JSON output that keeps the reply exactly as received: the raw text is re-indented token by
// token, so numbers keep their digits (no float rounding) and keys keep their order.

/** Re-indents valid JSON text with two spaces without parsing its values. */
export function reindentJson(raw: string): string {
  let out = '';
  let depth = 0;
  let i = 0;
  const newline = () => '\n' + '  '.repeat(depth);
  while (i < raw.length) {
    const ch = raw[i]!;
    if (ch === '"') {
      const end = endOfString(raw, i);
      out += raw.slice(i, end);
      i = end;
      continue;
    }
    if (ch === ' ' || ch === '\n' || ch === '\r' || ch === '\t') {
      i++;
      continue;
    }
    if (ch === '{' || ch === '[') {
      const close = ch === '{' ? '}' : ']';
      const next = nextSignificant(raw, i + 1);
      if (raw[next] === close) {
        out += ch + close;
        i = next + 1;
        continue;
      }
      depth++;
      out += ch + newline();
    } else if (ch === '}' || ch === ']') {
      depth--;
      out += newline() + ch;
    } else if (ch === ',') {
      out += ',' + newline();
    } else if (ch === ':') {
      out += ': ';
    } else {
      out += ch;
    }
    i++;
  }
  return out;
}

function endOfString(raw: string, start: number): number {
  let i = start + 1;
  while (i < raw.length) {
    if (raw[i] === '\\') i += 2;
    else if (raw[i] === '"') return i + 1;
    else i++;
  }
  return raw.length;
}

function nextSignificant(raw: string, from: number): number {
  let i = from;
  while (i < raw.length && ' \n\r\t'.includes(raw[i]!)) i++;
  return i;
}
