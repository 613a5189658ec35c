// Date formats used in replies: date-times to the second in UTC, and calendar dates.

export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
