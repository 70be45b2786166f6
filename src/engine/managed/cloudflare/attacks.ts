import type { SignatureSpec } from '../define.js';
import type { CrsExpressionOptions } from '../owasp/crs.js';
import { CRS_FAMILIES } from '../owasp/rules/index.js';
import { owaspDetection } from '../owasp/shared.js';

/**
 * The Managed Ruleset's rules against attack classes: each blocks on the detection of one rule of the OWASP
 * Core Ruleset (the same targets, transformations and test; src/engine/managed/owasp/shared.ts), where the
 * OWASP ruleset only adds a score. Cloudflare's Managed Ruleset is not published: these are the project's
 * own, and which OWASP rules they reuse is the project's choice.
 *
 * The choice (docs/managed-rules.md, "The Cloudflare Managed Ruleset"): rules of paranoia level 1 or 2 (and
 * the Java deserialisation rules of level 3 and 4, whose patterns are base64 or class names nothing else
 * writes) that fired on none of the project's corpus of ordinary traffic (test/engine/corpus/ordinary/), and
 * that caught attacks of the OWASP Core Rule Set's public regression tests (measured outside the repository:
 * those tests are not ours to copy). Rules that fire on code, documents or search queries people post
 * (SQL function names, tautology-like expressions, the libinjection detectors on long bodies) stay in the
 * OWASP ruleset, where one alone scores and does not block. Protocol rules (911–922) are policies, not
 * attacks: the Managed Ruleset has rules of its own for protocol misuse (probes.ts).
 */

/**
 * An OWASP rule's detection kept to some values: those shorter than a length in bytes (what the rule
 * looks for is also in code, documents and Markdown people post, rarely in a short parameter), or not
 * those a regex matches.
 */
interface Narrowed {
  readonly rule: number;
  /** Ends the rule's key (`owasp-942100-<suffix>`): stable, the rule's id derives from it. */
  readonly suffix: string;
  /** Said in the description. */
  readonly how: string;
  readonly options: CrsExpressionOptions;
}

const short = (rule: number, bytes: number): Narrowed => ({
  rule,
  suffix: 'short',
  how: `values under ${bytes} bytes`,
  options: { shorterThan: bytes },
});

/**
 * A value that starts with an SQL statement is someone's SQL (a snippet, documentation, a query tool); an
 * injection adds to a value the application quotes or computes with.
 */
const SQL_STATEMENT = String.raw`(?i)^\s*(?:select|insert|update|delete|merge|replace|create|alter|drop|truncate|grant|revoke|with|show|describe|explain|use|set|begin|commit|declare|exec|execute|call)\b`;

interface AttackClass {
  /** The first words of each rule's description, in Cloudflare's manner (`SQLi - …`). */
  readonly label: string;
  readonly categories: readonly string[];
  /** OWASP Core Ruleset rule numbers. */
  readonly rules: readonly number[];
  /** Rules whose detection is kept from values it would also find in what people post (code, documents). */
  readonly narrowed?: readonly Narrowed[];
}

const CLASSES: readonly AttackClass[] = [
  {
    label: 'LFI',
    categories: ['lfi', 'directory-traversal'],
    rules: [930100, 930110, 930120, 930121, 930130, 930140],
  },
  { label: 'RFI', categories: ['rfi'], rules: [931100, 931110, 931120, 931131] },
  {
    label: 'Command Injection',
    categories: ['rce', 'command-injection'],
    rules: [
      932125, 932131, 932140, 932160, 932161, 932170, 932171, 932175, 932180, 932206, 932207, 932210, 932231,
      932239, 932260, 932261, 932270, 932280, 932281, 932300, 932310, 932320, 932330,
    ],
    narrowed: [
      short(932120, 120),
      short(932230, 120),
      short(932235, 60),
      short(932370, 60),
      short(932380, 60),
    ],
  },
  {
    label: 'PHP',
    categories: ['php', 'rce'],
    rules: [
      933100, 933110, 933120, 933130, 933135, 933140, 933150, 933151, 933152, 933153, 933160, 933170, 933180,
      933200, 933210, 933220,
    ],
  },
  {
    label: 'Code Injection',
    categories: ['rce', 'code-injection'],
    rules: [934100, 934101, 934110, 934120, 934130, 934140, 934150, 934160, 934170, 934200, 934220, 934230],
  },
  {
    label: 'XSS',
    categories: ['xss'],
    rules: [
      941101, 941130, 941140, 941180, 941181, 941190, 941200, 941220, 941230, 941240, 941250, 941260, 941270,
      941280, 941290, 941300, 941310, 941330, 941350, 941360, 941370, 941380, 941400,
    ],
    narrowed: [short(941100, 120)],
  },
  {
    label: 'SQLi',
    categories: ['sqli'],
    rules: [
      942101, 942140, 942152, 942160, 942170, 942220, 942230, 942240, 942250, 942280, 942310, 942320, 942321,
      942340, 942350, 942360, 942361, 942470, 942500, 942522, 942540, 942550, 942560,
    ],
    narrowed: [
      short(942151, 120),
      short(942190, 60),
      short(942270, 60),
      {
        rule: 942100,
        suffix: 'not-statements',
        how: 'not SQL statements',
        options: { unless: SQL_STATEMENT },
      },
    ],
  },
  { label: 'Session Fixation', categories: ['session-fixation'], rules: [943100, 943110, 943120] },
  {
    label: 'Java',
    categories: ['java', 'rce'],
    rules: [
      944100, 944110, 944120, 944130, 944140, 944150, 944151, 944200, 944210, 944240, 944250, 944260, 944300,
    ],
  },
];

const descriptions = new Map([...CRS_FAMILIES.values()].flat().map((rule) => [rule.id, rule.description]));

/** A signature on one OWASP rule's detection; its description names the rule (many CRS messages repeat). */
function signature(attack: AttackClass, number: number, narrowed?: Narrowed): SignatureSpec {
  return {
    // Stable keys: the rule's id derives from it.
    key: narrowed ? `owasp-${number}-${narrowed.suffix}` : `owasp-${number}`,
    description: `${attack.label} - ${descriptions.get(number)} (OWASP ${number}${narrowed ? `, ${narrowed.how}` : ''})`,
    categories: attack.categories,
    expression: owaspDetection(narrowed?.options ?? {}, number),
  };
}

export const ATTACK_RULES: readonly SignatureSpec[] = CLASSES.flatMap((attack) => [
  ...attack.rules.map((number) => signature(attack, number)),
  ...(attack.narrowed ?? []).map((narrowed) => signature(attack, narrowed.rule, narrowed)),
]);
