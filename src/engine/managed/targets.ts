import { quotedString, rawString } from './inputs.js';

/**
 * What a managed rule inspects, written as the OWASP Core Rule Set writes it — ModSecurity's variables
 * joined by `|` (`REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|ARGS_NAMES|ARGS|XML:/*`) — turned into the
 * Rules-language values of the managed-only `waf.*` fields (src/scheme/waf-fields.json). Keeping the Core
 * Rule Set's notation lets a rule of the catalogue be checked against the Core Rule Set's at a glance.
 *
 * A variable is a collection (ARGS: every argument's value), one member of it (`ARGS:id`,
 * `REQUEST_HEADERS:User-Agent`; `/regex/` selects members by name) or a single value (REQUEST_FILENAME).
 * An exclusion (`!REQUEST_COOKIES:/__utm/`) takes members out of a collection named in the same list.
 */

interface Collection {
  /** Field of the members' values, and of their names (for `_NAMES` variables). */
  readonly values: string;
  /** A Map field, for members selected or excluded by name. */
  readonly byName?: string;
  /** Names in the map are lower case (headers). */
  readonly lowerNames?: boolean;
}

const COLLECTIONS: Readonly<Record<string, Collection>> = {
  ARGS: { values: 'waf.args.values', byName: 'waf.args' },
  ARGS_NAMES: { values: 'waf.args.names' },
  ARGS_GET: { values: 'waf.args.get.values' },
  ARGS_GET_NAMES: { values: 'waf.args.get.names' },
  ARGS_POST: { values: 'waf.args.post.values' },
  ARGS_POST_NAMES: { values: 'waf.args.post.names' },
  REQUEST_COOKIES: { values: 'waf.cookies.values', byName: 'waf.cookies' },
  REQUEST_COOKIES_NAMES: { values: 'waf.cookies.names' },
  REQUEST_HEADERS: { values: 'waf.headers.values', byName: 'http.request.headers', lowerNames: true },
  REQUEST_HEADERS_NAMES: { values: 'waf.headers.names' },
  FILES: { values: 'waf.files.names' },
  FILES_NAMES: { values: 'waf.files.fields' },
  XML: { values: 'waf.xml.values' },
};

/** Variables with one value. */
const SINGLE: Readonly<Record<string, string>> = {
  REQUEST_FILENAME: 'waf.request.filename',
  REQUEST_BASENAME: 'waf.request.basename',
  REQUEST_URI: 'waf.request.uri',
  REQUEST_URI_RAW: 'waf.request.uri',
  REQUEST_LINE: 'waf.request.line',
  REQUEST_BODY: 'waf.request.body',
  REQUEST_METHOD: 'http.request.method',
  REQUEST_PROTOCOL: 'http.request.version',
  QUERY_STRING: 'http.request.uri.query',
  REQBODY_PROCESSOR: 'waf.request.body.processor',
};

export class TargetError extends Error {}

interface Variable {
  readonly name: string;
  /** After `:`: a member name, or a `/regex/` over names. */
  readonly member?: string;
  readonly excluded: boolean;
}

function readVariable(text: string): Variable {
  const excluded = text.startsWith('!');
  const body = excluded ? text.slice(1) : text;
  const colon = body.indexOf(':');
  if (colon === -1) return { name: body, excluded };
  return { name: body.slice(0, colon), member: body.slice(colon + 1), excluded };
}

/** A name selector as a regex over (lower-cased, for headers) names. */
function nameRegex(member: string, lower: boolean): string {
  if (member.length > 1 && member.startsWith('/') && member.endsWith('/')) {
    const pattern = member.slice(1, -1);
    return lower ? `(?i)${pattern}` : pattern;
  }
  const escaped = member.replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`);
  return `${lower ? '(?i)' : ''}^${escaped}$`;
}

/**
 * The Rules-language values (each Bytes or Array<Bytes>) of a target list, in order. Members of a
 * collection are selected with `waf_values_matching`, exclusions applied with `waf_values_except`.
 */
export function targetValues(targets: string): string[] {
  const variables = targets.split('|').map((item) => readVariable(item.trim()));
  const exclusions = new Map<string, string[]>();
  for (const variable of variables) {
    if (!variable.excluded) continue;
    if (!variable.member) throw new TargetError(`an exclusion names a member: ${targets}`);
    const list = exclusions.get(variable.name) ?? [];
    list.push(variable.member);
    exclusions.set(variable.name, list);
  }
  const values: string[] = [];
  for (const variable of variables) {
    if (variable.excluded) continue;
    const single = SINGLE[variable.name];
    if (single) {
      values.push(single);
      continue;
    }
    // XML:/* (text) and XML://@* (attribute values) are both in waf.xml.values: listed once.
    if (variable.name === 'XML' && [undefined, '/*', '//@*'].includes(variable.member)) {
      if (!values.includes('waf.xml.values')) values.push('waf.xml.values');
      continue;
    }
    const collection = COLLECTIONS[variable.name];
    if (!collection) throw new TargetError(`unknown variable ${variable.name} in ${targets}`);
    const lower = collection.lowerNames === true;
    if (variable.member !== undefined) {
      if (!collection.byName) throw new TargetError(`${variable.name} has no members by name`);
      if (!variable.member.startsWith('/') && lower) {
        values.push(`${collection.byName}[${quotedString(variable.member.toLowerCase())}]`);
      } else if (!variable.member.startsWith('/')) {
        values.push(`${collection.byName}[${quotedString(variable.member)}]`);
      } else {
        values.push(
          `waf_values_matching(${collection.byName}, ${rawString(nameRegex(variable.member, lower))})`,
        );
      }
      continue;
    }
    // An exclusion takes members out of its own collection only (`!REQUEST_COOKIES:x` leaves
    // REQUEST_COOKIES_NAMES whole), as in ModSecurity.
    const excluded = exclusions.get(variable.name);
    if (!excluded) {
      values.push(collection.values);
      continue;
    }
    if (!collection.byName) throw new TargetError(`${variable.name} cannot exclude members by name`);
    const pattern = rawString(excluded.map((member) => nameRegex(member, lower)).join('|'));
    values.push(`waf_values_except(${collection.byName}, ${pattern})`);
  }
  return values;
}
