import type { SignatureSpec } from '../define.js';
import { hasHeader, matchesIn } from '../inputs.js';
import { SCANNERS } from '../patterns.js';

const path = (pattern: string) => matchesIn(['path'], pattern);

/**
 * Rules of the Cloudflare Managed Ruleset against reconnaissance: requests for files no site serves on
 * purpose (secrets, backups, repositories), attack tools, and protocol misuse.
 */
export const PROBE_RULES: readonly SignatureSpec[] = [
  {
    key: 'probe-dotenv',
    description: 'Sensitive File - Environment file',
    categories: ['information-disclosure', 'sensitive-files'],
    expression: path(String.raw`(?i)/\.env(?:\.[\w-]+)?$`),
  },
  {
    key: 'probe-vcs',
    description: 'Sensitive File - Version control metadata',
    categories: ['information-disclosure', 'sensitive-files'],
    expression: path(String.raw`(?i)/\.(?:git|svn|hg|bzr|cvs)(?:/|$)`),
  },
  {
    key: 'probe-credentials',
    description: 'Sensitive File - Credentials and shell history',
    categories: ['information-disclosure', 'sensitive-files'],
    expression: path(
      String.raw`(?i)/\.(?:aws/(?:credentials|config)|ssh/|docker/config\.json|npmrc|pypirc|netrc|htpasswd|htaccess|git-credentials|(?:bash|zsh|mysql|psql)_history|ds_store|vscode/sftp\.json|kube/config)`,
    ),
  },
  {
    key: 'probe-wp-config',
    description: 'WordPress - Configuration file access',
    categories: ['wordpress', 'information-disclosure', 'sensitive-files'],
    expression: path(String.raw`(?i)/wp-config\.php`),
  },
  {
    key: 'probe-config-backup',
    description: 'Sensitive File - Backup of a configuration file',
    categories: ['information-disclosure', 'sensitive-files'],
    expression: path(
      String.raw`(?i)/(?:[\w-]*config[\w-]*|settings|database|db|local|application|parameters|secrets?)\.(?:php|inc|ya?ml|json|xml|ini|conf|cfg|properties)(?:\.(?:bak|old|orig|save|swp|tmp|txt|dist|back|\d)|~)$`,
    ),
  },
  {
    key: 'probe-backup-archive',
    description: 'Sensitive File - Site or database backup',
    categories: ['information-disclosure', 'sensitive-files'],
    expression: path(
      String.raw`(?i)/(?:backups?|db|dump|database|site|www|htdocs|public_html|wwwroot|web|sql|mysql|data|old|archive)\.(?:sql(?:\.gz)?|zip|tar(?:\.gz)?|tgz|rar|7z|bak)$`,
    ),
  },
  {
    key: 'probe-sql-dump',
    description: 'Sensitive File - SQL dump',
    categories: ['information-disclosure', 'sensitive-files'],
    expression: path(String.raw`(?i)\.sql(?:\.gz|\.bz2|\.zip)?$`),
  },
  {
    key: 'probe-server-status',
    description: 'Apache - Server status pages',
    categories: ['apache', 'information-disclosure'],
    expression: path(String.raw`(?i)^/server-(?:status|info)\b`),
  },
  {
    key: 'probe-actuator',
    description: 'Spring Boot - Actuator endpoints',
    categories: ['spring', 'java', 'information-disclosure'],
    expression: path(
      String.raw`(?i)/actuator/(?:env|heapdump|threaddump|gateway|jolokia|logfile|configprops|mappings|shutdown|restart|loggers)\b`,
    ),
  },
  {
    key: 'probe-database-admin',
    description: 'Database administration tool probe',
    categories: ['attack-surface-reduction', 'php'],
    expression: path(
      String.raw`(?i)^/(?:phpmyadmin|pma|myadmin|mysqladmin|dbadmin|sqladmin|phpmyadmin\d[\w.-]*|adminer)(?:/|\.php|$)`,
    ),
  },
  {
    key: 'probe-webshell',
    description: 'Webshell - Known file names',
    categories: ['webshell', 'rce', 'php'],
    expression: path(
      String.raw`(?i)/(?:c99|r57|wso\d*|b374k|alfa\w*|shell|cmd|webshell|sh3ll|indoxploit|priv8|leafmailer|mini|fox)\.(?:php\d?|phtml|asp|aspx|jsp)$`,
    ),
  },
  {
    key: 'probe-cgi-test',
    description: 'CGI - Test and debug scripts',
    categories: ['attack-surface-reduction'],
    expression: path(String.raw`(?i)/cgi-bin/(?:test-cgi|printenv|php\d?(?:-cgi)?|php\.cgi|test\.cgi|bash)$`),
  },
  {
    key: 'probe-install-scripts',
    description: 'Installer and upgrade scripts',
    categories: ['attack-surface-reduction'],
    action: 'managed_challenge',
    expression: path(
      String.raw`(?i)/(?:install|installer|setup|upgrade)/(?:index\.php|install\.php|setup\.php)$`,
    ),
  },
  {
    key: 'probe-debug-endpoints',
    description: 'Debug consoles',
    categories: ['attack-surface-reduction', 'information-disclosure'],
    expression: path(
      String.raw`(?i)^/(?:console|_profiler|debug/pprof|__debug__|telescope/requests|horizon/api|elmah\.axd|trace\.axd)(?:/|$)`,
    ),
  },
  {
    key: 'probe-source-maps-config',
    description: 'Sensitive File - Project manifests and dependency locks',
    categories: ['information-disclosure', 'sensitive-files'],
    action: 'log',
    expression: path(
      String.raw`(?i)/(?:composer\.(?:json|lock)|package-lock\.json|yarn\.lock|gemfile\.lock|docker-compose\.ya?ml|dockerfile|\.travis\.yml|\.gitlab-ci\.yml)$`,
    ),
  },
  {
    key: 'scanner-user-agent',
    description: 'Scanner - Attack tool user agent',
    categories: ['scanner'],
    expression: matchesIn(['userAgent'], SCANNERS.toolUserAgent),
  },
  {
    key: 'scanner-headers',
    description: 'Scanner - Attack tool headers',
    categories: ['scanner'],
    expression: `${hasHeader('acunetix-aspect')} or ${hasHeader('x-scanner')} or ${hasHeader('x-wipp')} or ${hasHeader('x-request-memo')} or any(http.request.headers["x-forwarded-for"][*] matches r"(?i)\\bsqlmap\\b")`,
  },
  {
    key: 'bot-scripted-client',
    description: 'Bot - Generic HTTP library user agent',
    categories: ['bot'],
    action: 'log',
    enabled: false,
    expression: matchesIn(
      ['userAgent'],
      String.raw`(?i)^(?:python-requests|python-urllib|go-http-client|curl|wget|libwww-perl|java/|okhttp|apache-httpclient|scrapy|aiohttp|httpx|node-fetch|axios)\b`,
    ),
  },
  {
    key: 'anomaly-missing-user-agent',
    description: 'Anomaly:Header:User-Agent - Missing',
    categories: ['anomaly', 'protocol'],
    action: 'log',
    enabled: false,
    expression: 'http.user_agent eq ""',
  },
  {
    key: 'anomaly-trace-method',
    description: 'Anomaly:Method - TRACE, TRACK and DEBUG',
    categories: ['anomaly', 'protocol'],
    expression: 'http.request.method in {"TRACE" "TRACK" "DEBUG"}',
  },
  {
    key: 'anomaly-unusual-method',
    description: 'Anomaly:Method - Unusual method',
    categories: ['anomaly', 'protocol'],
    action: 'log',
    expression:
      'not http.request.method in {"GET" "HEAD" "POST" "PUT" "PATCH" "DELETE" "OPTIONS" "TRACE" "TRACK" "DEBUG"}',
  },
  {
    key: 'anomaly-smuggling',
    description: 'Anomaly:Header - Content-Length with Transfer-Encoding',
    categories: ['anomaly', 'protocol', 'request-smuggling'],
    expression: `${hasHeader('transfer-encoding')} and ${hasHeader('content-length')}`,
  },
  {
    key: 'anomaly-transfer-encoding',
    description: 'Anomaly:Header - Obfuscated Transfer-Encoding',
    categories: ['anomaly', 'protocol', 'request-smuggling'],
    expression: 'any(http.request.headers["transfer-encoding"][*] ne "chunked")',
  },
  {
    key: 'httpoxy',
    description: 'Anomaly:Header - Proxy header (httpoxy) - CVE:CVE-2016-5385',
    categories: ['anomaly', 'protocol', 'cve-2016-5385'],
    expression: hasHeader('proxy'),
  },
  {
    key: 'anomaly-host-ip',
    description: 'Anomaly:Header:Host - IP address',
    categories: ['anomaly', 'protocol'],
    action: 'log',
    enabled: false,
    expression: String.raw`http.host matches r"^\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?$"`,
  },
  {
    key: 'anomaly-null-byte',
    description: 'Anomaly:URI - Null byte',
    categories: ['anomaly', 'protocol'],
    expression: 'http.request.uri matches r"%00"',
  },
];
