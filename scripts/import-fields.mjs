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

// Value domains documented for a field (rules-language.md §8), used by the impossible-comparison and
// case-mismatch lints.
const domains = {
  'cf.bot_management.score': { min: 1, max: 99 },
  'cf.waf.score': { min: 1, max: 100 },
  'cf.waf.score.sqli': { min: 1, max: 99 },
  'cf.waf.score.xss': { min: 1, max: 99 },
  'cf.waf.score.rce': { min: 1, max: 99 },
  'cf.llm.prompt.injection_score': { min: 1, max: 100 },
  'cf.edge.server_port': { min: 1, max: 65535 },
  'http.request.timestamp.msec': { min: 0, max: 999 },
  'cf.threat_score': { min: 0, max: 0 },
  'http.response.code': { min: 100, max: 599 },
  'ip.src.continent': { values: ['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA', 'T1'] },
  'ip.geoip.continent': { values: ['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA', 'T1'] },
  'cf.waf.score.class': { values: ['attack', 'likely_attack', 'likely_clean', 'clean'] },
  'http.request.method': { case: 'upper' },
  'ip.src.country': { case: 'upper' },
  'ip.geoip.country': { case: 'upper' },
  'http.request.uri.path.extension': { case: 'lower' },
  'raw.http.request.uri.path.extension': { case: 'lower' },
  'http.response.content_type.media_type': { case: 'lower' },
};

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

for (const name of Object.keys(domains)) {
  if (!fields.some((f) => f.name === name)) throw new Error(`domain for unknown field ${name}`);
}
for (const f of fields) {
  if (f.deprecated && !fields.some((g) => g.name === f.deprecated.replacement))
    throw new Error(`${f.name}: replacement ${f.deprecated.replacement} is not in the catalogue`);
}
writeFileSync('src/scheme/fields.json', `[\n${fields.map((f) => JSON.stringify(f)).join(',\n')}\n]\n`);
console.log(`wrote src/scheme/fields.json: ${fields.length} fields`);
