import type { PageRuleEntry, PreviousWafEntry } from '../zone/model.js';
import { isObject, segment } from '../zone/shape.js';
import type { ZoneProblem } from '../zone/types.js';
import { type PreviousWafCatalogue, SHIPPED_CATALOGUE } from './catalogue-view.js';
import { OVERRIDE_ACTIONS } from './model.js';
import { ACTION_MODES, SENSITIVITIES } from './owasp-sensitivity.js';
import { urlFilter } from './url-match.js';
import { PAGE_RULE_OPERATORS, urlPatternExpression } from './url-patterns.js';

/**
 * What the zone file says about the previous WAF and page rules that the simulator cannot take: ids the
 * catalogue does not have, modes outside an item's `allowed_modes`, settings an item does not have, and
 * values outside what the API accepts. Each problem has a JSON pointer into the zone file.
 */

type Problems = ZoneProblem[];

/** A JSON pointer from segments. */
const pointer = (...segments: (string | number)[]): string => segments.map(segment).join('');

const shown = (value: unknown): string => JSON.stringify(value) ?? String(value);

function problem(problems: Problems, path: string, code: string, message: string): void {
  problems.push({ path, code, message });
}

/** An array at `path`, or a problem (undefined is fine: the key is optional). */
function arrayAt(value: unknown, path: string, problems: Problems): unknown[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  problem(problems, path, 'invalid-value', 'expected an array');
  return [];
}

function oneOf(
  value: unknown,
  allowed: readonly string[],
  path: string,
  what: string,
  problems: Problems,
): void {
  if (typeof value === 'string' && allowed.includes(value)) return;
  problem(
    problems,
    path,
    'invalid-value',
    `${what} must be one of ${allowed.join(', ')}; got ${shown(value)}`,
  );
}

export function checkPreviousWaf(
  config: PreviousWafEntry | undefined,
  pageRules: readonly PageRuleEntry[] | undefined,
): ZoneProblem[] {
  return checkPreviousWafWith(SHIPPED_CATALOGUE, config, pageRules);
}

export function checkPreviousWafWith(
  catalogue: PreviousWafCatalogue,
  config: PreviousWafEntry | undefined,
  pageRules: readonly PageRuleEntry[] | undefined,
): ZoneProblem[] {
  const problems: Problems = [];
  if (config !== undefined) checkConfig(catalogue, config, problems);
  arrayAt(pageRules, '/page_rules', problems).forEach((rule, index) => {
    checkPageRule(rule, pointer('page_rules', index), problems);
  });
  return problems;
}

function checkConfig(catalogue: PreviousWafCatalogue, config: unknown, problems: Problems): void {
  const base = '/previous_waf';
  if (!isObject(config)) {
    problem(problems, base, 'invalid-value', 'previous_waf must be an object');
    return;
  }
  if (config.enabled !== undefined && typeof config.enabled !== 'boolean') {
    problem(problems, `${base}/enabled`, 'invalid-value', 'enabled must be true or false');
  }
  checkPackages(catalogue, config.packages, problems);
  checkModes(catalogue.groups, 'group', config.groups, 'groups', problems);
  checkModes(catalogue.rules, 'rule', config.rules, 'rules', problems);
  arrayAt(config.overrides, `${base}/overrides`, problems).forEach((override, index) => {
    checkOverride(catalogue, override, pointer('previous_waf', 'overrides', index), problems);
  });
}

/** Entries `{id, …}`, in order: the id must be the catalogue's and given once; `each` checks the rest. */
function forEachEntry(
  value: unknown,
  key: string,
  what: string,
  known: ReadonlySet<string>,
  problems: Problems,
  each: (entry: Record<string, unknown>, path: string, id: string) => void,
): void {
  const seen = new Set<string>();
  arrayAt(value, pointer('previous_waf', key), problems).forEach((entry, index) => {
    const path = pointer('previous_waf', key, index);
    if (!isObject(entry)) {
      problem(problems, path, 'invalid-value', `expected an object with the ${what}'s id`);
      return;
    }
    const id = entry.id;
    if (typeof id !== 'string' || !known.has(id)) {
      problem(problems, `${path}/id`, 'unknown-id', `${shown(id)} is not a ${what} of the previous WAF`);
      return;
    }
    if (seen.has(id)) {
      problem(problems, `${path}/id`, 'duplicate-id', `the ${what} ${id} is given twice`);
      return;
    }
    seen.add(id);
    each(entry, path, id);
  });
}

function checkPackages(catalogue: PreviousWafCatalogue, value: unknown, problems: Problems): void {
  const known = new Set(catalogue.packages.map((pkg) => pkg.id));
  forEachEntry(value, 'packages', 'package', known, problems, (entry, path, id) => {
    const pkg = catalogue.packages.find((candidate) => candidate.id === id);
    for (const [key, allowed] of [
      ['sensitivity', SENSITIVITIES],
      ['action_mode', ACTION_MODES],
    ] as const) {
      if (entry[key] === undefined) continue;
      if (pkg?.detection_mode !== 'anomaly') {
        problem(
          problems,
          `${path}/${key}`,
          'invalid-value',
          `${key} is a setting of anomaly packages; ${pkg?.name ?? id} is a traditional package`,
        );
      } else {
        oneOf(entry[key], allowed, `${path}/${key}`, key, problems);
      }
    }
  });
}

function checkModes(
  items: readonly { id: string; allowed_modes: readonly string[] }[],
  what: string,
  value: unknown,
  key: string,
  problems: Problems,
): void {
  const known = new Set(items.map((item) => item.id));
  forEachEntry(value, key, what, known, problems, (entry, path, id) => {
    const item = items.find((candidate) => candidate.id === id);
    oneOf(entry.mode, item?.allowed_modes ?? [], `${path}/mode`, `the mode of ${what} ${id}`, problems);
  });
}

function checkOverride(
  catalogue: PreviousWafCatalogue,
  override: unknown,
  path: string,
  problems: Problems,
): void {
  if (!isObject(override)) {
    problem(problems, path, 'invalid-value', 'an override must be an object');
    return;
  }
  const urls = override.urls;
  if (!Array.isArray(urls) || urls.length === 0) {
    problem(problems, `${path}/urls`, 'invalid-value', 'urls must be a non-empty array of URL patterns');
  } else {
    urls.forEach((url, index) => {
      if (typeof url !== 'string' || url === '' || /\s/.test(url)) {
        problem(
          problems,
          `${path}/urls/${index}`,
          'invalid-value',
          'a URL pattern is a non-empty string without spaces',
        );
      } else if (urlFilter(urlPatternExpression(url)) === null) {
        problem(
          problems,
          `${path}/urls/${index}`,
          'invalid-value',
          `${shown(url)} is not a URL pattern cfrules can match`,
        );
      }
    });
  }
  if (override.priority !== undefined && !Number.isInteger(override.priority)) {
    problem(problems, `${path}/priority`, 'invalid-value', 'priority must be an integer');
  }
  if (override.paused !== undefined && typeof override.paused !== 'boolean') {
    problem(problems, `${path}/paused`, 'invalid-value', 'paused must be true or false');
  }
  const groups = new Set(catalogue.groups.map((group) => group.id));
  const rules = new Set(catalogue.rules.map((rule) => rule.id));
  const actions = new Set<string>(OVERRIDE_ACTIONS);
  const unknownId = 'unknown-id';
  checkActionMap(
    override.groups,
    `${path}/groups`,
    { known: groups, what: 'a group of the previous WAF', code: unknownId },
    problems,
  );
  checkActionMap(
    override.rules,
    `${path}/rules`,
    { known: rules, what: 'a rule of the previous WAF', code: unknownId },
    problems,
  );
  checkActionMap(
    override.rewrite_action,
    `${path}/rewrite_action`,
    { known: actions, what: 'an override action', code: 'invalid-value' },
    problems,
  );
}

/** `{key: action}`: known keys (ids, or actions for rewrite_action) and override actions as values. */
function checkActionMap(
  value: unknown,
  path: string,
  keys: { known: ReadonlySet<string>; what: string; code: string },
  problems: Problems,
): void {
  if (value === undefined) return;
  if (!isObject(value)) {
    problem(problems, path, 'invalid-value', 'expected an object');
    return;
  }
  for (const [key, action] of Object.entries(value)) {
    const at = `${path}${pointer(key)}`;
    if (!keys.known.has(key)) {
      problem(problems, at, keys.code, `${shown(key)} is not ${keys.what}`);
    } else {
      oneOf(action, OVERRIDE_ACTIONS, at, 'an override action', problems);
    }
  }
}

function checkPageRule(rule: unknown, path: string, problems: Problems): void {
  if (!isObject(rule)) {
    problem(problems, path, 'invalid-value', 'a page rule must be an object');
    return;
  }
  const targets = rule.targets;
  if (!Array.isArray(targets) || targets.length !== 1) {
    problem(problems, `${path}/targets`, 'invalid-value', 'targets must hold exactly one URL target');
  } else {
    const target = targets[0];
    const constraint = isObject(target) ? target.constraint : undefined;
    if (!isObject(target) || target.target !== 'url' || !isObject(constraint)) {
      problem(
        problems,
        `${path}/targets/0`,
        'invalid-value',
        'a target is {"target": "url", "constraint": {"operator", "value"}}',
      );
    } else {
      oneOf(
        constraint.operator,
        PAGE_RULE_OPERATORS,
        `${path}/targets/0/constraint/operator`,
        'operator',
        problems,
      );
      if (typeof constraint.value !== 'string' || constraint.value === '') {
        problem(
          problems,
          `${path}/targets/0/constraint/value`,
          'invalid-value',
          'the URL pattern must be a non-empty string',
        );
      }
    }
  }
  arrayAt(rule.actions, `${path}/actions`, problems).forEach((action, index) => {
    const at = `${path}/actions/${index}`;
    if (!isObject(action) || typeof action.id !== 'string') {
      problem(problems, at, 'invalid-value', 'an action is {"id", "value"}');
    } else if (action.id === 'waf') {
      oneOf(action.value, ['on', 'off'], `${at}/value`, 'the value of waf', problems);
    } else if (action.id === 'disable_security' && action.value !== undefined) {
      problem(problems, `${at}/value`, 'invalid-value', 'disable_security takes no value');
    }
  });
  if (rule.status !== undefined)
    oneOf(rule.status, ['active', 'disabled'], `${path}/status`, 'status', problems);
  if (rule.priority !== undefined && !(Number.isInteger(rule.priority) && (rule.priority as number) >= 1)) {
    problem(problems, `${path}/priority`, 'invalid-value', 'priority must be an integer of at least 1');
  }
}
