/**
 * Attack signatures shared by the two rulesets, as Rust-dialect regexes (ASCII, byte-oriented; no
 * look-around). Each one describes a family of payloads, not one string: separators, comments and case
 * may vary the way attackers vary them. The Cloudflare Managed Ruleset blocks on them; the OWASP
 * ruleset scores them next to broader patterns of its own.
 *
 * Written for text that has been URL-decoded (inputs.ts); `\s` and `\b` are ASCII.
 */

/** Characters an SQL parser treats as token separators: spaces, inline comments, parentheses, `+`. */
const SQL_GAP = String.raw`(?:\s|/\*[^*]*\*/|[()+])`;

export const SQL = {
  unionSelect: String.raw`(?i)\bunion${SQL_GAP}+(?:(?:all|distinct)${SQL_GAP}+)?select\b`,
  /** A quote closes a string, then a boolean condition that is always true (`' or 'a'='a`, `' or 1=1`). */
  quotedTautology: String.raw`(?i)['"]\s*\)?\s*(?:or|and|xor|\|\||&&)\s*\(?\s*['"]?[\w.-]*['"]?\s*(?:=|<>|!=|<=>|\blike\b|>|<)\s*['"]?[\w.-]*`,
  /** Numeric tautology after a value: `1 or 1=1`, `5) and 2>1`. */
  numericTautology: String.raw`(?i)(?:\d|\))\s+(?:or|and|xor)\s+\(?\d+\s*(?:=|<>|!=|>|<)\s*\d+`,
  /** A quote, then the rest of the query commented out (`admin'--`, `' #`, `'/*`). */
  quoteThenComment: String.raw`(?i)'\s*\)?\s*(?:--|#|/\*|;\s*--)`,
  stackedQuery: String.raw`(?i);\s*(?:drop\s+(?:table|database)|truncate\s+table|insert\s+into|delete\s+from|update\s+\w+\s+set|exec(?:ute)?\s+(?:xp|sp)_|shutdown\b|declare\s+@|create\s+(?:table|user)|alter\s+(?:table|user))`,
  timeBased: String.raw`(?i)\b(?:(?:pg_)?sleep\s*\(\s*\d|benchmark\s*\(\s*\d+\s*,|waitfor\s+delay\s*'|dbms_lock\.sleep\s*\(|randomblob\s*\(\s*\d{6})`,
  errorBased: String.raw`(?i)\b(?:extractvalue|updatexml|exp\s*\(\s*~|geometrycollection|multipoint|polygon)\s*\(`,
  schemaEnumeration: String.raw`(?i)\b(?:information_schema|mysql\.user|sysobjects|syscolumns|sys\.tables|pg_catalog|pg_shadow|all_tables|user_tables|sqlite_master)\b`,
  fileAccess: String.raw`(?i)\b(?:load_file\s*\(|into\s+(?:out|dump)file\b|load\s+data\s+(?:local\s+)?infile\b|xp_cmdshell|utl_(?:http|file|inaddr)\b|dbms_pipe\b|copy\s+\w+\s+(?:from|to)\s+program\b)`,
  selectFrom: String.raw`(?i)\bselect${SQL_GAP}+(?:\*|(?:top\s+\d+\s+|distinct\s+)?[\w.]+(?:\s*,\s*[\w.()']+)+|(?:count|concat|group_concat|substring|substr|ascii|char|database|user|version|hex|unhex|mid)\s*\([^)]*\))${SQL_GAP}*from${SQL_GAP}+[\w.\x60\x22\[]+`,
  systemVariables: String.raw`(?i)(?:@@(?:version|datadir|hostname|basedir|servername)\b|\b(?:database|schema|current_user|session_user|system_user|version)\s*\(\s*\))`,
  charEncoding: String.raw`(?i)\b(?:char|chr|nchar)\s*\(\s*\d+(?:\s*[,+]\s*(?:char\s*\(\s*)?\d+\)?)+`,
  orderByProbe: String.raw`(?i)\border\s+by\s+\d+\s*(?:--|#|/\*)`,
  /** `if(1=1,…)`, `case when ascii(…)`: a condition the attacker can flip to read data bit by bit. */
  conditionalProbe: String.raw`(?i)\b(?:(?:if|iif)\s*\(|case\s+when\s*\(?)\s*(?:\d+\s*=\s*\d+|ascii\s*\(|substring\s*\(|length\s*\(|\(\s*select\b)`,
} as const;

export const XSS = {
  scriptTag: String.raw`(?i)<\s*/?\s*script\b`,
  /** An event handler attribute inside a tag: `<img src=x onerror=…>`, `<svg/onload=…>`. */
  eventHandlerInTag: String.raw`(?i)<[a-z][^>]*?[\s/"']on[a-z]{3,}\s*=`,
  /** A handler name used bare, e.g. breaking out of an attribute: `" autofocus onfocus=alert(1) x="`. */
  eventHandlerAttribute: String.raw`(?i)["'\s/]on(?:error|load|mouse\w+|focus\w*|blur|click|dblclick|key\w+|submit|change|input|toggle|animation\w+|transition\w+|pointer\w+|begin|start|unload|resize|scroll|wheel|drag\w*|drop|paste|copy|cut|hashchange|pageshow|message|beforeprint|afterprint)\s*=`,
  scriptUri: String.raw`(?i)(?:java|vb|live)script\s*:\s*[\w$.\[\]]+\s*[(\x60=.\[]`,
  dangerousTag: String.raw`(?i)<\s*(?:iframe|frame|object|embed|applet|base|meta\s[^>]*http-equiv|link\s[^>]*rel\s*=\s*["']?import|math|isindex|xss|svg[^>]*>\s*<\s*(?:script|animate|set))\b`,
  domSink: String.raw`(?i)\b(?:document\s*\.\s*(?:cookie|domain|write\s*\(|location)|window\s*\.\s*(?:location|open\s*\()|\.innerhtml\s*=|\.outerhtml\s*=|string\s*\.\s*fromcharcode\s*\(|(?:alert|prompt|confirm)\s*(?:\(|\x60)\s*(?:['"\x60\d/]|document|window|this))`,
  encodedTag: String.raw`(?i)(?:&#(?:x0*3c|0*60);?|\\u003c|\\x3c|%3c)\s*/?\s*(?:script|img|svg|iframe|body|object)\b`,
  /** Closing a JavaScript string or expression, then calling something: `';alert(1)//`, `"-prompt(1)-"`. */
  jsContextEscape: String.raw`(?i)['"]\s*[;+\-*/|&,)]+\s*(?:alert|confirm|prompt|eval|fetch|import|top\s*\[|self\s*\[|window\s*\.|document\s*\.)\s*[(\[.\x60]`,
  dataUri: String.raw`(?i)\bdata\s*:\s*(?:text/html|image/svg\+xml|application/(?:x-)?javascript)\s*[;,]`,
  clientTemplate: String.raw`(?i)\{\{[^}]*(?:constructor|\$on|\$eval|\$emit|alert\s*\(|\bon\w+\s*=)`,
  cssExpression: String.raw`(?i)(?:\bexpression\s*\(|-moz-binding\s*:|behavior\s*:\s*url\s*\()`,
} as const;

export const TRAVERSAL = {
  /** Two or more `../` (or `..\`): climbing out of a directory. */
  dotDotSlash: String.raw`(?:\.\.[/\\]){2,}|(?:^|[=/\\])\.\.[/\\]+[\w.-]+[/\\]`,
  /** Encodings that survive one URL decoding or that servers decode differently. */
  encodedDots: String.raw`(?i)%(?:c0%ae|c0%af|c1%9c|e0%80%ae|252e|2e%2e|u002e|uff0e|u2215|u2216)|\.%2e[/\\]|%2e\.[/\\]|\.\.;/`,
  osFile: String.raw`(?i)(?:/etc/(?:passwd|shadow|group|sudoers|issue|crontab|hosts)\b|/proc/(?:self|\d+)/(?:environ|cmdline|maps|fd|status)|\b(?:boot|win|system)\.ini\b|[\\/]windows[\\/]system32[\\/]|c:[\\/]+windows\b|/var/log/(?:apache2?|nginx|httpd|auth)|\bweb-inf/web\.xml\b|\.ssh/(?:id_rsa|authorized_keys)\b)`,
  streamWrapper: String.raw`(?i)\b(?:php|phar|zip|expect|glob|ogg|rar|ssh2\.\w+)://|\bdata://text/plain|\bfile:///`,
} as const;

export const COMMAND = {
  /** Command substitution: `$(id)`, `` `whoami` ``. */
  substitution: String.raw`(?i)(?:\$\(\s*|\x60\s*)(?:id|whoami|uname|cat|ls|pwd|wget|curl|sleep|echo|nslookup|ping|ifconfig|hostname|bash|sh|nc)\b`,
  /** A separator, then a reconnaissance command standing alone. */
  chainedRecon: String.raw`(?i)(?:[;|\n]|&&|\|\|)\s*(?:id|whoami|uname(?:\s+-\w+)?|pwd|ifconfig|ipconfig|hostname|ls(?:\s+-\w+)?(?:\s+/[\w/]*)?|netstat\s+-\w+|ps\s+aux)\s*(?:$|[;|&#\x60'"])`,
  /** A separator, then a command reading or fetching something. */
  chainedCommand: String.raw`(?i)(?:[;|\n\x60]|&&|\|\||\$\()\s*(?:cat|more|less|head|tail|nl|tac|wget|curl|nc|ncat|netcat|bash|sh|python[23]?|perl|php|ruby|chmod|rm\s+-\w*[rf]|echo\s+\S+\s*[>|]|ping\s+-[cn]|nslookup|busybox|tftp|powershell|cmd)\b[^\n]{0,40}?(?:/|\\|\d+\.\d+\.\d+\.\d+|https?:|-[a-z]\b|>|\|)`,
  unixShell: String.raw`(?i)(?:/bin/(?:ba|z|k|c|da|tc)?sh\b|/dev/(?:tcp|udp)/|\bbash\s+-[ic]\b|\b(?:nc|ncat|netcat)\s+(?:-\w+\s+)*(?:-e\s|\d{1,3}(?:\.\d{1,3}){3}\s+\d+)|\bmkfifo\s+/tmp/|\bchmod\s+\+?[0-7]*x\s+/tmp/)`,
  downloadAndRun: String.raw`(?i)\b(?:wget|curl|fetch|tftp)\b[^\n|;]{1,120}(?:\||;|&&)\s*(?:ba|z)?sh\b|\b(?:wget|curl)\s+(?:-[\w-]+\s+)*(?:https?://)?\d{1,3}(?:\.\d{1,3}){3}`,
  windows: String.raw`(?i)\b(?:cmd(?:\.exe)?\s*/[ck]\s|powershell(?:\.exe)?\s+(?:-\w+\s+)*-(?:e(?:nc(?:odedcommand)?)?|c(?:ommand)?|nop|w(?:indowstyle)?\s+hidden|exec(?:utionpolicy)?)\b|certutil(?:\.exe)?\s+-urlcache|bitsadmin\s+/transfer|net\s+user\s+\S+\s+\S+\s+/add|reg\s+add\s+hk|wmic\s+process\s+call|mshta\s+https?:|rundll32\s+\S+,)`,
  /** Bash function definition in a value, the Shellshock trigger (CVE-2014-6271). */
  shellshock: String.raw`\(\s*\)\s*\{[^}]*;\s*\}\s*;`,
} as const;

export const LOG4J = {
  /** A JNDI lookup, however its letters are spelled: `${jndi:`, `${${lower:j}ndi:`, `${${::-j}ndi:`. */
  jndi: String.raw`(?i)\$\{(?:[^{}]{0,20}\$\{[^{}]{0,20}\})*[^{}]{0,20}?j(?:\}|\$\{[^{}]{0,20}\}|[^{}a-z]){0,8}n(?:\}|\$\{[^{}]{0,20}\}|[^{}a-z]){0,8}d(?:\}|\$\{[^{}]{0,20}\}|[^{}a-z]){0,8}i[^{}]{0,20}?:`,
  /** Lookups that only make sense to Log4j or Commons Text, nested or not. */
  lookup: String.raw`(?i)\$\{\s*(?:jndi|ldap|rmi|lower|upper|env|sys|java|date|base64|main|ctx|marker|bundle|k8s|docker|spring|event|sd|web|log4j|script|dns|url|file|const|\$\{|::-)\s*:`,
} as const;

export const JAVA = {
  springClassLoader: String.raw`(?i)\bclass\s*\.\s*(?:module\s*\.\s*)?classloader\b|\[\s*['"]?class['"]?\s*\]\s*\.\s*module`,
  ognl: String.raw`(?i)(?:[%$]\{\s*\(?\s*#|#_memberaccess\b|@ognl\.ognlcontext|#context\s*\[|@java\.lang\.(?:runtime|system|processbuilder)@|\(#[a-z_]+=)`,
  runtimeExec: String.raw`(?i)\b(?:java\.lang\.(?:runtime|processbuilder|classloader|reflect)|getruntime\s*\(\s*\)\s*\.\s*exec|javax\.script\.scriptenginemanager|new\s+processbuilder\b|org\.apache\.commons\.collections\d*\.functors|com\.sun\.org\.apache\.xalan)`,
  /** A serialized Java object: magic bytes in hex or base64. */
  serializedObject: String.raw`(?:\baced0005|\brO0AB[A-Za-z0-9+/]|\bH4sIAAAAAAAA[A-Za-z0-9+/]{4,})`,
} as const;

export const PHP = {
  openTag: String.raw`(?i)<\?(?:php\b|=)`,
  superglobalExec: String.raw`(?i)\b(?:system|exec|shell_exec|passthru|popen|proc_open|eval|assert|create_function|call_user_func(?:_array)?|preg_replace)\s*\(\s*(?:\$_(?:get|post|request|cookie|server|files)\b|['"]?(?:id|whoami|uname|ls|cat)\b|base64_decode|gzinflate|str_rot13|gzuncompress|\$\{)`,
  obfuscatedEval: String.raw`(?i)\b(?:eval|assert)\s*\(\s*(?:base64_decode|gzinflate|gzuncompress|str_rot13|hex2bin|strrev)\s*\(`,
  objectInjection: String.raw`\b[OC]:\d{1,4}:"[\w\\]{1,120}":\d{1,4}:\{`,
  iniDirective: String.raw`(?i)\b(?:allow_url_include|auto_prepend_file|auto_append_file|disable_functions|open_basedir|safe_mode)\s*=`,
  cgiArgument: String.raw`(?i)^(?:-|\xad|%ad)[dsc]\s*\w`,
} as const;

export const INJECTION = {
  templateArithmetic: String.raw`(?:\{\{\s*\d+\s*[*+]\s*\d+\s*\}\}|\$\{\s*\d+\s*\*\s*\d+\s*\}|#\{\s*\d+\s*\*\s*\d+\s*\}|<%=\s*\d+\s*\*\s*\d+\s*%>|\{\{\s*['"]\w+['"]\s*\*\s*\d+\s*\}\})`,
  templateObjects: String.raw`(?i)(?:\{\{|\{%|\$\{)[^}]{0,200}?(?:__class__|__mro__|__subclasses__|__globals__|__builtins__|__import__|config\.items|self\._templatereference|request\.application|lipsum\.__|cycler\.__|freemarker\.template\.utility|\.getclass\s*\(\s*\)|new\(\)\s*\("?freemarker)`,
  xmlExternalEntity: String.raw`(?i)<!(?:doctype|entity)\b[^>]*?\b(?:system|public)\b|<!entity\s+%`,
  metadataService: String.raw`(?i)(?:169\.254\.169\.254|\bmetadata\.google\.internal\b|100\.100\.100\.200|\[?fd00:ec2::254\]?|\bmetadata\.azure\.com\b|/latest/meta-data/|/computemetadata/v1)`,
  ssrfScheme: String.raw`(?i)\b(?:gopher|dict|ldap|tftp|jar|netdoc)://`,
  nosqlOperator: String.raw`(?i)\[\s*\$(?:ne|gt|gte|lt|lte|regex|where|nin|in|exists|or|and|expr|not)\s*\]|["']\$(?:where|ne|gt|regex|nin|expr|function)["']\s*:`,
  /** In a parameter name (`__proto__[x]`, `constructor.prototype`) or a JSON body (`"constructor":{"prototype"`). */
  prototypePollution: String.raw`(?i)__proto__|\bconstructor\s*(?:\[\s*['"]?|\.)\s*prototype\b|"constructor"\s*:\s*\{\s*"prototype"\s*:`,
  nodeExec: String.raw`(?i)\brequire\s*\(\s*['"]child_process['"]\s*\)|\bprocess\s*\.\s*(?:mainmodule|binding\s*\()|\bchild_process\b[^;]{0,40}\b(?:exec|spawn)(?:sync)?\s*\(`,
  crlfHeader: String.raw`(?i)[\r\n]+\s*(?:set-cookie|location|content-(?:type|length|disposition)|refresh|x-xss-protection|access-control-allow-origin|transfer-encoding|http/\d(?:\.\d)?)\s*:?`,
  oastDomain: String.raw`(?i)\b(?:[\w-]+\.)+(?:burpcollaborator\.net|oastify\.com|oast\.(?:fun|live|me|online|pro|site)|interact\.sh|dnslog\.cn|ceye\.io|requestbin\.net|canarytokens\.com|xss\.ht)\b`,
} as const;

export const SCANNERS = {
  /** User agents that only attack and audit tools send. */
  toolUserAgent: String.raw`(?i)\b(?:sqlmap|nikto|nmap|masscan|zgrab|nuclei|acunetix|netsparker|wpscan|dirbuster|gobuster|feroxbuster|ffuf|wfuzz|havij|w3af|arachni|openvas|nessus|qualysguard|jaeles|whatweb|zmeu|morfeus|fimap|commix|xsstrike|skipfish|appscan|webinspect|paros|brutus|hydra|medusa|dirb|joomscan|droopescan|cmsmap|sqlninja|bbqsql|vega|grabber|pangolin|webshag|x-scan|zaproxy|owasp zap|fuzz faster u fool)\b`,
} as const;
