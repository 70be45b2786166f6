/**
 * What a credential may do, in the shape of Cloudflare's API token permission groups (docs/api.md,
 * "Permissions"). A token holds a list of these, valid on the zones it lists (`*`: the whole account);
 * the global API key holds them all, account-wide. An `edit` permission includes the `read` of its group.
 */

export const PERMISSIONS = {
  'zone:read': 'Zone Read: list zones and read their details',
  'zone:edit': 'Zone Edit: create zones (account-wide tokens only) and delete them',
  'zone_settings:edit': 'Zone Settings Edit: pause and unpause a zone',
  'billing:edit': "Billing Edit: change a zone's plan",
  'firewall_services:read': 'Firewall Services Read: filters and firewall rules',
  'firewall_services:edit': 'Firewall Services Edit: filters and firewall rules',
  'zone_waf:read': 'Zone WAF Read: the previous WAF, its overrides and the WAF migration',
  'zone_waf:edit': 'Zone WAF Edit: the previous WAF, its overrides and the WAF migration',
  'page_rules:read': 'Page Rules Read',
  'page_rules:edit': 'Page Rules Edit',
  'rulesets:read': 'Rulesets Read: rulesets, their versions and phase entry points',
  'rulesets:edit': 'Rulesets Edit: rulesets, their versions and phase entry points',
  'account_rulesets:read':
    "Account Rulesets Read: the account's rulesets and root entry points (account-wide tokens only)",
  'account_rulesets:edit':
    "Account Rulesets Edit: the account's rulesets and root entry points (account-wide tokens only)",
} as const;

export type PermissionName = keyof typeof PERMISSIONS;

export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as PermissionName[];

/** The products whose settings a token reads or edits, each with a `:read` and an `:edit` permission. */
export type Product = 'firewall_services' | 'zone_waf' | 'page_rules' | 'rulesets' | 'account_rulesets';
export type Access = 'read' | 'edit';

const READS = PERMISSION_NAMES.filter((name) => name.endsWith(':read'));
const PRODUCT_EDITS: PermissionName[] = [
  'zone_settings:edit',
  'firewall_services:edit',
  'zone_waf:edit',
  'page_rules:edit',
  'rulesets:edit',
];

/**
 * A token's permissions as stored or configured, expanded: permission names, or the words of the first
 * config format, still accepted. `read` is every read permission; `edit` adds editing every product's
 * settings and pausing, and — for an account-wide token only, which could always create zones — `zone:edit`,
 * `billing:edit` and `account_rulesets:edit`. So a token scoped to some zones no longer changes their plan or deletes them unless
 * given those permissions by name.
 */
export function expandPermissions(listed: readonly string[], accountWide: boolean): Set<PermissionName> {
  const granted = new Set<PermissionName>();
  for (const entry of listed) {
    if (entry === 'read' || entry === 'edit') {
      for (const name of READS) granted.add(name);
      if (entry === 'edit') {
        for (const name of PRODUCT_EDITS) granted.add(name);
        if (accountWide) {
          granted.add('zone:edit');
          granted.add('billing:edit');
          granted.add('account_rulesets:edit');
        }
      }
    } else if (isPermissionName(entry)) {
      granted.add(entry);
      // Editing includes reading: the edit of a product is useless without seeing what is edited.
      const read = entry.replace(/:edit$/, ':read');
      if (isPermissionName(read)) granted.add(read);
    }
  }
  return granted;
}

/** What a config may list: a permission name, or `read` / `edit` (see expandPermissions). */
export const isConfigurablePermission = (value: string): boolean =>
  value === 'read' || value === 'edit' || isPermissionName(value);

export function isPermissionName(value: string): value is PermissionName {
  return Object.hasOwn(PERMISSIONS, value);
}

/** Every permission: what the global API key holds. */
export const ALL_PERMISSIONS: ReadonlySet<PermissionName> = new Set(PERMISSION_NAMES);
