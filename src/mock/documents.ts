// What the mock "reads" from an uploaded statement. There is no real parsing: the file type comes
// from magic bytes, the holder from a plain-text line, and everything else is derived from the
// file's SHA-256 so the same file always gives the same answer.
import { createHash } from 'node:crypto';

export type FileKind = 'pdf' | 'jpeg' | 'png';

/** Test hooks: files containing these markers fail to parse with the matching error code. */
export const FAILURE_MARKERS = {
  'SVC-MOCK-FAIL': {
    error_code: 'DOCUMENT_PARSE_FAILED',
    error_message: 'No transactions could be read from the document.',
  },
  'SVC-MOCK-TAMPER': {
    error_code: 'TAMPER_DETECTED',
    error_message:
      'The running balance does not reconcile with the transactions; the statement appears to have been edited.',
  },
} as const;

export type ParseFailure = (typeof FAILURE_MARKERS)[keyof typeof FAILURE_MARKERS];

export interface ReadDocument {
  kind: FileKind;
  sha256: string;
  /** Holder name found in the file, or null when the file names nobody. */
  holder: string | null;
  failure: ParseFailure | null;
}

export function sniffFileKind(data: Buffer): FileKind | null {
  if (data.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  return null;
}

/** Reads a document whose kind is already known to be supported. */
export function readDocument(data: Buffer, kind: FileKind): ReadDocument {
  const text = data.toString('latin1');
  const marker = (Object.keys(FAILURE_MARKERS) as (keyof typeof FAILURE_MARKERS)[]).find((m) =>
    text.includes(m),
  );
  return {
    kind,
    sha256: createHash('sha256').update(data).digest('hex'),
    holder: findHolder(text),
    failure: marker ? FAILURE_MARKERS[marker] : null,
  };
}

/**
 * `Account Holder: <name>` or `Account Name: <name>` on one line (also inside a PDF text string).
 */
function findHolder(text: string): string | null {
  const match = /Account (?:Holder|Name)\s*:[ \t]*([^\r\n()<>]{1,100})/i.exec(text);
  const name = match?.[1]?.replace(/\s+/g, ' ').trim();
  return name ? name : null;
}

/** A stable pick from a list, driven by a hex digest (so a given file always picks the same). */
export function pickBy<T>(items: readonly T[], hexDigest: string, salt = 0): T {
  const n = Number.parseInt(hexDigest.slice(salt * 8, salt * 8 + 8), 16);
  return items[n % items.length] as T;
}
