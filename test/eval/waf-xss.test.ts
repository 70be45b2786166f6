import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectXss } from '../../src/eval/functions/waf/xss.js';

/** A value as the rule hands it over: a binary string, one char per byte of the UTF-8 text. */
const bytes = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

function expectAttacks(values: readonly string[]): void {
  const missed = values.filter((v) => !detectXss(bytes(v)));
  expect(missed).toEqual([]);
}

function expectHarmless(values: readonly string[]): void {
  const flagged = values.filter((v) => detectXss(bytes(v)));
  expect(flagged).toEqual([]);
}

describe('detectXss: script and style elements', () => {
  it('flags script tags whatever their case, spacing and attributes', () => {
    expectAttacks([
      '<script>alert(1)</script>',
      '<SCRIPT>alert(1)</SCRIPT>',
      '<ScRiPt >alert(1)</ScRiPt>',
      '<script/x>alert(1)</script>',
      '<script\tsrc=//evil.example/x.js>',
      '<script\nsrc=//evil.example/x.js>',
      '<script src="//evil.example/x.js"></script>',
      'hello <script>alert(1)</script> world',
      '<script', // cut short: the page supplies the rest of the tag
      '<x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>',
      '<svg><script>alert(1)</script></svg>',
    ]);
  });

  it('judges an end tag that is not closed at once as a start tag, as libinjection does', () => {
    expectAttacks(['x</script', '</script x', '</style/']);
    expectHarmless(['</script>', '</b>', 'x</b']);
  });

  it('flags style sheets, SVG, XSL and the elements parsers disagree about', () => {
    expectAttacks([
      "<style>@import 'http://evil.example/x.css';</style>",
      '<STYLE>body{}</STYLE>',
      '<svg>',
      '<svg/onload=alert(1)>',
      '<xsl:value-of select="x"/>',
      '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
      '<xmp><p title="</xmp><img src=x onerror=alert(1)>">',
      '<noembed>',
      '<comment><img src="</comment><img src=x onerror=alert(1)//">',
      '<xml id=x>',
      '<v:vmlframe src="//evil.example/x.vml"/>',
    ]);
  });

  it('flags elements that load content once they have an attribute, not when named in prose', () => {
    expectAttacks([
      '<iframe src=//evil.example>',
      '<iframe srcdoc="<script>alert(1)</script>">',
      '<IFRAME SRC="javascript:alert(1)">',
      '<object data="javascript:alert(1)">',
      '<object data=//evil.example/x.swf>',
      '<object data="data:text/html,<script>alert(1)</script>">',
      '<embed src=//evil.example/x.swf>',
      '<applet code="x.class">',
      '<base href="//evil.example/">',
      '<link rel=stylesheet href=//evil.example/x.css>',
      '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
      '<frameset onload=alert(1)>',
      '<isindex action=javascript:alert(1) type=image>',
      '<bgsound src=javascript:alert(1)>',
    ]);
    expectHarmless([
      'List<Object> items',
      'the <link> element',
      'a <meta> tag',
      'Use <iframe> sparingly',
      '<embed>',
    ]);
  });
});

describe('detectXss: event handlers', () => {
  it('flags handlers on img, svg, body, details, media and form elements', () => {
    expectAttacks([
      '<img src=x onerror=alert(1)>',
      '<IMG SRC=x OnErRoR=alert(1)>',
      '<img src=x onerror="alert(1)">',
      '<img/src=x onerror=alert(1)>',
      '<img src="x"onerror="alert(1)">',
      '<img src=x onerror =alert(1)>',
      '<img src=x onerror\t=\talert(1)>',
      '<img src=`x`onerror=alert(1)>',
      '<img src=x onerror=alert(1)//',
      '<svg onload=alert(1)>',
      '<body onload=alert(1)>',
      '<body onpageshow=alert(1)>',
      '<details open ontoggle=alert(1)>',
      '<marquee onstart=alert(1)>x</marquee>',
      '<video><source onerror=alert(1)></video>',
      '<audio src=x onerror=alert(1)>',
      '<input autofocus onfocus=alert(1)>',
      '<select autofocus onfocus=alert(1)>',
      '<div onmouseover="alert(1)">hover</div>',
      "<div/onmouseover='alert(1)'>x</div>",
      '<a href="javascript:void(0)" onclick="alert(1)">x</a>',
      '<x onpointerdown=alert(1)>x</x>',
      '<image src=x onerror=alert(1)>',
    ]);
  });

  it('flags any on+letters attribute inside a tag (browsers keep adding events), listed ones elsewhere', () => {
    expectAttacks(['<xss onbeforesomethingnew=alert(1)>', '<p onfoo="1">', ' onmouseover=alert(1)']);
    expectHarmless(['<p once="1">', '<p on="1">']);
    expectHarmless(['once=true', 'onboarding=true', 'online=1', '<p class=online>x</p>']);
  });

  it('flags the SVG attribute indirection that sets a handler or a link', () => {
    expectAttacks([
      '<svg><set attributeName=onmouseover to=alert(1) /></svg>',
      '<svg><animate attributeName=href values=javascript:alert(1) /></svg>',
    ]);
  });
});

describe('detectXss: URLs', () => {
  it('flags javascript: and vbscript: in attributes that take URLs', () => {
    expectAttacks([
      '<a href="javascript:alert(1)">x</a>',
      '<a href=javascript:alert(1)>x</a>',
      '<a href="JaVaScRiPt:alert(1)">x</a>',
      '<a href="vbscript:msgbox(1)">x</a>',
      '<form action="javascript:alert(1)"><input type=submit>',
      '<button formaction="javascript:alert(1)">x</button>',
      '<input type=image formaction=javascript:alert(1) src=x>',
      '<math><maction actiontype=statusline xlink:href=javascript:alert(1)>x</maction></math>',
      '<table background="javascript:alert(1)">',
      '<img dynsrc="javascript:alert(1)">',
      '<img lowsrc="javascript:alert(1)">',
      '<video poster=javascript:alert(1)//></video>',
    ]);
  });

  it('sees through whitespace, controls and character references in the scheme', () => {
    expectAttacks([
      '<a href=" javascript:alert(1)">x</a>',
      '<a href="\x0ejavascript:alert(1)">x</a>',
      '<a href="&#14;javascript:alert(1)">x</a>',
      '<a href="java\tscript:alert(1)">x</a>',
      '<a href="java\nscript:alert(1)">x</a>',
      '<a href="java&#x09;script:alert(1)">x</a>',
      '<a href="java&#x0A;script:alert(1)">x</a>',
      '<a href="jav&#x61;script:alert(1)">x</a>',
      '<a href=&#x6A;avascript:alert(1)>x</a>',
      '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
      '<a href="&#0000106avascript:alert(1)">x</a>',
      '<a href="javascript&colon;alert(1)">x</a>',
      '<a href="java&Tab;script:alert(1)">x</a>',
    ]);
  });

  it('flags data: URLs but images other than SVG', () => {
    expectAttacks([
      '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
      '<x:script xmlns:x="http://www.w3.org/1999/xhtml" src="data:,alert(1)" />',
      '<img src="data:image/svg+xml,<svg onload=alert(1)>">',
      '<svg><script xlink:href=data:,alert(1) />',
    ]);
    expectHarmless([
      '<img src="data:image/png;base64,iVBORw0KGgo=">',
      '<img src="data:image/gif;base64,R0lGOD">',
    ]);
  });

  it('leaves ordinary URLs alone, and a bare URL outside an attribute', () => {
    expectHarmless([
      '<a href="https://example.com/javascript.html">js</a>',
      '<a href="/relative/path">x</a>',
      '<img src="database.png">',
      '<a href="mailto:a@b.co">mail</a>',
      'javascript:alert(1)', // libinjection judges markup, not bare values (other CRS rules catch these)
    ]);
  });
});

describe('detectXss: CSS', () => {
  it('flags CSS that ran script: expression(), behavior, -moz-binding, @import, script URLs', () => {
    expectAttacks([
      '<div style="width:expression(alert(1))">',
      '<div style="xss:expr/*x*/ession(alert(1))">',
      '<div style="x:\\65xpression(alert(1))">',
      '<div style="background:url(javascript:alert(1))">',
      '<div style="background:url(\'javascript:alert(1)\')">',
      '<div style="behavior:url(x.htc)">',
      '<div style="-moz-binding:url(//evil.example/x.xml#x)">',
      '<div style="@import \'//evil.example/x.css\'">',
    ]);
  });

  it('leaves plain styling alone (libinjection flags every style attribute; we judge the CSS)', () => {
    expectHarmless([
      '<span style="color:red">red</span>',
      '<div style="margin: 0 auto; width: calc(100% - 20px)">x</div>',
      '<div style="background:url(/img/bg.png)">x</div>',
      'style=color:red',
    ]);
  });
});

describe('detectXss: starting contexts', () => {
  it('flags values that break out of a quoted or unquoted attribute value', () => {
    expectAttacks([
      '"><script>alert(1)</script>',
      '"><svg onload=alert(1)>',
      "'><img src=x onerror=alert(1)>",
      '" onmouseover="alert(1)',
      "' onmouseover='alert(1)",
      '` onmouseover=alert(1)',
      'x onmouseover=alert(1)',
      '" autofocus onfocus="alert(1)',
      '"/><img src=x onerror=alert(1)>',
      '" style="width:expression(alert(1))',
      "' href='javascript:alert(1)",
    ]);
  });

  it('flags values that break out of text elements and comments', () => {
    expectAttacks([
      '</textarea><script>alert(1)</script>',
      '</title><script>alert(1)</script>',
      '--><script>alert(1)</script>',
      '<!--><script>alert(1)</script>',
      '<!--<img src="--><img src=x onerror=alert(1)//">',
    ]);
  });
});

describe('detectXss: comments and declarations', () => {
  it('flags DOCTYPEs, XML declarations, entity declarations and conditional comments', () => {
    expectAttacks([
      '<!DOCTYPE html>',
      '<!doctype x [<!ENTITY y "z">]>',
      '<!ENTITY x SYSTEM "file:///etc/passwd">',
      '<?xml version="1.0"?>',
      '<?xml-stylesheet type="text/xsl" href="x.xsl"?>',
      '<?import namespace="t" implementation="#default#time2">',
      '<!--[if gte IE 4]><script>alert(1)</script><![endif]-->',
      '<!-- a`b -->',
    ]);
  });

  it('leaves plain comments and other processing instructions alone', () => {
    expectHarmless([
      '<!-- TODO: rewrite -->',
      '<?php echo 1; ?>',
      '<![CDATA[ plain text ]]>',
      '<% if user %>',
    ]);
  });
});

describe('detectXss: benign values', () => {
  const fixture = JSON.parse(
    readFileSync(new URL('../fixtures/waf-xss/benign.json', import.meta.url), 'utf8'),
  ) as {
    groups: Record<string, string[]>;
    knownFalsePositives: string[];
  };
  const values = Object.values(fixture.groups).flat();

  it('has at least 300 benign values', () => {
    expect(values.length).toBeGreaterThanOrEqual(300);
  });

  it('flags none of them but the known false positives, at most 1%', () => {
    const flagged = values.filter((v) => detectXss(bytes(v)));
    expect(flagged).toEqual(fixture.knownFalsePositives);
    expect(flagged.length / values.length).toBeLessThanOrEqual(0.01);
  });

  it('leaves plain formatting tags alone', () => {
    expectHarmless([
      '<b>bold</b>',
      '<i>x</i>',
      '<p>Hello</p>',
      '<br/>',
      '<a href="https://example.com">link</a>',
      '<img src="/a.png" alt="pic">',
      'a < b > c',
      '<jane@example.com>',
      '<https://example.com>',
    ]);
  });
});

describe('detectXss: robustness', () => {
  it('answers false for empty and unusual values', () => {
    expect(detectXss('')).toBe(false);
    expect(detectXss('<')).toBe(false);
    expect(detectXss('=')).toBe(false);
    expect(detectXss('<!--')).toBe(false);
    expect(detectXss('<a href=')).toBe(false);
    expect(detectXss('\0\0<\0>\0')).toBe(false);
  });

  it('ignores NULs in tag and attribute names, as old browsers did', () => {
    expect(detectXss('<scr\0ipt>')).toBe(true);
    expect(detectXss('<img src=x on\0error=alert(1)>')).toBe(true);
  });

  it('reads long adversarial values in time', () => {
    const n = 1 << 18;
    for (const piece of [
      '<',
      '<a ',
      '<!--',
      '<a b="c" ',
      '<a style="/*',
      '<a href="&#0000',
      '`<',
      '<%',
      '<?',
      '"',
      "'",
    ]) {
      expect(detectXss(piece.repeat(Math.ceil(n / piece.length)))).toBe(false);
    }
  });
});
