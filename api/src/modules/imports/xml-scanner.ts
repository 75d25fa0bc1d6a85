// A streaming reader of the plain XML a spreadsheet's parts are written in. It holds at most one
// tag or one text at a time, and refuses a text longer than its bound as soon as it grows past it,
// so an expanded part of any size passes through in bounded memory. It expands only XML's own five
// entities and character references: a document type's entities (the "billion laughs") are never
// defined, let alone expanded.

export interface XmlHandler {
  /** An element opens; its name without namespace prefix, its attributes as written (prefix kept). */
  open(name: string, attributes: Record<string, string>): void;
  close(name: string): void;
  text(text: string): void;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * Whether XML allows the character at all. A reference to one it does not (NUL, a lone surrogate) is
 * not XML, and neither PostgreSQL's text nor its JSON could store it: it is left out.
 */
const isXmlChar = (code: number) =>
  code === 0x9 ||
  code === 0xa ||
  code === 0xd ||
  (code >= 0x20 && code <= 0xd7ff) ||
  (code >= 0xe000 && code <= 0xfffd) ||
  (code >= 0x10000 && code <= 0x10ffff);

function decodeEntities(raw: string): string {
  // A NUL byte written as such is no more XML than one written as a reference.
  const text = raw.includes('\0') ? raw.replaceAll('\0', '') : raw;
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, entity: string) => {
    if (entity.startsWith('#')) {
      const code = entity[1] === 'x' ? Number.parseInt(entity.slice(2), 16) : Number(entity.slice(1));
      return isXmlChar(code) ? String.fromCodePoint(code) : '';
    }
    return ENTITIES[entity] ?? whole;
  });
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** The attributes of a tag's text after its name: `name="value"` or `name='value'`, spaces between. */
function attributesOf(tag: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  let at = 0;
  for (;;) {
    const equals = tag.indexOf('=', at);
    if (equals === -1) return attributes;
    let open = equals + 1;
    while (tag.charCodeAt(open) <= SPACE) open += 1;
    const close = tag.indexOf(tag.charAt(open), open + 1);
    if (close === -1) return attributes;
    attributes[tag.slice(at, equals).trim()] = decodeEntities(tag.slice(open + 1, close));
    at = close + 1;
  }
}

const SPACE = 0x20;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const GREATER_THAN = 0x3e;

/** The end of the tag opened at `start`: its `>`, skipping any inside quoted attribute values. */
function tagEnd(buffer: string, start: number): number {
  let quote = 0;
  for (let at = start + 1; at < buffer.length; at++) {
    const char = buffer.charCodeAt(at);
    if (quote !== 0) {
      if (char === quote) quote = 0;
    } else if (char === DOUBLE_QUOTE || char === SINGLE_QUOTE) quote = char;
    else if (char === GREATER_THAN) return at;
  }
  return -1;
}

/** Markup that is neither an element nor text: its opening, and what closes it. */
const SKIPPED = [
  ['<?', '?>'],
  ['<!--', '-->'],
  ['<!DOCTYPE', '>'],
] as const;
const CDATA = ['<![CDATA[', ']]>'] as const;

export class XmlScanner {
  private pending = '';
  private readonly decoder = new TextDecoder('utf-8');

  /**
   * `maxPending` bounds the characters held while a text or tag is incomplete; `tooLong` is what to
   * throw when one grows past it.
   */
  constructor(
    private readonly handler: XmlHandler,
    private readonly maxPending: number,
    private readonly tooLong: () => Error,
  ) {}

  write(bytes: Uint8Array): void {
    this.scan(this.pending + this.decoder.decode(bytes, { stream: true }));
  }

  end(): void {
    this.scan(this.pending + this.decoder.decode());
    if (this.pending.trim() !== '') this.handler.text(decodeEntities(this.pending));
    this.pending = '';
  }

  private scan(buffer: string): void {
    let at = 0;
    while (at < buffer.length) {
      const open = buffer.indexOf('<', at);
      if (open === -1) break;
      if (open > at) this.handler.text(decodeEntities(buffer.slice(at, open)));
      at = open;
      const end = this.markup(buffer, open);
      if (end === -1) break;
      at = end;
    }
    this.pending = buffer.slice(at);
    if (this.pending.length > this.maxPending) throw this.tooLong();
  }

  /** Handles the markup starting at `open`; answers where it ends, or -1 when it is not all here yet. */
  private markup(buffer: string, open: number): number {
    const second = buffer.charAt(open + 1);
    if (second === '!' || second === '?') return this.special(buffer, open);
    const close = tagEnd(buffer, open);
    if (close === -1) return -1;
    const tag = buffer.slice(open + 1, close);
    if (second === '/') {
      this.handler.close(localName(tag.slice(1).trim()));
      return close + 1;
    }
    const selfClosing = tag.endsWith('/');
    const name = /^[^\s/>]+/.exec(tag)?.[0] ?? '';
    this.handler.open(localName(name), attributesOf(tag.slice(name.length)));
    if (selfClosing) this.handler.close(localName(name));
    return close + 1;
  }

  /** A declaration, comment, document type or CDATA section starting at `open`; where it ends, or -1. */
  private special(buffer: string, open: number): number {
    if (buffer.startsWith(CDATA[0], open)) {
      const close = buffer.indexOf(CDATA[1], open);
      if (close === -1) return -1;
      this.handler.text(buffer.slice(open + CDATA[0].length, close));
      return close + CDATA[1].length;
    }
    for (const [start, finish] of SKIPPED) {
      if (!buffer.startsWith(start, open)) continue;
      const close = buffer.indexOf(finish, open);
      return close === -1 ? -1 : close + finish.length;
    }
    // Markup of another kind is not in a spreadsheet's parts: read to its end and left out.
    const close = tagEnd(buffer, open);
    return close === -1 ? -1 : close + 1;
  }
}
