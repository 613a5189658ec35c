// A small multipart/form-data reader (RFC 7578). Works on Buffers so binary file parts come
// through byte for byte; only what the parse endpoint needs: names, file names, content types.

export interface FormPart {
  name: string;
  filename: string | null;
  contentType: string | null;
  data: Buffer;
}

export class MultipartError extends Error {
  override name = 'MultipartError';
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/** The boundary parameter of a multipart/form-data Content-Type, or null if it is not one. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^multipart\/form-data\s*(;|$)/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  return boundary && boundary.length <= 70 ? boundary : null;
}

export function parseMultipart(body: Buffer, boundary: string): FormPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  // Each part after the first is introduced by CRLF + delimiter; the CRLF belongs to the delimiter.
  const nextDelimiter = Buffer.from(`\r\n--${boundary}`);
  let position = body.indexOf(delimiter);
  if (position < 0) throw new MultipartError('multipart body has no boundary line');
  position += delimiter.length;

  const parts: FormPart[] = [];
  for (;;) {
    if (body.subarray(position, position + 2).toString('latin1') === '--') return parts; // closing delimiter
    // Transport padding (spaces, tabs) may follow a delimiter before its CRLF.
    while (body[position] === 0x20 || body[position] === 0x09) position++;
    if (!body.subarray(position, position + 2).equals(CRLF))
      throw new MultipartError('malformed boundary line');
    position += 2;

    const headerEnd = body.indexOf(HEADER_END, position);
    if (headerEnd < 0) throw new MultipartError('part headers are not terminated');
    const headers = parseHeaders(body.subarray(position, headerEnd).toString('utf8'));
    const dataStart = headerEnd + HEADER_END.length;
    const dataEnd = body.indexOf(nextDelimiter, dataStart);
    if (dataEnd < 0) throw new MultipartError('multipart body is not terminated');

    const disposition = headers.get('content-disposition') ?? '';
    const name = dispositionParam(disposition, 'name');
    if (!/^form-data\b/i.test(disposition) || name === null) {
      throw new MultipartError('part without Content-Disposition: form-data; name=...');
    }
    parts.push({
      name,
      filename: dispositionParam(disposition, 'filename'),
      contentType: headers.get('content-type') ?? null,
      data: body.subarray(dataStart, dataEnd),
    });
    position = dataEnd + nextDelimiter.length;
  }
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** A quoted or bare parameter of Content-Disposition. Browsers and undici escape `"` as %22. */
function dispositionParam(disposition: string, param: string): string | null {
  const match = new RegExp(`;\\s*${param}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, 'i').exec(
    disposition,
  );
  if (!match) return null;
  const raw = match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : (match[2] ?? '');
  return raw.replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
}
