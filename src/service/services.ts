import type { Store } from '../store/store.js';
import { AuthService } from './auth.js';
import { FilterService } from './filters.js';
import { FirewallRuleService } from './firewall-rules.js';
import { ZoneService } from './zones.js';

/** Every service of the API over one store: what the HTTP layer calls. */
export interface Services {
  auth: AuthService;
  zones: ZoneService;
  filters: FilterService;
  firewallRules: FirewallRuleService;
}

export function createServices(store: Store): Services {
  const auth = new AuthService(store);
  return {
    auth,
    zones: new ZoneService(store, auth),
    filters: new FilterService(store),
    firewallRules: new FirewallRuleService(store),
  };
}
