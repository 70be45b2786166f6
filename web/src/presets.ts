import bot from '../../examples/requests/bot.json' with { type: 'json' };
import browser from '../../examples/requests/browser.json' with { type: 'json' };
import scanner from '../../examples/requests/scanner.json' with { type: 'json' };
import sqli from '../../examples/requests/sqli.json' with { type: 'json' };
import zone from '../../examples/zone/zone.json' with { type: 'json' };

// Sample requests to start from: the repository's examples (a browser, a bot, a scanner, an SQL
// injection) and two more attacks written for the playground (cross-site scripting in a form body, path
// traversal in the URL).

export interface Preset {
  name: string;
  label: string;
  request: Record<string, unknown>;
}

const xss = {
  description: 'A comment form posting a script tag.',
  method: 'POST',
  url: 'https://example.com/comments',
  headers: [
    ['Host', 'example.com'],
    ['User-Agent', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 Safari/605.1.15'],
    ['Content-Type', 'application/x-www-form-urlencoded'],
  ],
  body: 'author=eve&text=%3Cscript%3Ealert(document.cookie)%3C%2Fscript%3E',
  clientIp: '198.51.100.23',
  edge: { country: 'NL', asn: 64502, botScore: 30 },
};

const traversal = {
  description: 'A path traversal reaching for /etc/passwd.',
  method: 'GET',
  url: 'https://example.com/download?file=../../../../etc/passwd',
  headers: [
    ['Host', 'example.com'],
    ['User-Agent', 'curl/8.5.0'],
  ],
  clientIp: '192.0.2.200',
  edge: { country: 'BR', asn: 64503, botScore: 2 },
};

/** Drops the example's own name (the preset list names it). */
const withoutName = ({ name: _name, ...request }: Record<string, unknown>) => request;

export const PRESETS: readonly Preset[] = [
  { name: 'browser', label: 'Browser page view', request: withoutName(browser) },
  { name: 'bot', label: 'Verified bot (Googlebot)', request: withoutName(bot) },
  { name: 'scanner', label: 'Scanner (sqlmap)', request: withoutName(scanner) },
  { name: 'sqli', label: 'Attack: SQL injection', request: withoutName(sqli) },
  { name: 'xss', label: 'Attack: cross-site scripting', request: xss },
  { name: 'traversal', label: 'Attack: path traversal', request: traversal },
];

export const DEFAULT_REQUEST = (PRESETS[0] as Preset).request;

/** The example zone of examples/zone/, to start zone mode with. */
export const EXAMPLE_ZONE = JSON.stringify(zone, null, 2);
