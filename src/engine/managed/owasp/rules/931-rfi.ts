import { quotedString, rawString } from '../../inputs.js';
import { targetValues } from '../../targets.js';
import type { CrsRule } from '../crs.js';
import { wordAlternation } from './alternation.js';

/**
 * CRS 931: remote file inclusion. A parameter that hands the application a URL to include or fetch: on an
 * IP address, in a parameter of a known vulnerable include, ending in `?` to cut off what the application
 * appends, or pointing at another site than this one.
 */

const TAGS = ['application-multi', 'language-multi', 'platform-multi', 'attack-rfi'];

/** The schemes PHP's and Java's include and fetch functions open over the network or the file system. */
const INCLUDE_SCHEMES = '(?:file|ftps?|https?)';

/**
 * URL schemes a URL-opening function may be handed: IANA's registered schemes that name a resource to
 * fetch, PHP's stream wrappers, Java's `jar`. Shared with 934120.
 */
export const URL_SCHEMES: readonly string[] = [
  'acap',
  'afp',
  'afs',
  'attachment',
  'beshare',
  'bitcoin',
  'blob',
  'callto',
  'cap',
  'cid',
  'compress.bzip2',
  'compress.zlib',
  'cvs',
  'dav',
  'data',
  'dict',
  'dns',
  'ed2k',
  'expect',
  'fd',
  'feed',
  'file',
  'finger',
  'fish',
  'ftp',
  'ftps',
  'git',
  'glob',
  'gopher',
  'h323',
  'http',
  'https',
  'iax',
  'icap',
  'imap',
  'imaps',
  'ipp',
  'ipps',
  'irc',
  'irc6',
  'ircs',
  'jabber',
  'jar',
  'ldap',
  'ldapi',
  'ldaps',
  'local_file',
  'mailto',
  'maven',
  'mms',
  'mumble',
  'netdoc',
  'news',
  'nfs',
  'nntp',
  'nntps',
  'ogg',
  'phar',
  'php',
  'pop2',
  'pop3',
  'pop3s',
  'pres',
  'proxy',
  'psyc',
  'rar',
  'rmi',
  'rsync',
  'rtmp',
  'rtmfp',
  'rtmpe',
  'rtmps',
  's3',
  'sftp',
  'sip',
  'sips',
  'smb',
  'sms',
  'smtp',
  'smtps',
  'snews',
  'snmp',
  'ssh',
  'ssh2',
  'ssh2.shell',
  'ssh2.sftp',
  'ssh2.scp',
  'ssh2.exec',
  'ssh2.tunnel',
  'svn',
  'svn+ssh',
  'teamspeak',
  'telnet',
  'tftp',
  'turn',
  'turns',
  'udp',
  'unreal',
  'ut2004',
  'ventrilo',
  'view-source',
  'vnc',
  'webcal',
  'ws',
  'wss',
  'xmpp',
  'xri',
  'zip',
];

/**
 * A URL an opening function will follow: a scheme of the list and `://` (Java's `url:` or `jar:` may come
 * first), or Java's `file:/` with a single slash.
 */
const URL_REFERENCE = `(?:(?:url|jar):)?(?:${wordAlternation(URL_SCHEMES)})://|(?:url|jar):file:/`;

/**
 * An off-domain reference among the rule's values: a value that is (`anchor`) or holds a URL whose host
 * (after any `user@`) is neither this request's Host nor a subdomain of it. CRS stores the host and
 * compares it in a chained rule; here both tests are made on the same value.
 */
function offDomainReference(targets: string, transformations: string, anchor: string): string {
  const values = `waf_transform(${quotedString(transformations)}, ${targetValues(targets).join(', ')})`;
  const reference = rawString(`(?i)${anchor}(?:${URL_REFERENCE})`);
  return `any(${values}[*] matches ${reference} and waf_url_off_domain(${values}[*], http.host))`;
}

export const RFI_RULES: readonly CrsRule[] = [
  {
    id: 931100,
    description: 'Possible Remote File Inclusion (RFI) Attack: URL Parameter using IP Address',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'ARGS',
    transformations: 'none',
    // A parameter that is a URL on a dotted IPv4 address (attackers' servers rarely have names).
    test: { regex: String.raw`(?i)^${INCLUDE_SCHEMES}://(?:[^@/]*@)?\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}` },
  },
  {
    id: 931110,
    description:
      'Possible Remote File Inclusion (RFI) Attack: Common RFI Vulnerable Parameter Name used w/URL Payload',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'QUERY_STRING|REQUEST_BODY',
    transformations: 'none,urlDecodeUni',
    // `name=URL` where the name is an include() call or a parameter through which well-known PHP
    // applications included a file (Mambo/Joomla, Geeklog, Gallery, phpBB, AppServ…).
    test: {
      regex: String.raw`(?i)(?:\binclude(?:_once)?\s*\([^)]*|mosConfig_absolute_path|_CONF\[path\]|_SERVER\[DOCUMENT_ROOT\]|GALLERY_BASEDIR|path\[docroot\]|appserv_root|config\[root_dir\]|phpbb_root_path)=${INCLUDE_SCHEMES}://`,
    },
  },
  {
    id: 931120,
    description:
      'Possible Remote File Inclusion (RFI) Attack: URL Payload Used w/Trailing Question Mark Character (?)',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'ARGS',
    transformations: 'none',
    // A URL ending in `?`: whatever the application appends to it (`.php`) becomes a query string.
    test: { regex: String.raw`(?is)^${INCLUDE_SCHEMES}(?::.*)?\?+$` },
  },
  {
    id: 931130,
    description: 'Possible Remote File Inclusion (RFI) Attack: Off-Domain Reference/Link',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    targets: 'ARGS',
    transformations: 'none',
    // A parameter that is a URL: an include or a fetch opens the whole value, so a link inside text (a
    // comment with an <a href>) is not the attack.
    expression: offDomainReference('ARGS', 'none', String.raw`^\s*`),
  },
  {
    id: 931131,
    description: 'Possible Remote File Inclusion (RFI) Attack: Off-Domain Reference/Link',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_FILENAME',
    transformations: 'none,urlDecodeUni',
    // A URL in the path itself (`/proxy/file:%2f%2f/…`), decoded, after a `/`.
    expression: offDomainReference('REQUEST_FILENAME', 'none,urlDecodeUni', '/'),
  },
];
