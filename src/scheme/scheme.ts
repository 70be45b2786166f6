import catalogue from './fields.json' with { type: 'json' };
import { cloudflareFunctions, type FunctionDefinition } from './functions.js';
import type { Availability, Plan } from './profile.js';
import { parseType, type Type } from './types.js';
import type { Value } from './values.js';
import wafCatalogue from './waf-fields.json' with { type: 'json' };

/** A field of the catalogue (src/scheme/fields.json). */
export interface FieldDefinition {
  name: string;
  type: Type;
  /** Minimum plan; every plan when absent. */
  plan?: Plan;
  /** An add-on or product that must be enabled besides the plan (informational). */
  requires?: string;
  /** Phases where the field exists; every HTTP phase when absent. */
  availability?: Availability;
  /** Listed among the fields of Load Balancing rules (the only ones those rules accept). */
  loadBalancing?: boolean;
  /** Only in rewrite (value) expressions. */
  rewriteOnly?: boolean;
  /** Only in Cloudflare's managed rulesets, never in a customer's rule (src/scheme/waf-fields.json). */
  managedOnly?: boolean;
  deprecated?: { replacement: string };
  /** What values Cloudflare can produce, for lints. */
  domain?: { min?: number; max?: number; values?: readonly string[]; case?: 'upper' | 'lower' };
  /** Cloudflare has not published this field's type; ours is the best evidence. */
  typeUnverified?: boolean;
  /**
   * A constant, not something of the request: the field always has this value, the evaluator never reads
   * it from the input, and a sample request may not set it (`true`, "match everything").
   */
  constant?: Value;
  description?: string;
}

/** A custom list's kind: IP lists match IP fields, hostname lists `http.host`, ASN lists `ip.src.asnum`. */
export type ListKind = 'ip' | 'hostname' | 'asn';

export interface ListDefinition {
  name: string;
  kind: ListKind;
  /** Managed by Cloudflare (`$cf.…`) rather than declared by the account. */
  managed?: boolean;
  description?: string;
}

/** The value type a list of each kind holds, i.e. the left side it may follow. */
export const listItemType: Record<ListKind, Type> = { ip: 'Ip', hostname: 'Bytes', asn: 'Int' };

/** Everything the checker needs to know about names: fields, functions, lists. */
export interface Scheme {
  fields: ReadonlyMap<string, FieldDefinition>;
  functions: ReadonlyMap<string, FunctionDefinition>;
  lists: ReadonlyMap<string, ListDefinition>;
  /**
   * Whether `in $name` may name lists that are not declared: true for the Cloudflare scheme (account
   * lists are the account's business unless the caller declares them), false for custom schemes.
   */
  openLists: boolean;
  /** Cloudflare's own scheme: plan and phase rules and Cloudflare-specific lints apply. */
  cloudflare: boolean;
}

interface CatalogueEntry extends Omit<FieldDefinition, 'type'> {
  type: string;
}

function loadCatalogue(entries: CatalogueEntry[]): Map<string, FieldDefinition> {
  const fields = new Map<string, FieldDefinition>();
  for (const entry of entries) {
    const type = parseType(entry.type);
    if (!type) throw new Error(`fields.json: ${entry.name} has an unknown type ${entry.type}`);
    fields.set(entry.name, { ...entry, type });
  }
  // Cloudflare accepts the expression `true` ("match everything", e.g. for execute rules). It behaves as a
  // Bool field that is always true: a constant, which the layers above read from this definition.
  fields.set('true', {
    name: 'true',
    type: 'Bool',
    constant: true,
    description: 'Always true: a rule that matches everything.',
  });
  return fields;
}

const managedLists: ListDefinition[] = [
  { name: 'cf.open_proxies', kind: 'ip', managed: true, description: 'Open proxies' },
  { name: 'cf.anonymizer', kind: 'ip', managed: true, description: 'Anonymizers (open proxies, VPNs, Tor…)' },
  { name: 'cf.vpn', kind: 'ip', managed: true, description: 'VPN exit points' },
  { name: 'cf.malware', kind: 'ip', managed: true, description: 'Sources of malware' },
  { name: 'cf.botnetcc', kind: 'ip', managed: true, description: 'Botnet command-and-control servers' },
];

/** Cloudflare's scheme: the field catalogue, the documented functions and the managed lists. */
export const cloudflareScheme: Scheme = {
  fields: loadCatalogue([
    ...(catalogue as CatalogueEntry[]),
    // What a web application firewall inspects, for the managed rulesets only (docs/managed-rules.md).
    ...(wafCatalogue as CatalogueEntry[]).map(
      (entry): CatalogueEntry => ({ ...entry, availability: 'managed', managedOnly: true }),
    ),
  ]),
  functions: cloudflareFunctions,
  lists: new Map(managedLists.map((list) => [list.name, list])),
  openLists: true,
  cloudflare: true,
};

export interface SchemeDefinition {
  /** Field name → type as the reference engine prints it (`Bytes`, `Int`, `Bool`, `Ip`, `Array<T>`, `Map<T>`). */
  fields: Record<string, string>;
  /** Functions by name (defaults to none; pass `cloudflareFunctions` entries to reuse Cloudflare's). */
  functions?: Record<string, Omit<FunctionDefinition, 'name'>>;
  /** List name (without `$`) → kind. */
  lists?: Record<string, ListKind>;
}

export class SchemeError extends Error {}

/**
 * Builds a scheme of your own fields, as the reference engine lets embedders do. Throws SchemeError for a
 * malformed type or a name that is both a field and a function.
 */
export function defineScheme(definition: SchemeDefinition): Scheme {
  const fields = new Map<string, FieldDefinition>();
  for (const [name, text] of Object.entries(definition.fields)) {
    if (!/^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/.test(name)) throw new SchemeError(`invalid field name ${name}`);
    const type = parseType(text);
    if (!type) throw new SchemeError(`field ${name}: unknown type ${JSON.stringify(text)}`);
    fields.set(name, { name, type });
  }
  const functions = new Map<string, FunctionDefinition>();
  for (const [name, fn] of Object.entries(definition.functions ?? {})) {
    if (fields.has(name)) throw new SchemeError(`attempt to redefine field ${name}`);
    functions.set(name, { ...fn, name });
  }
  const lists = new Map<string, ListDefinition>();
  for (const [name, kind] of Object.entries(definition.lists ?? {})) {
    if (!(kind in listItemType)) throw new SchemeError(`list ${name}: unknown kind ${JSON.stringify(kind)}`);
    lists.set(name, { name, kind });
  }
  return { fields, functions, lists, openLists: false, cloudflare: false };
}
