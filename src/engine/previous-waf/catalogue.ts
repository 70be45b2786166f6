import { projectId } from '../managed/ids.js';
import {
  type AnomalyPackage,
  ON_OFF_MODES,
  type PreviousWafGroup,
  type PreviousWafPackage,
  type PreviousWafRule,
  TRADITIONAL_MODES,
  type TraditionalDenyRule,
  type TraditionalPackage,
} from './model.js';
import {
  type MigrationTarget,
  managedCategories,
  managedRules,
  noEquivalent,
  owaspCategories,
  owaspRules,
} from './targets.js';

/**
 * The previous WAF's packages, groups and rules that every Pro, Business and Enterprise zone had, and
 * what replaces each in the new WAF Managed Rules. Ids from Cloudflare's API fixtures are kept (the
 * OWASP package, the Project Honey Pot group and its SELECT rule, the group and rule 100015 of the
 * override example); the others are the project's own (docs/managed-rules.md).
 */

export const OWASP_PACKAGE_ID = 'a25a9a7e9c00afc1fb2e0245519d725b';
export const CLOUDFLARE_PACKAGE_ID = projectId('previous-waf:package:cloudflare');
export const USER_PACKAGE_ID = projectId('previous-waf:package:user');

const cloudflarePackage: TraditionalPackage = {
  id: CLOUDFLARE_PACKAGE_ID,
  name: 'CloudFlare',
  description:
    "Cloudflare's own rules against common attacks and against vulnerabilities of popular applications.",
  detection_mode: 'traditional',
};

// Terraform's defaults for the package: high sensitivity, challenge.
const owaspPackage: AnomalyPackage = {
  id: OWASP_PACKAGE_ID,
  name: 'OWASP ModSecurity Core Rule Set',
  description: 'Anomaly-scoring rules for the OWASP Top 10 and more.',
  detection_mode: 'anomaly',
  sensitivity: 'high',
  action_mode: 'challenge',
};

// Rules a customer asked Cloudflare support to add: none by default.
const userPackage: TraditionalPackage = {
  id: USER_PACKAGE_ID,
  name: 'USER',
  description: 'Rules requested by the customer.',
  detection_mode: 'traditional',
};

export const PREVIOUS_WAF_PACKAGES: readonly PreviousWafPackage[] = [
  cloudflarePackage,
  owaspPackage,
  userPackage,
];

interface RuleSpec {
  readonly id?: string;
  readonly key: string;
  readonly description: string;
  /** Traditional deny rules only (default `block`); `allow` makes a traditional allow rule. */
  readonly defaultMode?: TraditionalDenyRule['default_mode'] | 'allow';
  readonly replacedBy: MigrationTarget;
}

interface GroupSpec {
  readonly id?: string;
  readonly key: string;
  readonly name: string;
  readonly description: string | null;
  readonly mode?: 'on' | 'off';
  readonly replacedBy: MigrationTarget;
  readonly rules: readonly RuleSpec[];
}

const CLOUDFLARE_GROUPS: readonly GroupSpec[] = [
  {
    id: 'ea8687e59929c1fd05ba97574ad43f77',
    key: 'specials',
    name: 'Cloudflare Specials',
    description: 'Generic attacks: SQL injection, cross-site scripting, traversal, command injection.',
    replacedBy: managedCategories('sqli', 'xss', 'lfi', 'rce'),
    rules: [
      {
        id: '100015',
        key: 'missing-user-agent',
        description: 'Requests without a User-Agent header',
        defaultMode: 'challenge',
        replacedBy: managedRules('anomaly-missing-user-agent'),
      },
      {
        key: 'sqli-union',
        description: 'SQL injection: UNION-based queries',
        replacedBy: managedRules('owasp-942360', 'owasp-942361'),
      },
      {
        key: 'sqli-tautology',
        description: 'SQL injection: tautologies and truncating comments',
        replacedBy: managedRules('sqli-tautology-numeric', 'owasp-942340', 'owasp-942522'),
      },
      {
        key: 'sqli-blind',
        description: 'SQL injection: time-based blind',
        replacedBy: managedRules('sqli-time-based'),
      },
      {
        key: 'xss-tags',
        description: 'XSS: script tags and event handlers',
        replacedBy: managedRules('owasp-941100-short', 'owasp-941130'),
      },
      { key: 'xss-uri', description: 'XSS: JavaScript URIs', replacedBy: managedRules('owasp-941140') },
      {
        key: 'traversal',
        description: 'Directory traversal',
        replacedBy: managedRules('lfi-dot-dot-slash', 'lfi-encoded-dots'),
      },
      {
        key: 'command-injection',
        description: 'Command injection',
        replacedBy: managedRules('rce-chained-recon', 'owasp-932260', 'owasp-932270'),
      },
      {
        key: 'shellshock',
        description: 'Bash Shellshock (CVE-2014-6271)',
        replacedBy: managedRules('shellshock'),
      },
      {
        key: 'log4j',
        description: 'Log4j JNDI lookups (CVE-2021-44228)',
        replacedBy: managedRules('log4j-headers', 'log4j-args', 'log4j-lookup'),
      },
      {
        key: 'trace',
        description: 'HTTP TRACE and TRACK methods',
        replacedBy: managedRules('anomaly-trace-method'),
      },
      {
        key: 'struts-ognl',
        description: 'Apache Struts OGNL injection (CVE-2017-5638)',
        replacedBy: managedRules('struts-content-type-ognl', 'ognl-args'),
      },
      {
        key: 'allow-robots',
        description: 'Let crawlers fetch robots.txt past the other rules',
        defaultMode: 'allow',
        replacedBy: noEquivalent(
          'managed rulesets have no allow rules; a skip rule in the zone entry point does this',
        ),
      },
    ],
  },
  {
    key: 'php',
    name: 'Cloudflare PHP',
    description: 'Attacks on PHP applications.',
    replacedBy: managedCategories('php'),
    rules: [
      {
        key: 'code-injection',
        description: 'PHP code and command functions in parameters',
        replacedBy: managedRules('php-open-tag', 'php-exec-functions'),
      },
      {
        key: 'object-injection',
        description: 'PHP object injection',
        replacedBy: managedRules('php-object-injection'),
      },
      {
        key: 'cgi-argument',
        description: 'PHP-CGI argument injection (CVE-2012-1823)',
        replacedBy: managedRules('php-cgi-argument'),
      },
      {
        key: 'stream-wrapper',
        description: 'PHP stream wrappers in parameters',
        replacedBy: managedRules('lfi-stream-wrapper'),
      },
    ],
  },
  {
    key: 'wordpress',
    name: 'Cloudflare WordPress',
    description: 'Attacks on WordPress and its plugins.',
    replacedBy: managedCategories('wordpress'),
    rules: [
      {
        key: 'revslider',
        description: 'Slider Revolution file disclosure',
        replacedBy: managedRules('wordpress-revslider'),
      },
      {
        key: 'file-manager',
        description: 'File Manager plugin upload (CVE-2020-25213)',
        replacedBy: managedRules('wordpress-file-manager'),
      },
      {
        key: 'xmlrpc-multicall',
        description: 'XML-RPC multicall amplification',
        replacedBy: managedRules('wordpress-xmlrpc-multicall'),
      },
      {
        key: 'wp-config',
        description: 'Access to wp-config.php',
        replacedBy: managedRules('probe-wp-config'),
      },
      {
        key: 'author-enumeration',
        description: 'Author enumeration',
        defaultMode: 'simulate',
        replacedBy: managedRules('wordpress-user-enumeration'),
      },
    ],
  },
  {
    key: 'drupal',
    name: 'Cloudflare Drupal',
    description: 'Attacks on Drupal.',
    replacedBy: managedCategories('drupal'),
    rules: [
      {
        key: 'drupalgeddon2',
        description: 'Form API render array injection (CVE-2018-7600)',
        replacedBy: managedRules('drupalgeddon2'),
      },
      {
        key: 'rest-serialization',
        description: 'REST serialized object injection (CVE-2019-6340)',
        replacedBy: managedRules('php-object-injection'),
      },
    ],
  },
  {
    key: 'joomla',
    name: 'Cloudflare Joomla',
    description: 'Attacks on Joomla.',
    replacedBy: managedCategories('joomla'),
    rules: [
      {
        key: 'session-injection',
        description: 'Session object injection (CVE-2015-8562)',
        replacedBy: managedRules('joomla-session-injection'),
      },
      {
        key: 'config-leak',
        description: 'Web services configuration disclosure (CVE-2023-23752)',
        replacedBy: managedRules('joomla-config-leak'),
      },
    ],
  },
  {
    key: 'magento',
    name: 'Cloudflare Magento',
    description: 'Attacks on Magento.',
    replacedBy: managedCategories('magento'),
    rules: [
      {
        key: 'shoplift',
        description: 'Shoplift admin access (CVE-2015-1397)',
        replacedBy: managedRules('magento-shoplift'),
      },
    ],
  },
  {
    key: 'miscellaneous',
    name: 'Cloudflare Miscellaneous',
    description: 'Sensitive files, appliances and attack tools.',
    replacedBy: managedCategories('sensitive-files', 'scanner', 'citrix', 'spring'),
    rules: [
      {
        key: 'secrets',
        description: 'Environment files and version control metadata',
        replacedBy: managedRules('probe-dotenv', 'probe-vcs'),
      },
      {
        key: 'actuator',
        description: 'Spring Boot actuator endpoints',
        replacedBy: managedRules('probe-actuator'),
      },
      {
        key: 'citrix',
        description: 'Citrix ADC traversal (CVE-2019-19781)',
        replacedBy: managedRules('citrix-traversal'),
      },
      {
        key: 'scanners',
        description: 'Attack tools',
        defaultMode: 'challenge',
        replacedBy: managedRules('scanner-user-agent', 'scanner-headers'),
      },
    ],
  },
  {
    key: 'flash',
    name: 'Cloudflare Flash',
    description: 'Attacks through Adobe Flash content.',
    mode: 'off',
    replacedBy: noEquivalent('Flash Player is discontinued; the new managed rulesets have no Flash rules'),
    rules: [
      {
        key: 'crossdomain',
        description: 'Flash cross-domain policy abuse',
        defaultMode: 'disable',
        replacedBy: noEquivalent(
          'Flash Player is discontinued; the new managed rulesets have no Flash rules',
        ),
      },
    ],
  },
];

const OWASP_GROUPS: readonly GroupSpec[] = [
  {
    id: 'de677e5818985db1285d0e80225f06e5',
    key: 'project-honey-pot',
    name: 'Project Honey Pot',
    description: 'Requests from addresses that Project Honey Pot lists as threats.',
    replacedBy: noEquivalent(
      'IP reputation is not part of the new managed rulesets; use IP lists and the security level',
    ),
    rules: [
      {
        id: 'f939de3be84e66e757adcdcb87908023',
        key: 'select',
        description: 'SQL injection prevention for SELECT statements',
        replacedBy: owaspRules(942270, 942480),
      },
      {
        key: 'comment-spammers',
        description: 'Addresses of comment spammers',
        replacedBy: noEquivalent('IP reputation is not part of the new managed rulesets; use IP lists'),
      },
      {
        key: 'harvesters',
        description: 'Addresses of e-mail harvesters',
        replacedBy: noEquivalent('IP reputation is not part of the new managed rulesets; use IP lists'),
      },
    ],
  },
  {
    key: 'generic-attacks',
    name: 'OWASP Generic Attacks',
    description: 'File inclusion, command injection, PHP injection and session fixation.',
    replacedBy: owaspCategories('attack-rfi', 'attack-rce', 'attack-injection-php', 'attack-fixation'),
    rules: [
      { key: 'rfi', description: 'Remote file inclusion', replacedBy: owaspRules(931100, 931110, 931120) },
      {
        key: 'command-injection',
        description: 'OS command injection',
        replacedBy: owaspRules(932230, 932235, 932370),
      },
      { key: 'php-injection', description: 'PHP injection', replacedBy: owaspRules(933100, 933120, 933160) },
      {
        key: 'session-fixation',
        description: 'Session fixation',
        replacedBy: owaspRules(943100, 943110, 943120),
      },
    ],
  },
  {
    key: 'sqli',
    name: 'OWASP SQL Injection Prevention',
    description: null,
    replacedBy: owaspCategories('attack-sqli'),
    rules: [
      { key: 'union', description: 'UNION queries', replacedBy: owaspRules(942100) },
      { key: 'tautology', description: 'Tautologies', replacedBy: owaspRules(942130, 942210) },
      { key: 'blind', description: 'Blind injection with delays', replacedBy: owaspRules(942160, 942170) },
      { key: 'comments', description: 'SQL comment sequences', replacedBy: owaspRules(942440, 942500) },
    ],
  },
  {
    key: 'xss',
    name: 'OWASP XSS Attacks',
    description: null,
    replacedBy: owaspCategories('attack-xss'),
    rules: [
      { key: 'script', description: 'Script tags', replacedBy: owaspRules(941100) },
      { key: 'handlers', description: 'Event handlers', replacedBy: owaspRules(941110, 941120) },
      { key: 'uri', description: 'JavaScript URIs', replacedBy: owaspRules(941140) },
    ],
  },
  {
    key: 'protocol',
    name: 'OWASP Protocol Anomalies',
    description: 'Missing or malformed headers and encodings.',
    replacedBy: owaspCategories('attack-protocol'),
    rules: [
      { key: 'missing-host', description: 'Missing Host header', replacedBy: owaspRules(920280) },
      { key: 'missing-accept', description: 'Missing Accept header', replacedBy: owaspRules(920300) },
      {
        key: 'missing-user-agent',
        description: 'Missing or empty User-Agent header',
        replacedBy: owaspRules(920320, 920330),
      },
      { key: 'url-encoding', description: 'Invalid URL encoding', replacedBy: owaspRules(920240) },
      { key: 'null-byte', description: 'Null byte in the request', replacedBy: owaspRules(920270) },
      { key: 'get-body', description: 'GET or HEAD request with a body', replacedBy: owaspRules(920170) },
    ],
  },
  {
    key: 'http-policy',
    name: 'OWASP HTTP Policy',
    description: 'Methods, file extensions, headers and content types the site allows.',
    replacedBy: owaspCategories('attack-generic', 'attack-protocol'),
    rules: [
      { key: 'method', description: 'Method not allowed', replacedBy: owaspRules(911100) },
      { key: 'extension', description: 'Restricted file extension', replacedBy: owaspRules(920440) },
      { key: 'header', description: 'Restricted header', replacedBy: owaspRules(920450) },
      {
        key: 'content-type',
        description: 'Request content type not allowed',
        replacedBy: owaspRules(920420),
      },
      {
        key: 'argument-limits',
        description: 'Too many or too long arguments',
        replacedBy: owaspRules(920360, 920380),
      },
    ],
  },
  {
    key: 'bad-robots',
    name: 'OWASP Bad Robots',
    description: 'Security scanners and scripted clients.',
    replacedBy: owaspCategories('attack-reputation-scanner'),
    rules: [
      {
        key: 'scanners',
        description: 'Security scanner user agents',
        replacedBy: owaspRules(913100),
      },
      {
        key: 'scripts',
        description: 'Scripting and generic HTTP clients',
        replacedBy: managedRules('bot-scripted-client'),
      },
    ],
  },
];

const ALL_GROUPS: readonly [string, GroupSpec][] = [
  ...CLOUDFLARE_GROUPS.map((group): [string, GroupSpec] => [CLOUDFLARE_PACKAGE_ID, group]),
  ...OWASP_GROUPS.map((group): [string, GroupSpec] => [OWASP_PACKAGE_ID, group]),
];

const groupId = (packageId: string, group: GroupSpec) =>
  group.id ?? projectId(`previous-waf:${packageId}:group:${group.key}`);

export const PREVIOUS_WAF_GROUPS: readonly PreviousWafGroup[] = ALL_GROUPS.map(([packageId, group]) => ({
  id: groupId(packageId, group),
  name: group.name,
  description: group.description,
  package_id: packageId,
  mode: group.mode ?? 'on',
  allowed_modes: ON_OFF_MODES,
}));

const ruleId = (packageId: string, group: GroupSpec, spec: RuleSpec) =>
  spec.id ?? projectId(`previous-waf:${packageId}:${group.key}:${spec.key}`);

function rule(packageId: string, group: GroupSpec, spec: RuleSpec, index: number): PreviousWafRule {
  const common = {
    id: ruleId(packageId, group, spec),
    description: spec.description,
    priority: String(index + 1),
    group_id: groupId(packageId, group),
    package_id: packageId,
  };
  if (packageId === OWASP_PACKAGE_ID)
    return { ...common, kind: 'anomaly', mode: 'on', allowed_modes: ON_OFF_MODES };
  if (spec.defaultMode === 'allow')
    return { ...common, kind: 'traditional-allow', mode: 'on', allowed_modes: ON_OFF_MODES };
  return {
    ...common,
    kind: 'traditional-deny',
    default_mode: spec.defaultMode ?? 'block',
    mode: 'default',
    allowed_modes: TRADITIONAL_MODES,
  };
}

export const PREVIOUS_WAF_RULES: readonly PreviousWafRule[] = ALL_GROUPS.flatMap(([packageId, group]) =>
  group.rules.map((spec, index) => rule(packageId, group, spec, index)),
);

/** What replaces each previous group and rule, by its id. */
export const MIGRATION_MAPPING: ReadonlyMap<string, MigrationTarget> = new Map(
  ALL_GROUPS.flatMap(([packageId, group]) => [
    [groupId(packageId, group), group.replacedBy] as const,
    ...group.rules.map((spec) => [ruleId(packageId, group, spec), spec.replacedBy] as const),
  ]),
);

/** A zone's packages as the API lists them. */
export function zonePackages(zoneId: string): (PreviousWafPackage & { zone_id: string; status: 'active' })[] {
  return PREVIOUS_WAF_PACKAGES.map((pkg) => ({ ...pkg, zone_id: zoneId, status: 'active' }));
}
