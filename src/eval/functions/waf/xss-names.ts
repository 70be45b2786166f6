/**
 * The names the XSS detector (`xss.ts`) looks for. These are facts of HTML, SVG and the DOM (element names,
 * event-handler attributes, attributes whose value is a URL, URL schemes that run script), written out for
 * this project from the HTML Living Standard, the SVG specification and browser documentation; they are not
 * taken from any other detector. Every name is lower case; the detector folds what it reads before looking.
 */

/**
 * Elements whose mere presence is treated as an attack: they run script or style sheets, carry their own
 * script and event model (SVG), or make the markup after them parse differently from how a filter read it
 * (raw-text elements, Internet Explorer's `comment` and `xml`). Plain formatting and structure elements
 * (`b`, `i`, `p`, `a`, `img`, `div`, `table`…) are not here: they are judged by their attributes.
 */
const scriptTags = [
  'script', // runs script
  'style', // style sheets (old browsers ran script from CSS)
  'svg', // SVG documents carry their own script, animation and event model
  'noscript', // raw-text elements: their content is text to one parser and markup to another
  'noembed',
  'noframes',
  'xmp',
  'xml', // Internet Explorer data islands
  'comment', // Internet Explorer: content not parsed as markup, hides what follows from filters
  'listener', // SVG Tiny 1.2 / XML Events: declarative handlers
  'handler',
  'vmlframe', // Internet Explorer VML
];
export const SCRIPT_TAGS: ReadonlySet<string> = new Set(scriptTags);

/**
 * Elements that load active content or change how the page fetches things, but only through attributes:
 * `<object>` alone loads nothing. They count as an attack when they have any attribute, so that text such as
 * `List<Object>` or "the <link> element" is left alone.
 */
const loadingTags = [
  'iframe', // nested document (src, srcdoc)
  'frame',
  'frameset',
  'object', // plug-ins and nested documents (data, classid)
  'embed',
  'applet',
  'base', // rewrites every relative URL of the page
  'link', // style sheets, imports, preloads
  'meta', // refresh redirects, CSP, charset switches
  'portal', // navigable like an iframe
  'layer', // Netscape 4 frames
  'ilayer',
  'bgsound', // Internet Explorer media with a URL
  'import', // Internet Explorer behaviours
  'isindex', // obsolete form with an action URL
];
export const LOADING_TAGS: ReadonlySet<string> = new Set(loadingTags);

/** Namespace prefixes whose elements are treated as dangerous whatever their local name (`<xsl:…>`). */
export const DANGEROUS_TAG_PREFIXES: ReadonlySet<string> = new Set(['xsl', 'svg']);

/**
 * Events, without their `on` prefix: an attribute `on` + one of these is an event handler whose value is
 * script. From HTML's global, window and document handlers, media, drag and drop, clipboard, pointer, touch,
 * animation and transition events, SVG animation events, WebKit-prefixed aliases and Internet Explorer's
 * proprietary events.
 */
const events = [
  // HTML global event handlers
  'abort',
  'auxclick',
  'beforeinput',
  'beforematch',
  'beforetoggle',
  'blur',
  'cancel',
  'canplay',
  'canplaythrough',
  'change',
  'click',
  'close',
  'contentvisibilityautostatechange',
  'contextlost',
  'contextmenu',
  'contextrestored',
  'copy',
  'cuechange',
  'cut',
  'dblclick',
  'drag',
  'dragend',
  'dragenter',
  'dragexit',
  'dragleave',
  'dragover',
  'dragstart',
  'drop',
  'durationchange',
  'emptied',
  'ended',
  'error',
  'focus',
  'focusin',
  'focusout',
  'formdata',
  'input',
  'invalid',
  'keydown',
  'keypress',
  'keyup',
  'load',
  'loadeddata',
  'loadedmetadata',
  'loadend',
  'loadstart',
  'mousedown',
  'mouseenter',
  'mouseleave',
  'mousemove',
  'mouseout',
  'mouseover',
  'mouseup',
  'mousewheel',
  'paste',
  'pause',
  'play',
  'playing',
  'progress',
  'ratechange',
  'reset',
  'resize',
  'scroll',
  'scrollend',
  'scrollsnapchange',
  'scrollsnapchanging',
  'securitypolicyviolation',
  'seeked',
  'seeking',
  'select',
  'selectionchange',
  'selectstart',
  'show',
  'slotchange',
  'stalled',
  'submit',
  'suspend',
  'timeupdate',
  'toggle',
  'volumechange',
  'waiting',
  'wheel',
  // window and document handlers (on body and frameset)
  'afterprint',
  'beforeprint',
  'beforeunload',
  'domcontentloaded',
  'fullscreenchange',
  'fullscreenerror',
  'hashchange',
  'languagechange',
  'message',
  'messageerror',
  'offline',
  'online',
  'orientationchange',
  'pagehide',
  'pagereveal',
  'pageshow',
  'pageswap',
  'popstate',
  'readystatechange',
  'rejectionhandled',
  'storage',
  'unhandledrejection',
  'unload',
  'visibilitychange',
  'devicemotion',
  'deviceorientation',
  'deviceorientationabsolute',
  // pointer and touch
  'gotpointercapture',
  'lostpointercapture',
  'pointercancel',
  'pointerdown',
  'pointerenter',
  'pointerleave',
  'pointermove',
  'pointerout',
  'pointerover',
  'pointerrawupdate',
  'pointerup',
  'touchcancel',
  'touchend',
  'touchmove',
  'touchstart',
  'touchforcechange',
  'gesturestart',
  'gesturechange',
  'gestureend',
  // animations and transitions
  'animationcancel',
  'animationend',
  'animationiteration',
  'animationstart',
  'transitioncancel',
  'transitionend',
  'transitionrun',
  'transitionstart',
  'webkitanimationend',
  'webkitanimationiteration',
  'webkitanimationstart',
  'webkittransitionend',
  'webkitfullscreenchange',
  'webkitfullscreenerror',
  'webkitmouseforcechanged',
  'webkitmouseforcedown',
  'webkitmouseforceup',
  'webkitmouseforcewillbegin',
  'webkitplaybacktargetavailabilitychanged',
  'webkitpresentationmodechanged',
  'webkitwillrevealbottom',
  'webkitbeginfullscreen',
  'webkitendfullscreen',
  'mozfullscreenchange',
  'mozfullscreenerror',
  'mozpointerlockchange',
  'mozpointerlockerror',
  // composition, text and media extras
  'compositionstart',
  'compositionupdate',
  'compositionend',
  'textinput',
  'encrypted',
  'waitingforkey',
  'enterpictureinpicture',
  'leavepictureinpicture',
  'search',
  'overflow',
  'underflow',
  'overflowchanged',
  // SVG animation and SMIL
  'begin',
  'end',
  'repeat',
  'beginevent',
  'endevent',
  'repeatevent',
  'activate',
  'zoom',
  'svgload',
  'svgunload',
  'svgabort',
  'svgerror',
  'svgresize',
  'svgscroll',
  'svgzoom',
  // Internet Explorer and other legacy events
  'afterupdate',
  'beforeactivate',
  'beforecopy',
  'beforecut',
  'beforedeactivate',
  'beforeeditfocus',
  'beforepaste',
  'beforeupdate',
  'bounce',
  'cellchange',
  'controlselect',
  'dataavailable',
  'datasetchanged',
  'datasetcomplete',
  'deactivate',
  'errorupdate',
  'filterchange',
  'finish',
  'help',
  'layoutcomplete',
  'losecapture',
  'move',
  'moveend',
  'movestart',
  'propertychange',
  'resizeend',
  'resizestart',
  'rowenter',
  'rowexit',
  'rowsdelete',
  'rowsinserted',
  'start',
  'stop',
  'dommousescroll',
  'mozmousepixelscroll',
  'domactivate',
  'domfocusin',
  'domfocusout',
  'domattrmodified',
  'domcharacterdatamodified',
  'domnodeinserted',
  'domnodeinsertedintodocument',
  'domnoderemoved',
  'domnoderemovedfromdocument',
  'domsubtreemodified',
];
export const EVENT_NAMES: ReadonlySet<string> = new Set(events);

/** How the detector treats the value of an attribute it knows. */
export const AttributeKind = {
  /** Not of interest. */
  None: 0,
  /** Any value is an attack: event handlers, Internet Explorer data binding, namespace declarations. */
  Script: 1,
  /** The value is a URL: an attack when its scheme runs script or carries a document. */
  Url: 2,
  /** The value is CSS: an attack when it uses what ran script in CSS. */
  Style: 3,
  /** The value is a whole HTML document (`srcdoc`): an attack when it holds markup. */
  Html: 4,
  /** The value names another attribute (SVG `attributeName`): an attack when that one is of interest. */
  Indirect: 5,
} as const;
export type AttributeKind = (typeof AttributeKind)[keyof typeof AttributeKind];

/** Attributes other than event handlers, by lower-case name. */
export const ATTRIBUTES: ReadonlyMap<string, AttributeKind> = new Map<string, AttributeKind>([
  // URLs
  ['href', AttributeKind.Url],
  ['src', AttributeKind.Url],
  ['action', AttributeKind.Url], // form
  ['formaction', AttributeKind.Url], // button, input
  ['data', AttributeKind.Url], // object
  ['codebase', AttributeKind.Url], // object, applet
  ['classid', AttributeKind.Url], // object
  ['archive', AttributeKind.Url], // object, applet
  ['code', AttributeKind.Url], // applet
  ['cite', AttributeKind.Url], // blockquote, q, del, ins
  ['longdesc', AttributeKind.Url], // img, frame
  ['usemap', AttributeKind.Url], // img
  ['profile', AttributeKind.Url], // head (HTML 4)
  ['manifest', AttributeKind.Url], // html
  ['icon', AttributeKind.Url], // command, menuitem
  ['ping', AttributeKind.Url], // a, area
  ['poster', AttributeKind.Url], // video
  ['background', AttributeKind.Url], // body, table, td (legacy)
  ['lowsrc', AttributeKind.Url], // img (legacy)
  ['dynsrc', AttributeKind.Url], // img (Internet Explorer)
  ['folder', AttributeKind.Url], // a (Internet Explorer)
  ['xml:base', AttributeKind.Url],
  ['xlink:href', AttributeKind.Url], // SVG, MathML
  ['from', AttributeKind.Url], // SVG animate/set: the values given to the animated attribute (may be href)
  ['to', AttributeKind.Url],
  ['by', AttributeKind.Url],
  ['values', AttributeKind.Url],
  ['handler', AttributeKind.Url], // SVG Tiny
  // CSS
  ['style', AttributeKind.Style],
  ['filter', AttributeKind.Style], // Internet Explorer filters, SVG
  // whole documents
  ['srcdoc', AttributeKind.Html], // iframe
  // indirection
  ['attributename', AttributeKind.Indirect], // SVG animate, set
  // Internet Explorer data binding
  ['datasrc', AttributeKind.Script],
  ['datafld', AttributeKind.Script],
  ['dataformatas', AttributeKind.Script],
  // XML namespaces: declaring the XHTML, SVG or XSL namespace turns any element name into a script element
  ['xmlns', AttributeKind.Script],
]);

/** Attribute-name prefixes (up to and with the colon) treated as `AttributeKind.Script` (`xmlns:x=…`). */
export const SCRIPT_ATTRIBUTE_PREFIXES: readonly string[] = ['xmlns:'];

/**
 * URL schemes that run script or carry a whole document, lower case with their colon. `data:` is judged
 * further by the detector: an image other than SVG is harmless.
 */
export const DANGEROUS_SCHEMES: readonly string[] = [
  'javascript:',
  'vbscript:',
  'livescript:',
  'mocha:',
  'view-source:',
  'data:',
];

/**
 * Named character references that matter inside a URL or CSS value, when the rule's decodings left them:
 * the characters used to hide a scheme (`java&Tab;script&colon;`).
 */
export const NAMED_REFERENCES: ReadonlyMap<string, number> = new Map([
  ['tab', 0x09],
  ['newline', 0x0a],
  ['colon', 0x3a],
  ['lpar', 0x28],
  ['rpar', 0x29],
  ['sol', 0x2f],
  ['bsol', 0x5c],
  ['quot', 0x22],
  ['apos', 0x27],
  ['amp', 0x26],
  ['lt', 0x3c],
  ['gt', 0x3e],
  ['nbsp', 0xa0],
]);

/**
 * Words that, in CSS with whitespace, comments and escapes removed, run script or load active content in some
 * browser: IE's `expression()` and `behavior`, Firefox's `-moz-binding`, `@import` of another sheet. A
 * `url(…)` is judged by its scheme instead.
 */
export const DANGEROUS_CSS_WORDS: readonly string[] = [
  'expression(',
  'behavior:',
  'behaviour:',
  '-moz-binding',
  '@import',
  'javascript:',
  'vbscript:',
];
