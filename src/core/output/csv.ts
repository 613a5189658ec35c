// RFC 4180 CSV: fields with a comma, quote or line break are quoted, quotes doubled, CRLF ends.

export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function csvLine(fields: readonly string[]): string {
  return fields.map(csvField).join(',') + '\r\n';
}
