import { FIREWALL_RULE_ACTIONS } from '../../scheme/actions.js';
import { PLANS } from '../../scheme/profile.js';
import type { ZoneFile } from './model.js';
import {
  anything,
  arrayOf,
  boolean,
  integer,
  nullable,
  objectOf,
  oneOf,
  recordOf,
  type Shape,
  string,
} from './shape.js';
import type { ZoneProblem } from './types.js';

/**
 * The shape of a zone file (./model.ts, docs/engine.md): the objects of the v4 API, key by key. Read-only
 * members the API returns (`created_on`, `version`…) are accepted so that exports read back; anything else
 * is a mistake reported with its JSON pointer.
 */

const filter = objectOf({
  'id?': string,
  expression: string,
  'paused?': boolean,
  'description?': string,
  'ref?': string,
});

const firewallRule = objectOf({
  'id?': string,
  'ref?': string,
  'description?': string,
  action: oneOf(FIREWALL_RULE_ACTIONS),
  'priority?': nullable(integer),
  'paused?': boolean,
  'products?': arrayOf(string),
  filter,
  'created_on?': string,
  'modified_on?': string,
});

const rulesetRule = objectOf({
  'id?': string,
  'ref?': string,
  'description?': string,
  action: string,
  expression: string,
  'enabled?': boolean,
  'action_parameters?': recordOf(anything),
  'logging?': objectOf({ enabled: boolean }),
  'ratelimit?': anything,
  'categories?': arrayOf(string),
  'score_threshold?': integer,
  'version?': string,
  'last_updated?': string,
});

const ruleset = objectOf({
  id: string,
  'name?': string,
  'description?': string,
  kind: oneOf(['zone', 'custom', 'root', 'managed']),
  phase: string,
  'source?': string,
  'version?': string,
  'last_updated?': string,
  rules: arrayOf(rulesetRule),
});

const modes = arrayOf(objectOf({ id: string, mode: string }));

const previousWaf = objectOf({
  'enabled?': boolean,
  'packages?': arrayOf(objectOf({ id: string, 'sensitivity?': string, 'action_mode?': string })),
  'groups?': modes,
  'rules?': modes,
  'overrides?': arrayOf(
    objectOf({
      'id?': string,
      urls: arrayOf(string),
      'priority?': integer,
      'paused?': boolean,
      'groups?': recordOf(string),
      'rules?': recordOf(string),
      'rewrite_action?': recordOf(string),
      'description?': nullable(string),
    }),
  ),
});

const pageRule = objectOf({
  'id?': string,
  targets: arrayOf(
    objectOf({ target: oneOf(['url']), constraint: objectOf({ operator: string, value: string }) }),
  ),
  actions: arrayOf(objectOf({ id: string, 'value?': anything })),
  'priority?': integer,
  'status?': oneOf(['active', 'disabled']),
  'created_on?': string,
  'modified_on?': string,
});

const wafMigration = objectOf({
  old_waf_status: oneOf(['enabled', 'disabled']),
  new_waf_status: oneOf(['enabled', 'disabled']),
  'migration_state?': string,
  'created?': anything,
  'source?': string,
});

const zoneFile: Shape = objectOf({
  'plan?': oneOf(PLANS),
  'name?': string,
  'firewall_rules?': arrayOf(firewallRule),
  'rulesets?': arrayOf(ruleset),
  'account_rulesets?': arrayOf(ruleset),
  'previous_waf?': previousWaf,
  'page_rules?': arrayOf(pageRule),
  'waf_migration?': wafMigration,
});

/** Checks the shape of a zone file; the meaning (expressions, references) is checked by compileZone. */
export function readZone(
  json: unknown,
): { ok: true; zone: ZoneFile } | { ok: false; problems: ZoneProblem[] } {
  const problems: ZoneProblem[] = [];
  zoneFile(json, '', problems);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, zone: json as ZoneFile };
}
