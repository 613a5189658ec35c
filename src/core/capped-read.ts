// Local input read whole, within a limit: a device (/dev/zero) or a pipe has no size to look at
// first and may never end, so the bytes are counted as they come.

/**
 * The bytes of `input`; `tooLarge()` is thrown as soon as they pass `limit`, so no more than one
 * chunk past the limit is ever held. The input is left open: closing it is the caller's.
 */
export async function readCapped(
  input: AsyncIterable<Buffer | string>,
  limit: number,
  tooLarge: () => Error,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > limit) throw tooLarge();
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, size);
}
