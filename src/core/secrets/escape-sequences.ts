// Terminal escape sequences, told apart from text one character at a time, as a terminal's parser
// does (ECMA-48, the DEC/xterm state machine): ESC sequences, CSI (`ESC [` or C1 U+009B) and the
// control strings OSC, DCS, SOS, PM and APC (`ESC ]`, `ESC P`, … or their C1 forms) up to their
// terminator. A terminal shows none of it, so a secret split by one reads whole on the screen.
// Constant work per character and no look-ahead: a text of any length is read in one pass.

const ESC = 0x1b;
const BEL = 0x07;
const CAN = 0x18;
const SUB = 0x1a;
/** C1 String Terminator; `ESC \` is its 7-bit form. */
const ST = 0x9c;
const C1_CSI = 0x9b;
/** C1 forms of DCS, SOS, OSC, PM and APC. */
const C1_STRING_STARTS = new Set([0x90, 0x98, 0x9d, 0x9e, 0x9f]);
/** What follows ESC to start a control string: DCS `P`, SOS `X`, OSC `]`, PM `^`, APC `_`. */
const STRING_STARTS = new Set([0x50, 0x58, 0x5d, 0x5e, 0x5f]);

/** Where the reading stands: in text, or in which part of a sequence. */
const State = {
  Text: 0,
  /** After ESC. */
  Escape: 1,
  /** After ESC and intermediate bytes (`ESC ( B` selects a character set). */
  EscapeIntermediate: 2,
  /** After `ESC [` or U+009B: parameters and intermediates up to a final byte. */
  Csi: 3,
  /** Inside OSC, DCS, SOS, PM or APC: everything up to BEL or ST. */
  ControlString: 4,
  /** ESC inside a control string: `\` ends it, anything else ends it and starts a new sequence. */
  ControlStringEscape: 5,
} as const;
type State = (typeof State)[keyof typeof State];

const isIntermediate = (c: number) => c >= 0x20 && c <= 0x2f;
const isCsiParameter = (c: number) => c >= 0x30 && c <= 0x3f;
const isEscapeFinal = (c: number) => c >= 0x30 && c <= 0x7e;
const isCsiFinal = (c: number) => c >= 0x40 && c <= 0x7e;

export class EscapeSequences {
  private state: State = State.Text;

  /** Whether the last character read was text, not inside a sequence. */
  get inText(): boolean {
    return this.state === State.Text;
  }

  /** Whether this character (a code point, the next of the text) belongs to an escape sequence. */
  take(c: number): boolean {
    switch (this.state) {
      case State.Text:
        return this.start(c);
      case State.Escape:
        if (c === 0x5b) this.state = State.Csi;
        else if (STRING_STARTS.has(c)) this.state = State.ControlString;
        else if (isIntermediate(c)) this.state = State.EscapeIntermediate;
        else if (c === ESC) this.state = State.Escape;
        else if (isEscapeFinal(c)) this.state = State.Text;
        else return this.start(c);
        return true;
      case State.EscapeIntermediate:
        if (isIntermediate(c)) return true;
        if (isEscapeFinal(c)) {
          this.state = State.Text;
          return true;
        }
        return this.start(c);
      case State.Csi:
        if (isCsiParameter(c) || isIntermediate(c)) return true;
        if (isCsiFinal(c)) {
          this.state = State.Text;
          return true;
        }
        // Out of the grammar (a line break, another ESC): the sequence ends before it.
        return this.start(c);
      case State.ControlString:
        if (c === ESC) this.state = State.ControlStringEscape;
        else if (c === BEL || c === ST || c === CAN || c === SUB) this.state = State.Text;
        return true;
      case State.ControlStringEscape:
        if (c === 0x5c) {
          this.state = State.Text;
          return true;
        }
        this.state = State.Escape;
        return this.take(c);
    }
  }

  /** Whether `c`, read as text, starts a sequence. */
  private start(c: number): boolean {
    if (c === ESC) this.state = State.Escape;
    else if (c === C1_CSI) this.state = State.Csi;
    else if (C1_STRING_STARTS.has(c)) this.state = State.ControlString;
    else {
      this.state = State.Text;
      return false;
    }
    return true;
  }
}
