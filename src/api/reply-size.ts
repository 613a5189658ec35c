// The size of a reply svc takes (`--max-reply-size`): its default, its bounds and how it is
// written. Kept apart from the transport: the program declares the flag at every start.
const MIB = 1024 * 1024;
/** The cap of a reply when --max-reply-size does not say: far above any documented reply. */
export const DEFAULT_MAX_REPLY_BYTES = 64 * MIB;
/** A body must fit in one string (V8 allows about 512 MiB): the cap stays below that. */
export const LARGEST_REPLY_BYTES = 500 * MIB;

/** 64 MiB, 1.5 KiB, 300 bytes: sizes up to the largest reply. */
export function formatSize(bytes: number): string {
  const [unit, size]: [string, number] =
    bytes >= MIB ? ['MiB', MIB] : bytes >= 1024 ? ['KiB', 1024] : ['bytes', 1];
  return `${Number((bytes / size).toFixed(1))} ${unit}`;
}
