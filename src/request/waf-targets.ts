import { asciiLower, bytesOf as utf8Bytes, textOf as utf8Text } from '../scheme/values.js';
import { inspectedBody, multipartParts } from './body.js';
import { percentDecode, trimOws } from './encoding.js';
import { type HttpMessage, memo, type SampleRequest } from './model.js';
import { parseMultipart } from './multipart.js';
import { headerValues, type Pair, parseContentType, splitArguments } from './parsing.js';

/**
 * What a web application firewall inspects, read the way ModSecurity reads it for the OWASP Core Rule Set
 * (its variables ARGS, REQUEST_COOKIES, REQUEST_HEADERS, FILES, XML, REQUEST_FILENAME…), for the `waf.*`
 * fields that only managed rules may use (docs/managed-rules.md, "Targets"). Cloudflare's own fields keep
 * what the client sent; these decode what a server would decode before the application sees it:
 *
 * - arguments: the query string, and the body by its Content-Type — url-encoded forms, multipart forms (the
 *   parts without a file name), JSON (every leaf, named by its path `json.a.b.0`) — with names and values
 *   URL-decoded once (`%XX` and `+`; an escape that is not one stays as it is);
 * - cookies: every `name=value` item of the Cookie headers, as sent;
 * - files: the file names of multipart parts that carry one, and the names of those parts;
 * - XML: the text and attribute values of an XML body, with its entities decoded.
 */

/** The request's arguments, in order: query first, then body. */
export interface WafArguments {
  readonly query: readonly Pair[];
  readonly body: readonly Pair[];
}

/** `%XX` and `+` decoded, as a server decodes a form; invalid escapes kept. */
export function formDecode(bytes: string): string {
  return percentDecode(bytes.includes('+') ? bytes.replaceAll('+', ' ') : bytes);
}

const decodedPairs = (text: string): Pair[] =>
  splitArguments(text).map(([name, value]) => [formDecode(name), formDecode(value)]);

function contentTypeOf(h: HttpMessage) {
  const value = headerValues(h.headers, 'content-type')[0];
  return value === undefined ? undefined : parseContentType(value);
}

/** Which of ModSecurity's request body processors CRS would use for this Content-Type. */
export type BodyProcessor = 'urlencoded' | 'multipart' | 'json' | 'xml' | undefined;

export function bodyProcessor(h: HttpMessage): BodyProcessor {
  const type = contentTypeOf(h)?.mediaType;
  if (type === undefined) return undefined;
  if (type === 'application/x-www-form-urlencoded') return 'urlencoded';
  if (type.startsWith('multipart/')) return 'multipart';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'text/xml' || type === 'application/xml' || type.endsWith('+xml')) return 'xml';
  return undefined;
}

/**
 * REQUEST_BODY: the body as sent, when ModSecurity keeps it as a variable — when a url-encoded form
 * processor reads it, or no processor does (CRS turns on `forceRequestBodyVariable` for every other
 * Content-Type, rule 901340). A multipart, JSON or XML body is read into arguments or an XML tree instead,
 * and REQUEST_BODY is empty: rules that inspect it do not see the markup or the names of such bodies.
 */
export function requestBodyVariable(h: HttpMessage): string {
  const processor = bodyProcessor(h);
  return processor === undefined || processor === 'urlencoded' ? inspectedBody(h) : '';
}

export function wafArguments(request: SampleRequest, h: HttpMessage): WafArguments {
  return memo(request, 'waf.args', () => ({
    query: h.query === undefined ? [] : decodedPairs(h.query),
    body: bodyArguments(request, h),
  }));
}

function bodyArguments(request: SampleRequest, h: HttpMessage): Pair[] {
  switch (bodyProcessor(h)) {
    case 'urlencoded':
      return decodedPairs(inspectedBody(h));
    case 'multipart':
      return (multipartParts(request, h) ?? [])
        .filter((part) => part.filenames.length === 0)
        .flatMap((part) => part.names.map((name): Pair => [name, part.value]));
    case 'json':
      return jsonArguments(inspectedBody(h));
    default:
      return [];
  }
}

/** Every leaf of a JSON body as an argument named by its path; nothing when the body is not JSON. */
export function jsonArguments(body: string): Pair[] {
  let document: unknown;
  try {
    document = JSON.parse(utf8Text(body));
  } catch {
    return [];
  }
  const pairs: Pair[] = [];
  const visit = (value: unknown, path: string): void => {
    if (Array.isArray(value)) for (const [i, item] of value.entries()) visit(item, `${path}.${i}`);
    else if (value !== null && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) visit(item, `${path}.${utf8Bytes(key)}`);
    else pairs.push([path, value === null ? '' : utf8Bytes(String(value))]);
  };
  visit(document, 'json');
  return pairs;
}

/** Cookie items of every Cookie header, in order, names and values as sent. */
export function wafCookies(request: SampleRequest, h: HttpMessage): Pair[] {
  return memo(request, 'waf.cookies', () => {
    const pairs: Pair[] = [];
    for (const header of headerValues(h.headers, 'cookie')) {
      for (const item of header.split(';')) {
        const trimmed = trimOws(item);
        if (trimmed === '') continue;
        const eq = trimmed.indexOf('=');
        pairs.push(
          eq === -1 ? [trimmed, ''] : [trimOws(trimmed.slice(0, eq)), trimOws(trimmed.slice(eq + 1))],
        );
      }
    }
    return pairs;
  });
}

/**
 * The parameters of a multipart part's Content-Disposition as ModSecurity's multipart parser reads them: a
 * quoted value ends at the next unescaped `"`, and a backslash escapes only `"` and `\` — any other
 * backslash is part of the value (browsers send Windows paths that way), so `"1.j\s\p"` stays `1.j\s\p`.
 * Names are lower-cased; the first of a repeated name wins.
 */
export function dispositionParameters(disposition: string): Map<string, string> {
  const params = new Map<string, string>();
  let at = disposition.indexOf(';');
  while (at !== -1 && at < disposition.length) {
    at++;
    while (disposition[at] === ' ' || disposition[at] === '\t') at++;
    const eq = disposition.indexOf('=', at);
    const semicolon = disposition.indexOf(';', at);
    if (eq === -1 || (semicolon !== -1 && semicolon < eq)) {
      at = semicolon;
      continue;
    }
    const name = asciiLower(trimOws(disposition.slice(at, eq)));
    let start = eq + 1;
    while (disposition[start] === ' ' || disposition[start] === '\t') start++;
    let value = '';
    if (disposition[start] === '"') {
      let i = start + 1;
      for (; i < disposition.length && disposition[i] !== '"'; i++) {
        const next = disposition[i + 1];
        if (disposition[i] === '\\' && (next === '"' || next === '\\')) i++;
        value += disposition[i];
      }
      at = disposition.indexOf(';', i);
    } else {
      const end = disposition.indexOf(';', start);
      value = trimOws(disposition.slice(start, end === -1 ? disposition.length : end));
      at = end;
    }
    if (!params.has(name)) params.set(name, value);
  }
  return params;
}

/** The multipart parts that upload a file (their Content-Disposition gives a file name), with its parameters. */
function fileParts(request: SampleRequest, h: HttpMessage) {
  if (bodyProcessor(h) !== 'multipart') return [];
  return memo(request, 'waf.files', () =>
    (multipartParts(request, h) ?? []).flatMap((part) => {
      const params = part.dispositions.map(dispositionParameters).find((found) => found.has('filename'));
      return params
        ? [{ field: params.get('name') ?? '', filename: params.get('filename') ?? '', part }]
        : [];
    }),
  );
}

/** Uploaded files: the part's field name and the file name it gives (FILES_NAMES and FILES). */
export function wafFiles(request: SampleRequest, h: HttpMessage): Pair[] {
  return fileParts(request, h).map(({ field, filename }): Pair => [field, filename]);
}

/**
 * The bytes of every uploaded file together: ModSecurity's FILES_COMBINED_SIZE. A size is not content:
 * it is counted over the whole body, past the inspection limit that cuts what rules read.
 */
export function filesCombinedSize(request: SampleRequest, h: HttpMessage): number {
  if (h.body.length <= h.bodyLimit)
    return fileParts(request, h).reduce((sum, { part }) => sum + part.value.length, 0);
  const boundary = contentTypeOf(h)?.params.get('boundary');
  if (bodyProcessor(h) !== 'multipart' || !boundary) return 0;
  let size = 0;
  for (const part of parseMultipart(h.body, boundary))
    if (part.dispositions.some((disposition) => dispositionParameters(disposition).has('filename')))
      size += part.value.length;
  return size;
}

/** The length of every argument's name and value together: ModSecurity's ARGS_COMBINED_SIZE. */
export function argsCombinedSize(request: SampleRequest, h: HttpMessage): number {
  const { query, body } = wafArguments(request, h);
  let size = 0;
  for (const [name, value] of query) size += name.length + value.length;
  for (const [name, value] of body) size += name.length + value.length;
  return size;
}

/** Every header line of every multipart part, as sent: ModSecurity's MULTIPART_PART_HEADERS. */
export function multipartHeaders(request: SampleRequest, h: HttpMessage): string[] {
  if (bodyProcessor(h) !== 'multipart') return [];
  return (multipartParts(request, h) ?? []).flatMap((part) => part.headerLines);
}

/** The path as sent, without the query: ModSecurity's REQUEST_FILENAME. */
export const requestFilename = (h: HttpMessage): string | undefined => h.path;

/** The last segment of the path (after the last `/` or `\`): ModSecurity's REQUEST_BASENAME. */
export function requestBasename(h: HttpMessage): string | undefined {
  if (h.path === undefined) return undefined;
  const cut = Math.max(h.path.lastIndexOf('/'), h.path.lastIndexOf('\\'));
  return h.path.slice(cut + 1);
}

/** The request line as a server reads it: `GET /a?b HTTP/1.1`. */
export function requestLine(h: HttpMessage): string | undefined {
  if (h.method === undefined || h.path === undefined) return undefined;
  const target = h.query === undefined ? h.path : `${h.path}?${h.query}`;
  return `${h.method} ${target} ${h.version ?? 'HTTP/1.1'}`;
}

/** Text content and attribute values of an XML body; nothing when the body is not XML. */
export function xmlValues(h: HttpMessage): string[] {
  return bodyProcessor(h) === 'xml' ? xmlText(inspectedBody(h)) : [];
}

/**
 * A lenient reading of XML for inspection: character data between tags (CDATA sections as they are), and
 * the values of attributes, entities decoded. Comments, processing instructions and declarations are
 * skipped. Not a validating parser: a WAF must read what an attacker sends, well-formed or not.
 */
export function xmlText(xml: string): string[] {
  const values: string[] = [];
  let at = 0;
  while (at < xml.length) {
    const open = xml.indexOf('<', at);
    const text = xml.slice(at, open === -1 ? xml.length : open);
    if (text.trim() !== '') values.push(decodeXmlEntities(text));
    if (open === -1) break;
    if (xml.startsWith('<![CDATA[', open)) {
      const end = xml.indexOf(']]>', open);
      values.push(xml.slice(open + 9, end === -1 ? xml.length : end));
      at = end === -1 ? xml.length : end + 3;
      continue;
    }
    const closer = xml.startsWith('<!--', open) ? '-->' : '>';
    const close = xml.indexOf(closer, open + 1);
    const tag = xml.slice(open + 1, close === -1 ? xml.length : close);
    if (closer === '>' && !tag.startsWith('!') && !tag.startsWith('?')) values.push(...attributeValues(tag));
    at = close === -1 ? xml.length : close + closer.length;
  }
  return values;
}

function attributeValues(tag: string): string[] {
  const values: string[] = [];
  let at = tag.indexOf('=');
  while (at !== -1) {
    let start = at + 1;
    while (tag[start] === ' ' || tag[start] === '\t' || tag[start] === '\n' || tag[start] === '\r') start++;
    const quote = tag[start];
    if (quote === '"' || quote === "'") {
      const end = tag.indexOf(quote, start + 1);
      values.push(decodeXmlEntities(tag.slice(start + 1, end === -1 ? tag.length : end)));
      at = end === -1 ? -1 : tag.indexOf('=', end + 1);
    } else {
      at = tag.indexOf('=', start);
    }
  }
  return values;
}

const XML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeXmlEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|lt|gt|amp|quot|apos);/g, (whole, name: string) => {
    if (!name.startsWith('#')) return XML_ENTITIES[name] ?? whole;
    const code = name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return code <= 0x10ffff ? utf8Bytes(String.fromCodePoint(code)) : whole;
  });
}
