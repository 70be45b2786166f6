// Regenerates src/scheme/fields.json from the reference field notes (scripts/data/reference-fields.json, copied from the reference material).
// The catalogue is data: this script records how the notes' free-text plan and phase labels map onto the
// checker's plans and availability groups (src/scheme/profile.ts). Run: node scripts/import-fields.mjs [path]
import { readFileSync, writeFileSync } from 'node:fs';

const source = process.argv[2] ?? 'scripts/data/reference-fields.json';
const notes = JSON.parse(readFileSync(source, 'utf8'));

const typeNames = { String: 'Bytes', Bytes: 'Bytes', Boolean: 'Bool', Integer: 'Int', 'IP address': 'Ip' };
const convertType = (text) =>
  text.replace(/Array|Map|String|Bytes|Boolean|Integer|IP address/g, (word) => typeNames[word] ?? word);

// Plan label → minimum plan, plus the add-on or product that must also be enabled (informational).
const plans = {
  all: ['free'],
  'Pro or above': ['pro'],
  'Business or above': ['business'],
  Enterprise: ['enterprise'],
  'Enterprise add-on (API Shield JWT validation)': ['enterprise', 'API Shield JWT validation'],
  'Enterprise with Bot Management': ['enterprise', 'Bot Management'],
  'Enterprise with malicious-uploads (content scanning)': ['enterprise', 'malicious uploads detection'],
  'Enterprise with AI Security for Apps': ['enterprise', 'AI Security for Apps'],
  'Threat intelligence detection': ['enterprise', 'threat intelligence detection'],
  'Early Access (Attack Signature Detection)': ['enterprise', 'Attack Signature Detection (early access)'],
  'API Shield sequence rules': ['enterprise', 'API Shield sequence rules'],
  'API Shield': ['enterprise', 'API Shield'],
  'API Security / closed beta': ['enterprise', 'API Security (closed beta)'],
  'Bot Management Enterprise add-on': ['enterprise', 'Bot Management'],
  'Enterprise add-on (API Shield)': ['enterprise', 'API Shield'],
  'Enterprise (attack score detection enabled)': ['enterprise', 'WAF attack score'],
  'Enterprise (leaked credentials detection)': ['enterprise', 'leaked credentials detection'],
  'leaked credentials detection enabled': ['free', 'leaked credentials detection'],
};

// Phase note → availability group. Notes marked "unverified" stay permissive (`http`): a false error
// costs users more than a missed one.
function availability(note) {
  if (note.startsWith('Cloudflare Network (Magic) Firewall')) return 'network';
  if (note.startsWith('request; phases that inspect the body')) return 'body';
  if (note.startsWith('response header Transform Rules and Custom Errors')) return 'response_transform';
  if (note.startsWith('response')) return 'response';
  if (note.startsWith('custom rules')) return 'custom';
  if (note === 'Transform Rules only' || note.startsWith('rewrite (value) expressions')) return 'transform';
  return 'http';
}

// Request fields that Network Firewall rules can use too.
const shared = new Set(['ip.src', 'ip.src.country', 'ip.src.asnum', 'ip.geoip.country', 'ip.geoip.asnum']);

// Value domains documented for a field (rules-language.md §8): the one statement of a field's range, read by
// the impossible-comparison and case-mismatch lints and by sample requests' `edge` data (src/request/edge.ts).
const domains = {
  'cf.bot_management.score': { min: 1, max: 99 },
  'cf.waf.score': { min: 1, max: 100 },
  'cf.waf.score.sqli': { min: 1, max: 99 },
  'cf.waf.score.xss': { min: 1, max: 99 },
  'cf.waf.score.rce': { min: 1, max: 99 },
  'cf.llm.prompt.injection_score': { min: 1, max: 100 },
  'cf.edge.server_port': { min: 1, max: 65535 },
  'cf.edge.client_port': { min: 1, max: 65535 },
  'ip.src.asnum': { min: 0, max: 4294967295 },
  'ip.geoip.asnum': { min: 0, max: 4294967295 },
  'http.request.timestamp.msec': { min: 0, max: 999 },
  'cf.threat_score': { min: 0, max: 0 },
  'http.response.code': { min: 100, max: 599 },
  'ip.src.continent': { values: ['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA', 'T1'], case: 'upper' },
  'ip.geoip.continent': { values: ['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA', 'T1'], case: 'upper' },
  'cf.waf.score.class': { values: ['attack', 'likely_attack', 'likely_clean', 'clean'] },
  'http.request.method': { case: 'upper' },
  'ip.src.country': { case: 'upper' },
  'ip.geoip.country': { case: 'upper' },
  'http.request.uri.path.extension': { case: 'lower' },
  'raw.http.request.uri.path.extension': { case: 'lower' },
  'http.response.content_type.media_type': { case: 'lower' },
};

// Fields the reference notes lack, in catalogue form, each with the page that documents it.
const additions = [
  {
    // Cloudflare docs, API Shield "JWT validation": the claims of each validated token, keyed by the token
    // configuration's id, as JSON text; read with lookup_json_string(http.request.jwt.claims["<id>"][0], "sub").
    name: 'http.request.jwt.claims',
    type: 'Map<Array<Bytes>>',
    plan: 'enterprise',
    requires: 'API Shield JWT validation',
    description:
      'Claims of the validated JSON Web Tokens, keyed by token configuration id: one JSON text (the decoded claims) per token.',
  },
  // Cloudflare docs, Load Balancing, "Supported fields and operators": fields of load balancing rules only.
  ...[
    ['cf.load_balancer.name', 'Bytes', 'Name of the load balancer running the rule.'],
    [
      'cf.load_balancer.region',
      'Bytes',
      'Region code (such as ENAM) of the data center handling the request.',
    ],
    ['dns.qry.name', 'Bytes', 'DNS-only traffic: the name queried, with its final dot.'],
    ['dns.qry.name.len', 'Int', 'DNS-only traffic: length of the name queried, in bytes.'],
    ['dns.qry.qu', 'Bool', 'DNS-only traffic: the message received is a question.'],
    ['dns.qry.type', 'Int', 'DNS-only traffic: numeric query type (1 for A, 28 for AAAA).'],
    ['dns.rr.opt.client', 'Bool', 'DNS-only traffic: the query carried an EDNS Client Subnet address.'],
    ['dns.rr.opt.client.addr', 'Bytes', 'DNS-only traffic: the EDNS Client Subnet address sent, if any.'],
  ].map(([name, type, description]) => ({ name, type, availability: 'load_balancing', description })),
];

// Load Balancing rules accept only the fields their page lists: those above, the two that exist whatever
// the proxy status, and these of proxied traffic.
const loadBalancingFields = new Set([
  ...additions.filter((f) => f.availability === 'load_balancing').map((f) => f.name),
  'ip.src',
  'ip.src.asnum',
  'http.cookie',
  'http.host',
  'http.referer',
  'http.request.headers',
  'http.request.method',
  'http.request.timestamp.sec',
  'http.request.uri',
  'http.request.uri.args',
  'http.request.uri.args.names',
  'http.request.uri.args.values',
  'http.request.uri.path',
  'http.request.uri.query',
  'http.request.version',
]);

const fields = notes.map((note) => {
  const [plan, requires] = plans[note.plan] ?? [];
  if (!plan) throw new Error(`${note.name}: unknown plan label ${JSON.stringify(note.plan)}`);
  const field = { name: note.name, type: convertType(note.type) };
  const group = shared.has(note.name) ? 'shared' : availability(note.phase_note);
  if (group !== 'http') field.availability = group;
  if (plan !== 'free') field.plan = plan;
  if (requires) field.requires = requires;
  if (note.phase_note.startsWith('rewrite (value) expressions')) field.rewriteOnly = true;
  if (note.deprecated) field.deprecated = { replacement: note.name.replace(/^ip\.geoip\./, 'ip.src.') };
  if (domains[note.name]) field.domain = domains[note.name];
  if (!note.type_verified) field.typeUnverified = true;
  field.description = note.description;
  return field;
});

for (const addition of additions) {
  if (fields.some((f) => f.name === addition.name)) throw new Error(`${addition.name} is in the notes now`);
  // Next to its family (the other fields that share its prefix), or at the end.
  const family = addition.name.split('.').slice(0, -1).join('.');
  const last = fields.findLastIndex(
    (f) => f.name.startsWith(`${addition.name}.`) || f.name.startsWith(family),
  );
  fields.splice(last === -1 ? fields.length : last + 1, 0, { ...addition });
}
fields.forEach((field, index) => {
  const { description, ...rest } = field;
  if (loadBalancingFields.has(field.name)) fields[index] = { ...rest, loadBalancing: true, description };
});
for (const name of loadBalancingFields) {
  if (!fields.some((f) => f.name === name))
    throw new Error(`load balancing field ${name} is not in the catalogue`);
}
for (const name of Object.keys(domains)) {
  if (!fields.some((f) => f.name === name)) throw new Error(`domain for unknown field ${name}`);
}
for (const f of fields) {
  if (f.deprecated && !fields.some((g) => g.name === f.deprecated.replacement))
    throw new Error(`${f.name}: replacement ${f.deprecated.replacement} is not in the catalogue`);
}
writeFileSync('src/scheme/fields.json', `[\n${fields.map((f) => JSON.stringify(f)).join(',\n')}\n]\n`);
console.log(`wrote src/scheme/fields.json: ${fields.length} fields`);
