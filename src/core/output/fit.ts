// How a table fits a terminal, boxed or streamed alike: its free-text columns give up room, the
// widest first, down to a floor; the other columns keep their width.

/** The narrowest a free-text column is made. */
const MIN_FLEX_WIDTH = 12;

/**
 * The widths narrowed until their sum fits `room`; as close as the floor allows when it cannot.
 * `flex[i]` marks the columns that may narrow.
 */
export function narrowToFit(widths: readonly number[], flex: readonly boolean[], room: number): number[] {
  const fitted = [...widths];
  let excess = fitted.reduce((a, b) => a + b, 0) - room;
  while (excess > 0) {
    let widest = -1;
    fitted.forEach((width, i) => {
      if (flex[i] && width > MIN_FLEX_WIDTH && (widest < 0 || width > fitted[widest]!)) widest = i;
    });
    if (widest < 0) break;
    fitted[widest]!--;
    excess--;
  }
  return fitted;
}

/** The text cut to `width` characters, its last one an ellipsis when cut. */
export function cutToWidth(value: string, width: number): string {
  const chars = [...value];
  return chars.length <= width ? value : chars.slice(0, Math.max(0, width - 1)).join('') + '…';
}
