import {
  ATTRIBUTES,
  AttributeKind,
  DANGEROUS_CSS_WORDS,
  DANGEROUS_SCHEMES,
  DANGEROUS_TAG_PREFIXES,
  EVENT_NAMES,
  LOADING_TAGS,
  NAMED_REFERENCES,
  SCRIPT_ATTRIBUTE_PREFIXES,
  SCRIPT_TAGS,
} from './xss-names.js';

/**
 * A detector of HTML injection in the manner of libinjection's XSS detector (ModSecurity's `@detectXSS`,
 * used by CRS rule 941100), written for this project from libinjection's published description.
 *
 * A value is dangerous when, pasted into an HTML page, it would start markup that runs script. We do not know
 * where the application pastes it, so the value is read by a small HTML5 tokenizer five times, each starting
 * in one of the places a value usually lands: in text between tags, inside a tag (an unquoted attribute value
 * the value can leave with a space, or where attributes go), and inside a single-, double- or back-quoted
 * attribute value (which the value can close with its quote). Each reading follows the tokenizer states of
 * the HTML Living Standard (§13.2.5), simplified to the tokens that matter here — tag names, attribute names,
 * attribute values, comments, declarations — and judges every token as it ends:
 *
 * - a start tag of an element that runs script or style (`script`, `style`, `svg`, the raw-text elements…,
 *   also under a namespace prefix, `<x:script>`, and any `xsl:` element) is an attack; one that loads content
 *   through its attributes (`iframe`, `object`, `embed`, `base`, `link`, `meta`…) is an attack as soon as it
 *   has an attribute; an end tag not closed at once (`</script x`, a value ending in `</script`) counts as a
 *   start tag;
 * - an attribute value is judged by its attribute: any value of an event handler (`on` + a known event; inside
 *   a tag the value itself opened, `on` + any three letters or more), a namespace declaration or IE data
 *   binding; a URL (`href`, `src`, `action`, `formaction`, `data`, `xlink:href`…) whose scheme runs script
 *   (`javascript:`, `vbscript:`, `data:` other than a non-SVG image…, read through character references,
 *   whitespace and controls); CSS (`style`) that uses `expression(`, `behavior`, `-moz-binding`, `@import` or
 *   a script URL; `srcdoc` that holds markup; SVG's `attributeName` naming one of those;
 * - a DOCTYPE, an XML declaration or processing instruction (`<?xml`, `<?import`), an entity declaration, an
 *   Internet Explorer conditional comment (`<!--[if`) or a comment holding a backquote is an attack.
 *
 * Plain formatting (`<b>`, `<i>`, `<a href="https://…">`, `<img src=…>`, `<span style="color:red">`) is not an
 * attack, nor is a `<` that does not start a tag (`a < b`, `<3`; `<jane@example.com>` reads as a harmless
 * unknown element). A bare `javascript:` URL is not judged: there is no markup in it (other CRS rules look
 * for those). Where libinjection is stricter we chose fewer false alarms: it flags every `style` attribute,
 * every `data:` URL, `<iframe>` or `<object>` without attributes (`List<Object>`), and any attribute whose
 * name starts with `on` even outside a tag (`onboarding=true`).
 *
 * Each reading visits every character a bounded number of times, so the whole is linear in the length of the
 * input; it allocates only small strings for the names of tags and attributes it meets (and a copy of a CSS
 * value, to read it without its comments and escapes). It never throws.
 */
export function detectXss(input: string): boolean {
  if (typeof input !== 'string') return false;
  // Every verdict needs a tag (`<`) or an attribute value (`=`): most values have neither.
  if (input.indexOf('<') < 0 && input.indexOf('=') < 0) return false;
  return (
    read(input, TEXT, 0) ||
    read(input, BEFORE_ATTRIBUTE_NAME, 0) ||
    read(input, QUOTED_VALUE, SINGLE_QUOTE) ||
    read(input, QUOTED_VALUE, DOUBLE_QUOTE) ||
    read(input, QUOTED_VALUE, BACKQUOTE)
  );
}

// Characters.
const NUL = 0x00;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const BANG = 0x21;
const DOUBLE_QUOTE = 0x22;
const HASH = 0x23;
const PERCENT = 0x25;
const AMPERSAND = 0x26;
const SINGLE_QUOTE = 0x27;
const ASTERISK = 0x2a;
const DASH = 0x2d;
const SLASH = 0x2f;
const SEMICOLON = 0x3b;
const LESS_THAN = 0x3c;
const EQUALS = 0x3d;
const GREATER_THAN = 0x3e;
const QUESTION = 0x3f;
const LEFT_BRACKET = 0x5b;
const BACKSLASH = 0x5c;
const BACKQUOTE = 0x60;

/** HTML's whitespace, plus the vertical tab that Internet Explorer also skipped. */
function isSpace(c: number): boolean {
  return c === SPACE || (c >= TAB && c <= CR);
}

/** The index of the first character from `i` that is neither whitespace nor NUL (ignored between attributes). */
function skipSpace(s: string, i: number, n: number): number {
  let k = i;
  while (k < n) {
    const c = s.charCodeAt(k);
    if (!isSpace(c) && c !== NUL) break;
    k += 1;
  }
  return k;
}

function isLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

function hexValue(c: number): number {
  return c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57;
}

function lower(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
}

// Tokenizer states (HTML Living Standard §13.2.5, simplified).
const TEXT = 0;
const TAG_OPEN = 1;
const END_TAG_OPEN = 2;
const TAG_NAME = 3;
const BEFORE_ATTRIBUTE_NAME = 4;
const ATTRIBUTE_NAME = 5;
const AFTER_ATTRIBUTE_NAME = 6;
const BEFORE_ATTRIBUTE_VALUE = 7;
const QUOTED_VALUE = 8;
const UNQUOTED_VALUE = 9;
const AFTER_QUOTED_VALUE = 10;
const SELF_CLOSING = 11;
const MARKUP_DECLARATION = 12;

/**
 * One reading of `s` from the tokenizer state `state` (and, for a quoted value, its quote): true as soon as a
 * token is judged an attack. Every state either consumes a character or hands over to a state that does.
 */
function read(s: string, state: number, quote: number): boolean {
  const n = s.length;
  let i = 0;
  /** How the value of the attribute just named is judged. */
  let kind: AttributeKind = AttributeKind.None;
  /** The tag being read is an end tag: its name is not judged. */
  let endTag = false;
  /** The tag being read loads content through its attributes: any attribute makes it an attack. */
  let loading = false;
  /**
   * The attributes being read belong to a start tag seen in the value (not to the tag the value was assumed
   * to be pasted in): there, `on` + any letters is an event handler, listed or not.
   */
  let inTag = false;
  let c = 0;
  for (;;) {
    switch (state) {
      case TEXT: {
        const lt = s.indexOf('<', i);
        if (lt < 0) return false;
        i = lt + 1;
        state = TAG_OPEN;
        break;
      }
      case TAG_OPEN: {
        if (i >= n) return false;
        c = s.charCodeAt(i);
        endTag = false;
        loading = false;
        inTag = false;
        if (c === BANG) {
          i += 1;
          state = MARKUP_DECLARATION;
        } else if (c === SLASH) {
          i += 1;
          state = END_TAG_OPEN;
        } else if (c === QUESTION) {
          // A processing instruction (`<?xml …?>`) is a bogus comment up to the next `>`.
          i = bogusComment(s, i + 1, n);
          if (i < 0) return true;
          state = TEXT;
        } else if (c === PERCENT) {
          // Old Internet Explorer and Safari read `<% … %>` as a comment.
          const close = s.indexOf('%>', i + 1);
          const end = close < 0 ? n : close;
          if (suspiciousComment(s, i + 1, end)) return true;
          if (close < 0) return false;
          i = close + 2;
          state = TEXT;
        } else if (isLetter(c) || c === NUL) {
          state = TAG_NAME;
        } else {
          // Not a tag: `a < b`, `<3`. The character is text (it may be another `<`).
          state = TEXT;
        }
        break;
      }
      case END_TAG_OPEN: {
        if (i >= n) return false;
        c = s.charCodeAt(i);
        if (c === GREATER_THAN) {
          i += 1;
          state = TEXT;
        } else if (isLetter(c)) {
          endTag = true;
          state = TAG_NAME;
        } else {
          i = bogusComment(s, i, n);
          if (i < 0) return true;
          state = TEXT;
        }
        break;
      }
      case TAG_NAME: {
        const start = i;
        while (i < n) {
          c = s.charCodeAt(i);
          if (isSpace(c) || c === SLASH || c === GREATER_THAN) break;
          i += 1;
        }
        // An end tag closed at once (`</script>`) is not judged. One that goes on (`</script x`, or a value
        // ending in `</script`) is judged as a start tag, as libinjection does: browsers ignore what follows an
        // end tag's name, but a value that ends a script block that way is breaking out of one.
        if (!endTag || i >= n || c !== GREATER_THAN) {
          const verdict = tagVerdict(s, start, i);
          if (verdict === SCRIPT_TAG) return true;
          loading = verdict === LOADING_TAG;
          inTag = true;
        }
        if (i >= n) return false;
        i += 1;
        state = c === GREATER_THAN ? TEXT : c === SLASH ? SELF_CLOSING : BEFORE_ATTRIBUTE_NAME;
        break;
      }
      case BEFORE_ATTRIBUTE_NAME: {
        i = skipSpace(s, i, n);
        if (i >= n) return false;
        c = s.charCodeAt(i);
        if (c === SLASH) {
          i += 1;
          state = SELF_CLOSING;
        } else if (c === GREATER_THAN) {
          i += 1;
          state = TEXT;
        } else {
          state = ATTRIBUTE_NAME;
        }
        break;
      }
      case ATTRIBUTE_NAME: {
        // The first character belongs to the name whatever it is (`=` included, as in the standard).
        const start = i;
        i += 1;
        while (i < n) {
          c = s.charCodeAt(i);
          if (isSpace(c) || c === SLASH || c === GREATER_THAN || c === EQUALS) break;
          i += 1;
        }
        if (loading) return true;
        kind = attributeKind(s, start, i, inTag);
        if (i >= n) return false;
        i += 1;
        state =
          c === EQUALS
            ? BEFORE_ATTRIBUTE_VALUE
            : c === GREATER_THAN
              ? TEXT
              : c === SLASH
                ? SELF_CLOSING
                : AFTER_ATTRIBUTE_NAME;
        break;
      }
      case AFTER_ATTRIBUTE_NAME: {
        i = skipSpace(s, i, n);
        if (i >= n) return false;
        c = s.charCodeAt(i);
        if (c === EQUALS) {
          i += 1;
          state = BEFORE_ATTRIBUTE_VALUE;
        } else if (c === SLASH) {
          i += 1;
          state = SELF_CLOSING;
        } else if (c === GREATER_THAN) {
          i += 1;
          state = TEXT;
        } else {
          state = ATTRIBUTE_NAME;
        }
        break;
      }
      case BEFORE_ATTRIBUTE_VALUE: {
        i = skipSpace(s, i, n);
        // `<x onend=` at the end of the value: no value, nothing to run (as libinjection judges it).
        if (i >= n) return false;
        c = s.charCodeAt(i);
        if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE || c === BACKQUOTE) {
          // The backquote quoted values for Internet Explorer.
          quote = c;
          i += 1;
          state = QUOTED_VALUE;
        } else {
          state = UNQUOTED_VALUE;
        }
        break;
      }
      case QUOTED_VALUE: {
        const close = s.indexOf(quote === DOUBLE_QUOTE ? '"' : quote === SINGLE_QUOTE ? "'" : '`', i);
        const end = close < 0 ? n : close;
        if (valueIsAttack(kind, s, i, end)) return true;
        kind = AttributeKind.None;
        if (close < 0) return false;
        i = close + 1;
        state = AFTER_QUOTED_VALUE;
        break;
      }
      case UNQUOTED_VALUE: {
        const start = i;
        while (i < n) {
          c = s.charCodeAt(i);
          if (isSpace(c) || c === GREATER_THAN) break;
          i += 1;
        }
        if (valueIsAttack(kind, s, start, i)) return true;
        kind = AttributeKind.None;
        if (i >= n) return false;
        i += 1;
        state = c === GREATER_THAN ? TEXT : BEFORE_ATTRIBUTE_NAME;
        break;
      }
      case AFTER_QUOTED_VALUE: {
        if (i >= n) return false;
        c = s.charCodeAt(i);
        if (isSpace(c)) {
          i += 1;
          state = BEFORE_ATTRIBUTE_NAME;
        } else if (c === SLASH) {
          i += 1;
          state = SELF_CLOSING;
        } else if (c === GREATER_THAN) {
          i += 1;
          state = TEXT;
        } else {
          // `<img src="x"onerror=…>`: a parse error, but the next attribute starts here.
          state = BEFORE_ATTRIBUTE_NAME;
        }
        break;
      }
      case SELF_CLOSING: {
        if (i >= n) return false;
        if (s.charCodeAt(i) === GREATER_THAN) {
          i += 1;
          state = TEXT;
        } else {
          state = BEFORE_ATTRIBUTE_NAME;
        }
        break;
      }
      case MARKUP_DECLARATION: {
        if (startsWithWord(s, i, n, 'doctype')) return true;
        if (s.startsWith('--', i)) {
          i = comment(s, i + 2, n);
          if (i < 0) return true;
          if (i >= n) return false;
        } else if (s.startsWith('[CDATA[', i)) {
          // In SVG and MathML a CDATA section is text; elsewhere a bogus comment. Either way what follows is
          // read as markup, which judges more rather than less.
          i += 7;
        } else {
          // `<!ENTITY …>`, `<!ELEMENT …>`, `<![if …]>`: bogus comments up to the next `>`.
          i = bogusComment(s, i, n);
          if (i < 0) return true;
        }
        state = TEXT;
        break;
      }
      default:
        return false;
    }
  }
}

/**
 * A bogus comment from `start` to the next `>`: the index after it, `n` when it runs to the end, or -1 when it
 * is an attack.
 */
function bogusComment(s: string, start: number, n: number): number {
  const close = s.indexOf('>', start);
  const end = close < 0 ? n : close;
  if (suspiciousComment(s, start, end)) return -1;
  return close < 0 ? n : close + 1;
}

/**
 * A comment whose body starts at `start` (after `<!--`): the index after it (`-->`, `--!>`, or the end of the
 * input), or -1 when it is an attack.
 */
function comment(s: string, start: number, n: number): number {
  // `<!-->` and `<!--->` close at once (the standard's abrupt closing of an empty comment).
  if (s.charCodeAt(start) === GREATER_THAN) return start + 1;
  if (s.charCodeAt(start) === DASH && s.charCodeAt(start + 1) === GREATER_THAN) return start + 2;
  let from = start;
  for (;;) {
    const dashes = s.indexOf('--', from);
    if (dashes < 0) return suspiciousComment(s, start, n) ? -1 : n;
    let after = dashes + 2;
    while (s.charCodeAt(after) === DASH) after += 1;
    let next = -1;
    if (s.charCodeAt(after) === GREATER_THAN) next = after + 1;
    else if (s.charCodeAt(after) === BANG && s.charCodeAt(after + 1) === GREATER_THAN) next = after + 2;
    if (next >= 0) return suspiciousComment(s, start, dashes) ? -1 : next;
    from = after;
  }
}

/**
 * Comments that are markup to some parser: a backquote (Internet Explorer ended tags with it), a conditional
 * comment (`[if …]`), an XML declaration or processing instruction (`xml`, `xml-stylesheet`), Internet
 * Explorer's `<?import>`, an entity declaration (`<!ENTITY`).
 */
function suspiciousComment(s: string, start: number, end: number): boolean {
  let p = start;
  while (p < end && (isSpace(s.charCodeAt(p)) || s.charCodeAt(p) === NUL)) p += 1;
  if (s.charCodeAt(p) === LEFT_BRACKET && startsWithWord(s, p + 1, end, 'if')) return true;
  if (startsWithWord(s, p, end, 'xml') || startsWithWord(s, p, end, 'import')) return true;
  if (startsWithWord(s, p, end, 'entity')) return true;
  for (let k = start; k < end; k++) if (s.charCodeAt(k) === BACKQUOTE) return true;
  return false;
}

/** Whether `s` has `word` (lower case ASCII) at `at`, before `end`, in any case. */
function startsWithWord(s: string, at: number, end: number, word: string): boolean {
  if (at + word.length > end) return false;
  for (let k = 0; k < word.length; k++) {
    if (lower(s.charCodeAt(at + k)) !== word.charCodeAt(k)) return false;
  }
  return true;
}

/** Longer names than this are none we know (the longest event is some 40 characters). */
const MAX_NAME = 64;

/** The lower-case name between `start` and `end`, without NULs (which old browsers ignored), if short. */
function foldName(s: string, start: number, end: number): string | undefined {
  if (end - start > 4 * MAX_NAME) return undefined;
  let name = s.slice(start, end);
  if (name.indexOf('\0') >= 0) name = name.replaceAll('\0', '');
  if (name.length > MAX_NAME) return undefined;
  return name.toLowerCase();
}

const HARMLESS_TAG = 0;
const SCRIPT_TAG = 1;
const LOADING_TAG = 2;

/** What a start tag's name says: harmless, an attack, or an attack once it has an attribute. */
function tagVerdict(s: string, start: number, end: number): number {
  const name = foldName(s, start, end);
  if (name === undefined || name.length === 0) return HARMLESS_TAG;
  // `<x:script xmlns:x="http://www.w3.org/1999/xhtml">`: in XML a prefix can name the XHTML namespace.
  const colon = name.indexOf(':');
  const local = colon < 0 ? name : name.slice(name.lastIndexOf(':') + 1);
  if (colon > 0 && DANGEROUS_TAG_PREFIXES.has(name.slice(0, colon))) return SCRIPT_TAG;
  if (SCRIPT_TAGS.has(local)) return SCRIPT_TAG;
  if (LOADING_TAGS.has(local)) return LOADING_TAG;
  return HARMLESS_TAG;
}

/**
 * How the value of the attribute named between `start` and `end` is judged. Event handlers are the listed
 * events after `on`; inside a start tag read from the value (`anyEvent`) also `on` + any letters, since
 * browsers keep adding events (`<xss onbeforesomethingnew=…>`); outside, the list spares text such as
 * `once=true`.
 */
function attributeKind(s: string, start: number, end: number, anyEvent: boolean): AttributeKind {
  const name = foldName(s, start, end);
  if (name === undefined || name.length < 2) return AttributeKind.None;
  if (name.charCodeAt(0) === 0x6f && name.charCodeAt(1) === 0x6e) {
    if (EVENT_NAMES.has(name.slice(2))) return AttributeKind.Script;
    if (anyEvent && isEventLike(name)) return AttributeKind.Script;
  }
  const known = ATTRIBUTES.get(name);
  if (known !== undefined) return known;
  for (const prefix of SCRIPT_ATTRIBUTE_PREFIXES) if (name.startsWith(prefix)) return AttributeKind.Script;
  return AttributeKind.None;
}

/** `on` and at least three letters, nothing else: how every event handler's name is spelled. */
function isEventLike(name: string): boolean {
  if (name.length < 5) return false;
  for (let k = 2; k < name.length; k++) {
    const c = name.charCodeAt(k);
    if (c < 0x61 || c > 0x7a) return false;
  }
  return true;
}

/** Whether the value between `start` and `end`, of an attribute of kind `kind`, is an attack. */
function valueIsAttack(kind: AttributeKind, s: string, start: number, end: number): boolean {
  switch (kind) {
    case AttributeKind.None:
      return false;
    case AttributeKind.Script:
      return true;
    case AttributeKind.Url:
      return dangerousUrl(s, start, end);
    case AttributeKind.Style:
      return dangerousCss(s, start, end);
    case AttributeKind.Html:
      for (let k = start; k < end; k++) {
        const c = s.charCodeAt(k);
        if (c === LESS_THAN || c === AMPERSAND) return true;
      }
      return false;
    case AttributeKind.Indirect: {
      let from = start;
      let to = end;
      while (from < to && isSpace(s.charCodeAt(from))) from += 1;
      while (to > from && isSpace(s.charCodeAt(to - 1))) to -= 1;
      return attributeKind(s, from, to, true) !== AttributeKind.None;
    }
    default:
      return false;
  }
}

/** Where the character decoded by `decodeAt` ends. */
let decodedEnd = 0;

/**
 * The character at `p` (before `end`), reading a character reference (`&#106;`, `&#x6A;`, `&colon;`, with or
 * without its semicolon) as the character it stands for; sets `decodedEnd` to the index after it.
 */
function decodeAt(s: string, p: number, end: number): number {
  const c = s.charCodeAt(p);
  decodedEnd = p + 1;
  if (c !== AMPERSAND || p + 2 > end) return c;
  let q = p + 1;
  if (s.charCodeAt(q) === HASH) {
    q += 1;
    let value = 0;
    let digits = 0;
    if ((s.charCodeAt(q) | 0x20) === 0x78) {
      q += 1;
      while (q < end && isHexDigit(s.charCodeAt(q))) {
        value = Math.min(value * 16 + hexValue(s.charCodeAt(q)), 0x110000);
        q += 1;
        digits += 1;
      }
    } else {
      while (q < end && s.charCodeAt(q) >= 0x30 && s.charCodeAt(q) <= 0x39) {
        value = Math.min(value * 10 + s.charCodeAt(q) - 0x30, 0x110000);
        q += 1;
        digits += 1;
      }
    }
    if (digits === 0) return c;
    if (q < end && s.charCodeAt(q) === SEMICOLON) q += 1;
    decodedEnd = q;
    return value;
  }
  // A named reference: letters, then an optional semicolon.
  while (q < end && q - p <= 8 && isLetter(s.charCodeAt(q))) q += 1;
  const named = NAMED_REFERENCES.get(s.slice(p + 1, q).toLowerCase());
  if (named === undefined) return c;
  if (q < end && s.charCodeAt(q) === SEMICOLON) q += 1;
  decodedEnd = q;
  return named;
}

/**
 * Whether the decoded value from `p` starts with `word` (lower case), in any case, skipping the tabs,
 * newlines and NULs that browsers drop from URLs: the index after the match, or -1.
 */
function matchUrlWord(s: string, p: number, end: number, word: string): number {
  let k = 0;
  while (k < word.length) {
    if (p >= end) return -1;
    const c = decodeAt(s, p, end);
    p = decodedEnd;
    if (c === TAB || c === LF || c === CR || c === NUL) continue;
    if (lower(c) !== word.charCodeAt(k)) return -1;
    k += 1;
  }
  return p;
}

/** Whether the URL between `start` and `end` has a scheme that runs script or carries a document. */
function dangerousUrl(s: string, start: number, end: number): boolean {
  let p = start;
  // Browsers skip leading spaces and controls; non-ASCII bytes are skipped too (some were read as spaces).
  while (p < end) {
    const c = decodeAt(s, p, end);
    if (c > SPACE && c < 0x7f) break;
    p = decodedEnd;
  }
  for (const scheme of DANGEROUS_SCHEMES) {
    const after = matchUrlWord(s, p, end, scheme);
    if (after < 0) continue;
    if (scheme === 'data:') return !harmlessData(s, after, end);
    return true;
  }
  return false;
}

/** Whether a `data:` URL's media type, from `p`, is an image other than SVG (images cannot run script). */
function harmlessData(s: string, p: number, end: number): boolean {
  let q = p;
  while (q < end && isSpace(s.charCodeAt(q))) q += 1;
  const after = matchUrlWord(s, q, end, 'image/');
  return after >= 0 && matchUrlWord(s, after, end, 'svg') < 0;
}

/**
 * Whether the CSS between `start` and `end` uses what ran script in some browser. It is read without
 * whitespace, comments, escapes and character references, in lower case, then searched for the words of
 * `DANGEROUS_CSS_WORDS` and for `url(` with a dangerous scheme.
 */
function dangerousCss(s: string, start: number, end: number): boolean {
  let text = '';
  let p = start;
  while (p < end) {
    let c = decodeAt(s, p, end);
    p = decodedEnd;
    if (c === SLASH && p < end && s.charCodeAt(p) === ASTERISK) {
      // A comment: skip to its `*/`, or to the end of the value.
      p += 1;
      while (p < end && !(s.charCodeAt(p) === ASTERISK && s.charCodeAt(p + 1) === SLASH)) p += 1;
      p = Math.min(p + 2, end);
      continue;
    }
    if (c === BACKSLASH) {
      // A CSS escape: up to six hexadecimal digits and one optional space, or the next character itself.
      let value = 0;
      let digits = 0;
      while (p < end && digits < 6 && isHexDigit(s.charCodeAt(p))) {
        value = value * 16 + hexValue(s.charCodeAt(p));
        p += 1;
        digits += 1;
      }
      if (digits > 0) {
        if (p < end && isSpace(s.charCodeAt(p))) p += 1;
        c = value;
      } else if (p < end) {
        c = s.charCodeAt(p);
        p += 1;
      } else {
        continue;
      }
    }
    if (isSpace(c) || c === NUL) continue;
    text += String.fromCharCode(lower(c));
  }
  for (const word of DANGEROUS_CSS_WORDS) if (text.includes(word)) return true;
  for (let u = text.indexOf('url('); u >= 0; u = text.indexOf('url(', u + 4)) {
    let q = u + 4;
    const open = text.charCodeAt(q);
    if (open === DOUBLE_QUOTE || open === SINGLE_QUOTE) q += 1;
    if (dangerousUrl(text, q, text.length)) return true;
  }
  return false;
}
