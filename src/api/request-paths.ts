// What keeps a request, and the key it carries, inside the service's API under the base URL: the
// forms a path segment must not take, and the check of every request's URL once it is built.
import { UsageError } from '../core/errors.js';
import { oneLine } from '../core/output/format.js';

/**
 * `%2f`, `%5c` and `%2e` in any case, and their encoded forms again (`%252f`, `%25252E`…): a
 * server or proxy that decodes a path before it routes it reads them as `/`, `\` and `.`.
 */
const ENCODED_SEPARATOR_OR_DOT = /%(?:25)*(?:2f|5c|2e)/i;

/**
 * The first encoded `/`, `\` or `.` in the text, as written there; undefined when there is none.
 */
export function encodedSeparatorIn(text: string): string | undefined {
  return ENCODED_SEPARATOR_OR_DOT.exec(text)?.[0];
}

/**
 * A segment that URL resolution, or a server, takes for "this folder" or "the one above": `.`,
 * `..`, their encoded forms, and the same followed by `;parameters` (which Tomcat and its kin
 * strip before resolving).
 */
export function isDotSegment(segment: string): boolean {
  const name = segment.split(';')[0]!.replace(/%2e/gi, '.');
  return name === '.' || name === '..';
}

/**
 * The URL of a request: the base URL and the path. Refused (exit 2, before anything is sent) when
 * it is not on the base URL's origin under its path + `/v1`, or its path there holds an encoded
 * separator or dot, or a dot segment: the key goes only to the API it was given for, whatever a
 * path, an id or a reply's link held.
 */
export function urlInsideApi(baseUrl: string, path: string): URL {
  const refused = (why: string) =>
    new UsageError(`the request path "${oneLine(path)}" ${why}: nothing was sent`);
  // Glued to the base URL, a path without its slash would change the host (`https://svc.test` +
  // `x.evil`).
  if (!path.startsWith('/')) throw refused('does not start with /');
  const url = new URL(baseUrl + path);
  const base = new URL(baseUrl);
  const root = `${base.pathname.replace(/\/+$/, '')}/v1`;
  if (
    url.origin !== base.origin ||
    (url.pathname !== root && !url.pathname.startsWith(`${root}/`))
  ) {
    throw refused(
      `leads to ${oneLine(url.pathname)}, outside ${base.origin}${root}/, the API under the base URL`,
    );
  }
  const rest = url.pathname.slice(root.length);
  const encoded = encodedSeparatorIn(rest);
  if (encoded !== undefined)
    throw refused(`holds ${encoded}, an encoded / \\ or . that a server may read as one`);
  const dots = rest.split('/').find(isDotSegment);
  if (dots !== undefined)
    throw refused(`holds the segment "${oneLine(dots)}", which a server may read as . or ..`);
  return url;
}
