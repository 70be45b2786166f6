import { EVENT_NAMES } from '../../../../eval/functions/waf/xss-names.js';
import { type CrsRule, crsExpression } from '../crs.js';

/**
 * CRS 941: cross-site scripting. Markup and script sent to be reflected into a page: script and other
 * dangerous tags, event-handler and URL attributes, `javascript:` and `data:` URLs, style sheets that run
 * code, the DOM properties and functions payloads call, and the encodings that hide them from filters
 * (HTML entities, UTF-7, look-alike bytes, JSFuck).
 *
 * Most rules test values after CRS's decoding chain — `utf8toUnicode` then `urlDecodeUni` turn full-width
 * and `%u` forms back into ASCII, then HTML entities, JavaScript and CSS escapes are decoded and NUL bytes
 * removed — so the regexes are written for plain markup, with case ignored.
 */

const TAGS = ['application-multi', 'language-multi', 'platform-multi', 'attack-xss', 'xss-perf-disable'];
const TAGS_PCI = [...TAGS, 'PCI/6.5.1'];

/** The full decoding chain of most 941 rules. */
const DECODED = 'none,utf8toUnicode,urlDecodeUni,htmlEntityDecode,jsDecode,cssDecode,removeNulls';

/** What most PL1 rules inspect: cookies (not Google Analytics'), argument names and values, path, XML. */
const TARGETS =
  'REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|REQUEST_COOKIES_NAMES|ARGS_NAMES|ARGS|REQUEST_FILENAME|XML:/*';
/** The same without Matomo's referrer cookie, which holds a whole URL (PL2 rules that look for quotes and tags). */
const TARGETS_NO_PK =
  'REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|!REQUEST_COOKIES:/_pk_ref/|REQUEST_COOKIES_NAMES|ARGS_NAMES|ARGS|REQUEST_FILENAME|XML:/*';

/**
 * CRS inspects the path with its XSS rules (those tagged `xss-perf-disable`) only when it has a byte other
 * than letters, digits, `-./_` and byte 20 (rule 941010, whose list is in decimal): a plain path such as
 * `/docs/document.cookie` can hold no markup, and its words would otherwise match the keyword rules.
 */
const PLAIN_PATH = 'waf_bytes_within(waf.request.filename, "20,45-57,65-90,95,97-122")';

/** The rule with its path target inspected only when the path is not plain (above). */
function sparingPlainPaths(rule: CrsRule): CrsRule {
  const targets = rule.targets?.split('|') ?? [];
  if (rule.expression !== undefined || !targets.includes('REQUEST_FILENAME')) return rule;
  const others = targets.filter((target) => target !== 'REQUEST_FILENAME').join('|');
  const onOthers = others ? crsExpression({ ...rule, targets: others }) : 'false';
  const onPath = crsExpression({ ...rule, targets: 'REQUEST_FILENAME' });
  return { ...rule, expression: `${onOthers} or (not ${PLAIN_PATH} and ${onPath})` };
}

/**
 * A rule that matches when any of several regexes matches, each run on its own: V8 runs a very large
 * regex far more slowly than its parts (941160's list of attributes is 17 KB once its letters are
 * case-folded), and each part starts with a character V8 can skip to.
 */
function anyRegex(rule: CrsRule, regexes: readonly string[]): CrsRule {
  const parts = regexes.map((regex) => sparingPlainPaths({ ...rule, test: { regex } }));
  return { ...rule, expression: parts.map((part) => `(${crsExpression(part)})`).join(' or ') };
}

// ——— Building blocks ———

/**
 * Words (lower case, regex-safe) as one alternation factored by common prefixes — `on(?:abort|blur|…)` as
 * `on(?:a(?:bort|…)|b(?:lur|…)|…)` — so that the regex engine tries at each letter only the branches that
 * still fit, not hundreds of words one after the other. `between` goes between letters.
 */
function wordTrie(words: readonly string[], between = ''): string {
  interface Node {
    end: boolean;
    readonly next: Map<string, Node>;
  }
  const root: Node = { end: false, next: new Map() };
  for (const word of words) {
    let node = root;
    for (const ch of word) {
      let child = node.next.get(ch);
      if (!child) {
        child = { end: false, next: new Map() };
        node.next.set(ch, child);
      }
      node = child;
    }
    node.end = true;
  }
  // The alternation of a node's continuations; what may follow a letter, optional where a word ends.
  const alternatives = (node: Node): string => {
    const branches = [...node.next.keys()].sort().map((ch) => ch + rest(node.next.get(ch) as Node));
    return branches.length === 1 ? (branches[0] as string) : `(?:${branches.join('|')})`;
  };
  const rest = (node: Node): string => {
    if (node.next.size === 0) return '';
    const more = `${between}${alternatives(node)}`;
    if (!node.end) return more;
    // A single letter, or a group (alternatives are grouped, single branches start with a letter).
    return more.length === 1 || more.startsWith('(?:') ? `${more}?` : `(?:${more})?`;
  };
  return alternatives(root);
}

/** A word whose letters may be split by any non-word characters (`<f o r m`, `@im\port`). */
const spaced = (word: string) => [...word].join(String.raw`\W*`);

/** `<` and what may stand between it and a tag name: punctuation, spaces and a namespace prefix (`< x: script`). */
const TAG_OPEN = String.raw`<[^\w<>]*(?:[\w-]+:[^\w<>]*)?`;

/** Tags that are an attack by their name alone (they run script or style, or carry their own). */
const ACTIVE_TAGS = ['script', 'style', 'svg', 'math', 'form', 'dialog', 'marquee'];
/** Tags that load or run something through their attributes: an attack when an attribute follows. */
const LOADING_TAGS = [
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'param',
  'base',
  'link',
  'meta',
  'body',
  'img',
  'image',
  'video',
  'audio',
  'set',
  'animate',
  'bindings',
];

/**
 * Attributes whose value is script or a URL that may be one: events and sources. Not `style`, which rich
 * text editors write on every other tag; the style attacks are 941140's, 941170's and 941190's.
 */
const EVENT_ATTRIBUTES = [...EVENT_NAMES].sort().map((name) => `on${name}`);
const URL_ATTRIBUTES = ['src', 'srcdoc', 'lowsrc', 'dynsrc', 'background', 'formaction', 'ping'];
/** One of them assigned: the name, blanks HTML allows before the `=` (backspace, tab, newlines, space), `=`. */
const ATTRIBUTE_ASSIGNED = String.raw`${wordTrie([...EVENT_ATTRIBUTES, ...URL_ATTRIBUTES])}[\x08-\x0a\x0c\x0d ]*=`;

/**
 * A letter as it may be written in a URL scheme that a browser reads from an attribute: itself or a
 * numeric character reference left after one round of decoding (`&#106;`, `&#x6A;`).
 */
function entityLetter(letter: string): string {
  const codes = [letter.toLowerCase(), letter.toUpperCase()].map((c) => c.charCodeAt(0));
  const decimal = codes.map((code) => code.toString(10)).join('|');
  const hex = codes.map((code) => code.toString(16)).join('|');
  return `(?:${letter}|&#(?:0*(?:${decimal})|x0*(?:${hex}));?)`;
}
/** Tab, LF and CR, which browsers drop from a URL scheme, literal or as references (`&tab;`, `&#10`). */
const SCHEME_BLANKS = String.raw`(?:[\t\n\r]|&(?:tab;|newline;|#(?:0*(?:9|10|13)|x0*(?:9|a|d));?))*`;
/**
 * `javascript:` or `vbscript:` spelled to pass a filter, followed by code, by nothing but blanks, or by
 * blanks and a symbol — not by a space and a word, as in the book title "JavaScript: The Good Parts".
 */
const obfuscatedScheme = (scheme: string) =>
  String.raw`(?is)${[...scheme].map(entityLetter).join(SCHEME_BLANKS)}${SCHEME_BLANKS}(?::|&(?:colon;|#(?:0*58|x0*3a);?))(?:\S|\s+$|\s+[^\sa-z])`;

/** A DOM property name in which any letter may be the JavaScript escape `\u00XX` (941330). */
const escapedName = (name: string) =>
  [...name]
    .map((letter) => {
      const codes = [letter.toLowerCase(), letter.toUpperCase()].map((c) => c.charCodeAt(0).toString(16));
      return String.raw`(?:${letter}|\\u00(?:${[...new Set(codes)].join('|')}))`;
    })
    .join('');

/** A quote that ends a string, then an operator or `in` — breaking out of a quoted JavaScript value. */
const QUOTE_BREAKOUT = String.raw`["']\s*(?:[^a-z0-9~_:'\s]|in)`;

/** HTML elements, for 941320's test of a tag opening. */
const HTML_TAGS = [
  'a',
  'abbr',
  'acronym',
  'address',
  'applet',
  'area',
  'audio',
  'b',
  'base',
  'basefont',
  'bdo',
  'bgsound',
  'big',
  'blink',
  'blockquote',
  'body',
  'br',
  'button',
  'canvas',
  'caption',
  'center',
  'cite',
  'code',
  'col',
  'colgroup',
  'comment',
  'dd',
  'del',
  'details',
  'dfn',
  'dialog',
  'dir',
  'div',
  'dl',
  'dt',
  'em',
  'embed',
  'fieldset',
  'font',
  'form',
  'frame',
  'frameset',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'head',
  'hr',
  'html',
  'i',
  'iframe',
  'ilayer',
  'image',
  'img',
  'input',
  'ins',
  'isindex',
  'kbd',
  'keygen',
  'label',
  'layer',
  'legend',
  'li',
  'link',
  'listing',
  'map',
  'marquee',
  'math',
  'menu',
  'meta',
  'multicol',
  'nobr',
  'noembed',
  'noframes',
  'noscript',
  'object',
  'ol',
  'optgroup',
  'option',
  'p',
  'param',
  'plaintext',
  'pre',
  'q',
  'rt',
  'ruby',
  's',
  'samp',
  'script',
  'select',
  'server',
  'small',
  'source',
  'spacer',
  'span',
  'strike',
  'strong',
  'style',
  'sub',
  'sup',
  'svg',
  'table',
  'tbody',
  'td',
  'textarea',
  'tfoot',
  'th',
  'thead',
  'title',
  'tr',
  'tt',
  'u',
  'ul',
  'var',
  'video',
  'wbr',
  'xml',
  'xmp',
];

/** JavaScript's names for the global object and the document, through which payloads reach anything. */
const GLOBALS = String.raw`\b(?:self|this|top|parent|window|frames|globalThis|document)`;
/** A JavaScript block comment. */
const JS_COMMENT = String.raw`/\*.*?\*/`;

const RULES: readonly CrsRule[] = [
  {
    id: 941100,
    description: 'XSS Attack Detected via libinjection',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets:
      'REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|REQUEST_COOKIES_NAMES|REQUEST_HEADERS:User-Agent|ARGS_NAMES|ARGS|XML:/*',
    transformations: DECODED,
    test: { detect: 'xss' },
  },
  {
    id: 941110,
    description: 'XSS Filter - Category 1: Script Tag Vector',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets:
      'REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|REQUEST_COOKIES_NAMES|REQUEST_FILENAME|REQUEST_HEADERS:User-Agent|REQUEST_HEADERS:Referer|ARGS_NAMES|ARGS|XML:/*',
    transformations: DECODED,
    // A whole opening script tag, with or without attributes.
    test: { regex: '(?i)<script[^>]*>' },
  },
  {
    id: 941130,
    description: 'XSS Filter - Category 3: Attribute Vector',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets:
      'REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|REQUEST_COOKIES_NAMES|REQUEST_HEADERS:User-Agent|ARGS_NAMES|ARGS|REQUEST_FILENAME|XML:/*',
    transformations: DECODED,
    // Markup that brings in another vocabulary or document: XML namespaces (xmlns, XHTML, XLink), external
    // entities (<!ENTITY x SYSTEM "…">), form-action overrides, HTML data URLs and base64 payloads of a
    // scriptable type, CSS @import, and a pattern attribute. Inside a value, not as its first word.
    test: {
      regex: String.raw`(?is).\b(?:xmlns|xhtml|xlink:href|formaction|data:text/html)\b|(?:<\w[^>]*|["'])[\s/]pattern\s*=|!entity\s+(?:%\s+)?[^\s>]+\s+(?:system|public)\b|@import\b|data:(?:[^,;]*(?:html|xml|script|svg)[^,;]*)?(?:;[^,;]*)*;base64\b`,
    },
  },
  {
    id: 941140,
    description: 'XSS Filter - Category 4: Javascript URI Vector',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets:
      'REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|REQUEST_COOKIES_NAMES|REQUEST_HEADERS:User-Agent|REQUEST_HEADERS:Referer|ARGS_NAMES|ARGS|REQUEST_FILENAME|XML:/*',
    transformations: `${DECODED},removeWhitespace`,
    // Inline CSS that loads a script URL: an attribute whose declarations set some property to
    // url(javascript:…) (style="background:url(javascript:…)"). Whitespace is already removed.
    test: { regex: String.raw`(?i)[a-z]=[^=]*?:url\(["'\\]*(?:java|vb)script` },
  },
  anyRegex(
    {
      id: 941160,
      description: 'NoScript XSS InjectionChecker: HTML Injection',
      paranoiaLevel: 1,
      severity: 'critical',
      tags: TAGS,
      targets:
        'REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|REQUEST_COOKIES_NAMES|REQUEST_HEADERS:User-Agent|REQUEST_HEADERS:Referer|ARGS_NAMES|ARGS|REQUEST_FILENAME|XML:/*',
      transformations: DECODED,
    },
    [
      // A dangerous tag, its name perhaps split to pass a filter (`<f o r m`).
      String.raw`(?i)${TAG_OPEN}(?:${wordTrie(ACTIVE_TAGS, String.raw`\W*`)}\b|${wordTrie(LOADING_TAGS, String.raw`\W*`)}[^\w>])`,
      // An event-handler or source attribute assigned after a tag opening, or after a quote that closes
      // an attribute value. Each is looked for up to the next tag opening or quote (where the search
      // starts again), so that a body full of tags and quotes is read once, not once per tag or quote.
      String.raw`(?i)<\w(?:[^<]|<\W)*[\s/]${ATTRIBUTE_ASSIGNED}`,
      String.raw`(?i)["'](?:[^"']*[\s/])?${ATTRIBUTE_ASSIGNED}`,
    ],
  ),
  {
    id: 941170,
    description: 'NoScript XSS InjectionChecker: Attribute Injection',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets:
      'REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|REQUEST_COOKIES_NAMES|REQUEST_HEADERS:User-Agent|REQUEST_HEADERS:Referer|ARGS_NAMES|ARGS|REQUEST_FILENAME|XML:/*',
    transformations: DECODED,
    // At the start of a word: a javascript: URL with code after it; a data: URL of a type a browser runs
    // as a page or script (or none, as in <script src="data:,…">), or with markup in it; a CSS @import of
    // a quoted or url() sheet; a Mozilla XBL binding — the last two with their letters perhaps split.
    test: {
      regex: String.raw`(?is)(?:^|\W)(?:javascript:.*?(?:[=\\(\[.<${'`'}]|name)|data:\s*(?:(?:text|application)/[\w.+-]*(?:html|xml|script)[\w.+-]*|image/svg\+xml)?\s*[;,]|data:[^,<>]*,.*?<\w.*?>|${spaced('@import')}\W*(?:${JS_COMMENT}\s*)?(?:["']|url\W*\()|${spaced('-moz-binding')}[^:]*:\s*url\W*\()`,
    },
  },
  {
    id: 941180,
    description: 'Node-Validator Deny List Keywords',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: TARGETS,
    transformations: DECODED,
    // DOM properties that read cookies and rewrite the page, and comment and CDATA openers that hide markup
    // (src/scheme/waf-phrase-lists/xss-dom-phrases.json).
    test: { phrases: 'xss-dom-phrases' },
  },
  {
    id: 941190,
    description: 'IE XSS Filters - Attack Detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: TARGETS,
    transformations: DECODED,
    // A style element whose sheet imports another (@import, @\…), or has a declaration that calls a
    // function (expression(…), url(…)) or holds an escape — ':' or '=', then '(' or '\' before the
    // declaration ends — any of them perhaps a character reference.
    test: {
      regex: String.raw`(?is)<style[^>]*>.*?(?:@[i\\]|(?:[:=]|&#0*(?:58|61);?|&#x0*(?:3a|3d);?)[^;}]*?(?:[(\\]|&#0*(?:40|92);?|&#x0*(?:28|5c);?))`,
    },
  },
  {
    id: 941200,
    description: 'IE XSS Filters - Attack Detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: TARGETS,
    transformations: DECODED,
    // Internet Explorer's VML frame element loading a source.
    test: { regex: String.raw`(?is)<[^>]*?vmlframe\b[^>]*?\bsrc[\s/+]*=` },
  },
  {
    id: 941210,
    description: 'Javascript Word Detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: TARGETS,
    transformations: DECODED,
    // javascript: with letters written as character references, or split by tabs and newlines.
    test: { regex: obfuscatedScheme('javascript') },
  },
  {
    id: 941220,
    description: 'IE XSS Filters - Attack Detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: TARGETS,
    transformations: DECODED,
    // vbscript: in the same disguises.
    test: { regex: obfuscatedScheme('vbscript') },
  },
  {
    id: 941230,
    description: 'IE XSS Filters - Attack Detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: TARGETS,
    transformations: DECODED,
    // An embed element with a source or a type.
    test: { regex: String.raw`(?is)<embed[\s/+][^>]*?(?:src|type)[^>]*?=` },
  },
  {
    id: 941240,
    description: 'IE XSS Filters - Attack Detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: TARGETS,
    transformations:
      'none,utf8toUnicode,urlDecodeUni,htmlEntityDecode,jsDecode,cssDecode,lowercase,removeNulls',
    // Internet Explorer's <?import implementation="…"> behaviour import.
    test: { regex: String.raw`(?s)<\??import.*?implementation[\s/+]*=` },
  },
  {
    id: 941250,
    description: 'IE XSS Filters - Attack Detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: TARGETS,
    transformations: DECODED,
    // A meta element that sets a header: Content-Type, Refresh or Set-Cookie (first letter perhaps a
    // character reference).
    test: {
      regex: String.raw`(?is)<meta[\s/+].*?http-equiv[\s/+]*=[\s/+]*["'${'`'}]?(?:[crs]|&#0*(?:67|99|82|114|83|115);?|&#x0*(?:43|63|52|72|53|73);?)`,
    },
  },
  {
    id: 941260,
    description: 'IE XSS Filters - Attack Detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: TARGETS,
    transformations: DECODED,
    // A meta element that sets the page's character set (UTF-7 and other encodings that hide markup).
    test: { regex: String.raw`(?is)<meta[\s/+].*?charset[\s/+]*=` },
  },
  {
    id: 941270,
    description: 'IE XSS Filters - Attack Detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: TARGETS,
    transformations: DECODED,
    // A link element that loads a resource (style sheet, import).
    test: { regex: String.raw`(?is)<link[\s/+].*?href[\s/+]*=` },
  },
  {
    id: 941280,
    description: 'IE XSS Filters - Attack Detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: TARGETS,
    transformations: DECODED,
    // A base element that moves every relative URL of the page to another site.
    test: { regex: String.raw`(?is)<base[\s/+].*?href[\s/+]*=` },
  },
  {
    id: 941290,
    description: 'IE XSS Filters - Attack Detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: TARGETS,
    transformations: DECODED,
    // A Java applet element.
    test: { regex: String.raw`(?i)<applet[\s/+>]` },
  },
  {
    id: 941300,
    description: 'IE XSS Filters - Attack Detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: TARGETS,
    transformations: DECODED,
    // An object element that names what to load or run.
    test: { regex: String.raw`(?is)<object[\s/+].*?(?:type|codetype|classid|code|data)[\s/+]*=` },
  },
  {
    id: 941310,
    description: 'US-ASCII Malformed Encoding XSS Filter - Attack Detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: ['application-multi', 'language-multi', 'platform-tomcat', 'attack-xss', 'xss-perf-disable'],
    targets: TARGETS,
    transformations: 'none,lowercase,urlDecodeUni,htmlEntityDecode,jsDecode',
    // Tags written with bytes BC and BE, which a reader of 7-bit US-ASCII takes for < and > (¼script¾):
    // a closing tag in that shape (¼/script¾, or </script¾), whose opening tag is then there too. UTF-8
    // text has these bytes (Cyrillic м and о are D0 BC and D0 BE) but not around a slash.
    test: { regex: String.raw`\xbc\s*/\s*[^\xbc\xbe<>]*[\xbe>]|<\s*/\s*[^\xbe<]*\xbe` },
  },
  {
    id: 941350,
    description: 'UTF-7 Encoding IE XSS - Attack Detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: [
      'application-multi',
      'language-multi',
      'platform-internet-explorer',
      'attack-xss',
      'xss-perf-disable',
    ],
    targets: TARGETS,
    transformations: 'none,urlDecodeUni,htmlEntityDecode,jsDecode',
    // Angle brackets in UTF-7 (+ADw- is <, +AD4- is >), around a tag. The + may have become a space:
    // urlDecodeUni decodes it so, as a form does.
    // (For < then +AD4-, the nearest < before it is enough: the search never crosses another <.)
    test: { regex: `(?s)[+ ]ADw-.*?(?:[+ ]AD4-|>)|<[^<]*?[+ ]AD4-` },
  },
  {
    id: 941360,
    description: 'JSFuck / Hieroglyphy obfuscation detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: ['application-multi', 'language-multi', 'attack-xss', 'xss-perf-disable'],
    targets: TARGETS,
    transformations: 'none',
    // The atoms of JavaScript written with six characters: !![] and !+[] (true), ![]+ (false, added to
    // something); a space may stand for a + decoded from a form.
    test: { regex: String.raw`![!+ ]\[\]|!\[\][+ ]` },
  },
  {
    id: 941370,
    description: 'JavaScript global variable found',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: ['application-multi', 'language-multi', 'attack-xss', 'xss-perf-disable'],
    targets: 'REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|REQUEST_COOKIES_NAMES|ARGS|REQUEST_FILENAME|XML:/*',
    transformations: 'none,urlDecodeUni,compressWhitespace',
    // The global object or the document reached around a keyword filter: through a comment
    // (document/**/.cookie), or by bracket access with a string or an expression (window["alert"],
    // (document)["cookie"], self[atob("…")]).
    test: {
      regex: String.raw`(?s)${GLOBALS}\s*(?:${JS_COMMENT}|(?:${JS_COMMENT}\s*)*\)?\s*(?:${JS_COMMENT}\s*)*\[[^\]]*?[(+"'${'`'}])`,
    },
  },
  {
    id: 941390,
    description: 'Javascript method detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: ['application-multi', 'language-multi', 'attack-xss', 'xss-perf-disable'],
    targets: TARGETS,
    transformations: 'none,htmlEntityDecode,jsDecode',
    // A call of a function that runs a string as code, decodes one, or shows a dialog (the usual proof of
    // an XSS): eval, the timers, new Function, atob/btoa, the console; alert, prompt, confirm, fetch and
    // dynamic import, which are also English words, only when the call follows at once — alert(1),
    // alert`1` — and not "an alert (see below)".
    test: {
      regex: String.raw`(?i)\b(?:(?:eval|set(?:timeout|interval)|new\s+function|atob|btoa|console\.(?:log|dir|error|warn))\s*|alert|prompt|confirm|fetch|import)[(${'`'}]`,
    },
  },
  {
    id: 941400,
    description: 'XSS JavaScript function without parentheses',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: ['application-multi', 'language-multi', 'attack-xss', 'xss-perf-disable'],
    targets: TARGETS,
    transformations: 'none,urlDecodeUni,compressWhitespace',
    // A function called through a tagged template instead of parentheses: [].sort.call`${alert}1`,
    // Reflect.apply.call`…` (from the array nearest before the method: the search does not cross a [).
    test: {
      regex: String.raw`(?s)(?:\[[^\]]*\]|\bReflect)[^.]*\.[^\[]*?\b(?:map|sort|apply)\b[^.]*\..*?\bcall\b[^${'`'}]*${'`'}[^${'`'}]*${'`'}`,
    },
  },
  {
    id: 941101,
    description: 'XSS Attack Detected via libinjection',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_FILENAME|REQUEST_HEADERS:Referer',
    transformations: DECODED,
    test: { detect: 'xss' },
  },
  {
    id: 941120,
    description: 'XSS Filter - Category 2: Event Handler Vector',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    targets:
      'REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|REQUEST_COOKIES_NAMES|REQUEST_HEADERS:User-Agent|REQUEST_HEADERS:Referer|ARGS_NAMES|ARGS|REQUEST_FILENAME|XML:/*',
    transformations: DECODED,
    // Any event-handler-like attribute (on + three letters or more) assigned a value, after a character
    // that can end the previous attribute or tag name; `==` and a trailing `=` (base64 padding) are not
    // assignments.
    test: { regex: String.raw`(?i)[\s"'${'`'};/0-9=,(]on[a-z][a-z][a-z]+[\s;,(]*=[^=]` },
  },
  {
    id: 941150,
    description: 'XSS Filter - Category 5: Disallowed HTML Attributes',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    targets:
      'REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|REQUEST_COOKIES_NAMES|REQUEST_HEADERS:User-Agent|ARGS_NAMES|ARGS|REQUEST_FILENAME|XML:/*',
    transformations: DECODED,
    // A style, src or href attribute being assigned, as in markup (after a space, quote or slash).
    test: { regex: String.raw`(?i)(?:^|[\s"'${'`'}/;])(?:style|src|href)\s*=` },
  },
  {
    id: 941181,
    description: 'Node-Validator Deny List Keywords',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    targets: TARGETS,
    transformations:
      'none,utf8toUnicode,urlDecodeUni,htmlEntityDecode,jsDecode,cssDecode,lowercase,removeNulls',
    // The end of an HTML comment, which closes one the page opened.
    test: { operator: 'contains', literal: '"-->"' },
  },
  {
    id: 941320,
    description: 'Possible XSS Attack Detected - HTML Tag Handler',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS_PCI,
    targets: TARGETS_NO_PK,
    transformations: 'none,jsDecode,lowercase',
    // An HTML tag opening: < and an element name, then a space, slash or other non-word character.
    test: { regex: String.raw`<${wordTrie(HTML_TAGS)}\W` },
  },
  {
    id: 941330,
    description: 'IE XSS Filters - Attack Detected',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS_PCI,
    targets: TARGETS_NO_PK,
    transformations: 'none,htmlEntityDecode,compressWhitespace',
    // A break out of a quoted string, then an assignment to location, name, onerror or valueOf, whose
    // letters may be \u00XX escapes, before the next quote (where the search starts again, so that a
    // value full of quotes is read once).
    test: {
      regex: `(?is)${QUOTE_BREAKOUT}(?:[^"']*?[^a-z0-9])?(?:${['location', 'name', 'onerror', 'valueOf'].map(escapedName).join('|')})[^"'=]*=`,
    },
  },
  {
    id: 941340,
    description: 'IE XSS Filters - Attack Detected',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS_PCI,
    targets: TARGETS_NO_PK,
    transformations: 'none,htmlEntityDecode,compressWhitespace',
    // A break out of a quoted string, then an assignment to a dotted property (' in foo.bar=): a dot at
    // least one character on, then an equals sign at least one character after it, before the next quote
    // (where the search starts again, so that a value full of quotes is read once).
    test: { regex: String.raw`(?is)${QUOTE_BREAKOUT}.[^."']*\..[^="']*=` },
  },
  {
    id: 941380,
    description: 'AngularJS client side template injection detected',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: ['application-multi', 'language-multi', 'attack-xss', 'xss-perf-disable'],
    targets: TARGETS,
    transformations: 'none',
    // An AngularJS expression, {{…}}, which the framework evaluates wherever it finds one in the page,
    // that does something: a call, an index, arithmetic or an assignment ({{constructor.constructor(…)()}},
    // {{7*7}}) — not a bare placeholder such as {{first_name}}.
    test: { regex: String.raw`(?s)\{\{[^}]*?[(\[*+=].*?\}\}` },
  },
];

export const XSS_RULES: readonly CrsRule[] = RULES.map(sparingPlainPaths);
