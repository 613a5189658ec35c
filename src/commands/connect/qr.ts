// A QR code as text for a terminal. qrcode-generator (no dependencies of its own) makes the
// modules; each line of text shows two rows of them with the half blocks ▀ ▄ █, a dark module
// being drawn in the foreground colour.
import qrcode from 'qrcode-generator';

/** Rows of modules, `true` for a dark one; as many rows as columns. */
export type QrModules = boolean[][];

/**
 * The modules of the QR code of `text`: its UTF-8 bytes in byte mode, error correction level M,
 * the smallest version that holds them.
 */
export function qrModules(text: string): QrModules {
  const code = qrcode(0, 'M');
  // qrcode-generator keeps the low byte of each UTF-16 unit: hand it the UTF-8 bytes one by one.
  code.addData(Buffer.from(text, 'utf8').toString('latin1'), 'Byte');
  code.make();
  const size = code.getModuleCount();
  return Array.from({ length: size }, (_, row) =>
    Array.from({ length: size }, (_, col) => code.isDark(row, col)),
  );
}

const BLACK_ON_WHITE = '\u001b[47m\u001b[30m';
const RESET = '\u001b[0m';
const HALVES = [' ', '▄', '▀', '█']; // by (top dark ? 2 : 0) + (bottom dark ? 1 : 0)

/**
 * The modules as lines of text, `margin` light modules around them (the quiet zone). With colour,
 * black on white, so a dark terminal shows the code the right way round; without, the dark
 * modules are in the terminal's foreground colour (inverted on a dark terminal, which most phone
 * cameras still read).
 */
export function renderQr(modules: QrModules, options: { color: boolean; margin?: number }): string {
  const margin = options.margin ?? 1;
  const size = modules.length;
  const dark = (row: number, col: number): boolean =>
    modules[row - margin]?.[col - margin] ?? false;
  const lines: string[] = [];
  for (let row = 0; row < size + 2 * margin; row += 2) {
    let line = '';
    for (let col = 0; col < size + 2 * margin; col++)
      line += HALVES[(dark(row, col) ? 2 : 0) + (dark(row + 1, col) ? 1 : 0)];
    lines.push(options.color ? `${BLACK_ON_WHITE}${line}${RESET}` : line);
  }
  return `${lines.join('\n')}\n`;
}

/** `text` as a QR code for a terminal. */
export function qrText(text: string, options: { color: boolean }): string {
  return renderQr(qrModules(text), options);
}
