// Output of one JSON document a line (-o ndjson, errors and notes as JSON lines on stderr), as
// values.
export function jsonLines(text: string): unknown[] {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);
}
