import type { Store } from '../store/store.js';
import { AuthService } from './auth.js';
import { FilterService } from './filters.js';
import { FirewallRuleService } from './firewall-rules.js';
import { RulesetService } from './rulesets/service.js';
import type { WafMigrationHook } from './waf-migration-hook.js';
import { ZoneService } from './zones.js';

/** Every service of the API over one store: what the HTTP layer calls. */
export interface Services {
  auth: AuthService;
  zones: ZoneService;
  filters: FilterService;
  firewallRules: FirewallRuleService;
  rulesets: RulesetService;
  /** The WAF migration, when one is registered: entry-point writes hand over to it (waf-migration-hook.ts). */
  wafMigration?: WafMigrationHook;
}

export function createServices(store: Store): Services {
  const auth = new AuthService(store);
  const services: Services = {
    auth,
    zones: new ZoneService(store, auth),
    filters: new FilterService(store),
    firewallRules: new FirewallRuleService(store),
    // Reads the hook at each request, so that it may be registered after the services are created.
    rulesets: new RulesetService(store, () => services.wafMigration),
  };
  return services;
}
