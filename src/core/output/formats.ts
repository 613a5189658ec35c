// The output formats `-o` takes: the one list, which the flag's declaration (main.ts) reads at
// start-up without loading the renderer.
export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
