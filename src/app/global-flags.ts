// The options of the root command every command is given, and the output format they ask for.
import type { CalendarName } from '../core/calendar/calendar.js';
import { UsageError } from '../core/errors.js';
import type { OutputFormat } from '../core/output/render.js';

export interface GlobalFlags {
  json?: boolean;
  /** --jq: the JSON output filtered by this jq expression. */
  jq?: string;
  output?: OutputFormat;
  /**
   * --columns: the columns of a table or CSV by field name, in this order
   * (docs/reference/output.md, "Columns").
   */
  columns?: string[];
  /** False with --no-headers: no header line in a table or CSV. */
  headers?: boolean;
  /** False with --no-formula-guard: CSV cells as received, without the ' before a formula. */
  formulaGuard?: boolean;
  /**
   * --calendar: the calendar of the dates tables show and date flags take (Context.config.calendar:
   * with SVC_CALENDAR and the profile's).
   */
  calendar?: CalendarName;
  color?: boolean;
  debug?: boolean;
  /** --timeout, in seconds (commander parses it). */
  timeout?: number;
  /** --retries (commander parses it). */
  retries?: number;
  apiKey?: string;
  baseUrl?: string;
  profile?: string;
  /** --max-reply-size, in bytes (commander parses it). */
  maxReplySize?: number;
  /** false with --no-pager. */
  pager?: boolean;
}

/**
 * The output format the flags ask for; flags that shape an output the format does not make are exit
 * 2.
 */
export function outputFormat(flags: GlobalFlags): OutputFormat {
  const format = chosenFormat(flags);
  // The flags that shape tables and CSV have nothing to act on in JSON.
  const named =
    format === 'json'
      ? flags.jq !== undefined
        ? '--jq'
        : flags.json
          ? '--json'
          : '-o json'
      : `-o ${format}`;
  if (flags.columns && (format === 'json' || format === 'ndjson')) {
    throw new UsageError(
      `--columns picks the columns of a table or CSV; it does not apply to ${named} (--jq picks fields from JSON)`,
    );
  }
  if (flags.headers === false && (format === 'json' || format === 'ndjson'))
    throw new UsageError(
      `--no-headers leaves out the header line of a table or CSV; it does not apply to ${named}`,
    );
  if (flags.formulaGuard === false && format !== 'csv')
    throw new UsageError(`--no-formula-guard applies to -o csv alone, not ${named}`);
  return format;
}

function chosenFormat(flags: GlobalFlags): OutputFormat {
  if (flags.json || flags.jq !== undefined) {
    if (flags.output && flags.output !== 'json') {
      throw new UsageError(
        flags.jq !== undefined
          ? `--jq filters JSON output; it conflicts with --output ${flags.output}`
          : `--json conflicts with --output ${flags.output}`,
      );
    }
    return 'json';
  }
  return flags.output ?? 'table';
}
