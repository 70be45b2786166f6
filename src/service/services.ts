import type { Store } from '../store/store.js';
import { AuthService } from './auth.js';
import { FilterService } from './filters.js';
import { FirewallRuleService } from './firewall-rules.js';
import { PageRuleService } from './page-rules.js';
import { PreviousWafService } from './previous-waf.js';
import { RulesetService } from './rulesets/service.js';
import { type SimulateOptions, SimulateService } from './simulate.js';
import { WafMigrationService } from './waf-migration.js';
import { WafOverrideService } from './waf-overrides.js';
import { ZoneService } from './zones.js';

/** Every service of the API over one store: what the HTTP layer calls. */
export interface Services {
  auth: AuthService;
  zones: ZoneService;
  filters: FilterService;
  firewallRules: FirewallRuleService;
  previousWaf: PreviousWafService;
  wafOverrides: WafOverrideService;
  pageRules: PageRuleService;
  /** Also the hook of the managed entry point's PUT with `waf_migration` (waf-migration-hook.ts). */
  wafMigration: WafMigrationService;
  rulesets: RulesetService;
  /** `POST /zones/{id}/simulate`, a cfrules extension. */
  simulate: SimulateService;
}

export function createServices(store: Store, options: { simulate?: SimulateOptions } = {}): Services {
  const auth = new AuthService(store);
  const services: Services = {
    auth,
    zones: new ZoneService(store, auth),
    filters: new FilterService(store),
    firewallRules: new FirewallRuleService(store),
    previousWaf: new PreviousWafService(store),
    wafOverrides: new WafOverrideService(store),
    pageRules: new PageRuleService(store),
    wafMigration: new WafMigrationService(store),
    // The migration is the rulesets' hook; read at each request, so that it may be replaced.
    rulesets: new RulesetService(store, () => services.wafMigration),
    simulate: new SimulateService(store, options.simulate),
  };
  return services;
}
