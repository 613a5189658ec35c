// Times for people: a timestamp the service sends (ISO 8601, `2026-05-22T10:00:00Z`) shown in the
// local time zone with its offset named (`2026-05-22 15:45 +0545`, or `UTC`), and on a terminal,
// where gh shows them, how far it is from now (`in 8 days`, `3 h ago`, `just now`). Pure: the
// moment `now` and the zone are given (Context.now() and TZ), never read here. Text that is no
// complete timestamp with a zone is shown as received. Machine formats never use this.
import { type Env, readEnv } from '../variables.js';
export interface TimeSetting {
  /** Milliseconds since the epoch: the run's clock. */
  now: number;
  /** An IANA time zone (`Asia/Kathmandu`); undefined: the system's. */
  zone?: string;
}

/**
 * When a time also says how far it is from now: `always` (an expiry, a reset: the distance is
 * what a person wants), `recent` (within a week either way: `3 h ago`, while an older date speaks
 * for itself), or `never`.
 */
export type RelativeRule = 'always' | 'recent' | 'never';

const RECENT_MS = 7 * 86_400_000;

/**
 * The time zone TZ names, when Intl knows it (`Asia/Kathmandu`, `:UTC`); undefined otherwise, for
 * the system's zone, which is what Node itself made of TZ.
 */
export function timeZoneOf(env: Env): string | undefined {
  const name = readEnv(env, 'TZ')?.replace(/^:/, '');
  if (!name || name.startsWith('/')) return undefined;
  return formatterFor(name) ? name : undefined;
}

// A complete date-time with a zone: `2026-05-22T10:00:00Z`, `…10:00:00.123+05:45`, `…10:00Z`.
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|([+-])(\d{2}):?(\d{2}))$/;

/**
 * The moment an ISO 8601 date-time with a zone stands for; undefined for anything else (a date
 * alone, a time without zone, 2026-02-30).
 */
export function parseTimestamp(text: string): number | undefined {
  const m = TIMESTAMP.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(
    Number,
  ) as [number, number, number, number, number, number];
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysIn(year, month) ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    return undefined;
  let offset = 0;
  if (m[9]) {
    const [offsetHours, offsetMinutes] = [Number(m[10]), Number(m[11])];
    if (offsetHours > 23 || offsetMinutes > 59) return undefined;
    offset = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  }
  const fraction = m[7] ? Math.floor(Number(m[7]) * 1000) : 0;
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, fraction);
  return utc.getTime() - offset * 60_000;
}

function daysIn(year: number, month: number): number {
  const last = new Date(0);
  last.setUTCFullYear(year, month, 0);
  return last.getUTCDate();
}

const formatters = new Map<string, Intl.DateTimeFormat | undefined>();

/**
 * One formatter of UTC offsets per zone, made on first use; undefined for a zone Intl does not
 * know.
 */
function formatterFor(zone: string): Intl.DateTimeFormat | undefined {
  if (!formatters.has(zone)) {
    let formatter: Intl.DateTimeFormat | undefined;
    try {
      formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    } catch {
      formatter = undefined;
    }
    formatters.set(zone, formatter);
  }
  return formatters.get(zone);
}

/**
 * The zone's offset from UTC at that moment, in seconds east. The system's zone is read from the
 * Date's own local clock: Intl's first formatter costs a run 10–20 ms of loading locale data.
 * Another zone is read from Intl, which writes it `GMT+05:45`, `GMT-04:00`, `GMT` (`GMT+05:41:16`
 * before time zones).
 */
function offsetSeconds(at: number, zone: string | undefined): number {
  const formatter = zone === undefined ? undefined : formatterFor(zone);
  if (!formatter) return localOffsetSeconds(at);
  const name =
    formatter.formatToParts(new Date(at)).find((part) => part.type === 'timeZoneName')?.value ?? '';
  const m = /^GMT([+-])(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?$/.exec(name);
  if (!m) return 0;
  return (
    (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0))
  );
}

/**
 * The system zone's offset: its wall clock at that moment read as if it were UTC, less the moment
 * (to the second, which `getTimezoneOffset` rounds away before time zones).
 */
function localOffsetSeconds(at: number): number {
  const moment = new Date(at);
  const wall = new Date(0);
  wall.setUTCFullYear(moment.getFullYear(), moment.getMonth(), moment.getDate());
  wall.setUTCHours(moment.getHours(), moment.getMinutes(), moment.getSeconds());
  return Math.round((wall.getTime() - (at - moment.getMilliseconds())) / 1000);
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * A moment in the zone, to the minute, its offset named: `2026-05-22 15:45 +0545`, `2026-05-22
 * 10:00 UTC`. `space` parts date, time and zone (a table glues them into one word).
 */
export function formatLocalTime(at: number, zone?: string, space = ' '): string {
  const offset = offsetSeconds(at, zone);
  // The wall clock of the zone, read with the UTC getters: no era or calendar of Intl's in the way.
  const local = new Date(at + offset * 1000);
  const date = `${String(local.getUTCFullYear()).padStart(4, '0')}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())}`;
  const minutes = Math.trunc(Math.abs(offset) / 60);
  const named =
    minutes === 0
      ? 'UTC'
      : `${offset < 0 ? '-' : '+'}${two(Math.trunc(minutes / 60))}${two(minutes % 60)}`;
  return `${date}${space}${two(local.getUTCHours())}:${two(local.getUTCMinutes())}${space}${named}`;
}

/**
 * How far a moment is from now, as gh says it: `just now`, `5 min ago`, `in 3 h`, `in 8 days`, `2
 * months ago`.
 */
export function relativeTime(at: number, now: number): string {
  const ms = at - now;
  const seconds = Math.abs(ms) / 1000;
  const say = (count: number, unit: string, plural = unit + 's') => {
    const amount = `${count} ${count === 1 ? unit : plural}`;
    return ms < 0 ? `${amount} ago` : `in ${amount}`;
  };
  if (seconds < 60) return ms < 0 ? 'just now' : 'in under a minute';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return say(minutes, 'min', 'min');
  const hours = Math.round(seconds / 3600);
  if (hours < 24) return say(hours, 'h', 'h');
  const days = Math.round(seconds / 86_400);
  if (days < 45) return say(days, 'day');
  const months = Math.round(days / 30.44);
  if (months < 12) return say(months, 'month');
  return say(Math.max(1, Math.round(days / 365.25)), 'year');
}

/**
 * A timestamp for people: in the zone, with how far it is from now where the rule says so
 * (`2026-06-01 05:45 +0545 (in 10 days)`). Anything that is no timestamp with a zone is given
 * back as received: a date alone, a time without zone, a malformed one.
 */
export function formatTimestamp(
  text: string,
  setting: Partial<TimeSetting>,
  rule: RelativeRule = 'never',
  space = ' ',
): string {
  const at = parseTimestamp(text);
  if (at === undefined) return text;
  const local = formatLocalTime(at, setting.zone, space);
  const { now } = setting;
  if (
    now === undefined ||
    rule === 'never' ||
    (rule === 'recent' && Math.abs(at - now) >= RECENT_MS)
  )
    return local;
  // The moment and how far off it is each stay on one line; a narrow column breaks between them.
  return `${local} (${relativeTime(at, now).split(' ').join(space)})`;
}

/**
 * The rule of a field, by its name: an expiry or a reset always says how far off it is, other times
 * when recent.
 */
export function relativeRuleFor(key: string): RelativeRule {
  return /(^|[._])(expires?|expiry|expiration|resets?|valid_until|until|due|next)([._]|$)/i.test(
    key,
  )
    ? 'always'
    : 'recent';
}
