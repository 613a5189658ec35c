// The output formats `-o` takes: the one list, which the flag's declaration (main.ts) reads at
// start-up without loading the renderer.
export const OUTPUT_FORMATS = ['table', 'wide', 'json', 'ndjson', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/**
 * A table for people (`wide`: with every column, docs/reference/output.md, "Tables"), tab-separated
 * lines in a pipe.
 */
export function isTableFormat(format: OutputFormat): format is 'table' | 'wide' {
  return format === 'table' || format === 'wide';
}
