import type { SignatureSpec } from '../define.js';
import { ANYWHERE, ARGS, hasHeader, headerMatches, matchesIn } from '../inputs.js';

const path = (pattern: string) => matchesIn(['path'], pattern);
const query = (pattern: string) => matchesIn(['query'], pattern);

/**
 * Rules of the Cloudflare Managed Ruleset against known vulnerabilities of products (CMSs, frameworks,
 * appliances): each one recognises the request that reaches the vulnerable code, not one exploit string.
 */
export const PRODUCT_RULES: readonly SignatureSpec[] = [
  // Cloudflare publishes this rule's id (it is the migration guide's example); the expression is ours.
  {
    key: 'struts-open-redirect',
    id: '23ee7cebe6e8443e99ecf932ab579455',
    description: 'Apache Struts - Open Redirect - CVE:CVE-2013-2248',
    categories: ['apache-struts', 'cve-2013-2248', 'open-redirect'],
    expression: query(String.raw`(?i)(?:^|&)(?:redirect|redirectaction|action)\s*:`),
  },
  {
    key: 'struts-content-type-ognl',
    description: 'Apache Struts - Remote Code Execution - CVE:CVE-2017-5638',
    categories: ['rce', 'apache-struts', 'cve-2017-5638', 'java'],
    expression: headerMatches('content-type', String.raw`[%$]\{`),
  },
  {
    key: 'spring-cloud-function',
    description: 'Spring Cloud Function - Remote Code Execution - CVE:CVE-2022-22963',
    categories: ['rce', 'spring', 'cve-2022-22963', 'java'],
    expression: hasHeader('spring.cloud.function.routing-expression'),
  },
  {
    key: 'confluence-ognl-path',
    description: 'Atlassian Confluence - Remote Code Execution - CVE:CVE-2022-26134',
    categories: ['rce', 'confluence', 'atlassian', 'cve-2022-26134'],
    expression: path(String.raw`\$\{[^}]*[#@(]`),
  },
  {
    key: 'confluence-setup',
    description: 'Atlassian Confluence - Broken Access Control - CVE:CVE-2023-22515',
    categories: ['confluence', 'atlassian', 'cve-2023-22515', 'broken-access-control'],
    expression: matchesIn(
      ['path', 'query'],
      String.raw`(?i)bootstrapstatusprovider\.applicationconfig|/setup/setupadministrator\.action`,
    ),
  },
  {
    key: 'jira-ssrf',
    description: 'Atlassian Jira - SSRF - CVE:CVE-2019-8451',
    categories: ['ssrf', 'jira', 'atlassian', 'cve-2019-8451'],
    expression: `${path('(?i)/plugins/servlet/gadgets/makerequest')} and ${query('(?i)url=[^&]*@')}`,
  },
  {
    key: 'apache-path-traversal',
    description: 'Apache HTTP Server - Path Traversal - CVE:CVE-2021-41773, CVE:CVE-2021-42013',
    categories: ['lfi', 'rce', 'apache', 'cve-2021-41773', 'cve-2021-42013'],
    expression: matchesIn(
      ['rawPath'],
      String.raw`(?i)/(?:cgi-bin|icons)/(?:[^/]*/)*(?:\.|%2e|%%32%65|%252e){2}/`,
    ),
  },
  {
    key: 'phpunit-eval-stdin',
    description: 'PHPUnit - Remote Code Execution - CVE:CVE-2017-9841',
    categories: ['rce', 'php', 'phpunit', 'cve-2017-9841'],
    expression: path(String.raw`(?i)/phpunit/.*eval-stdin\.php|/eval-stdin\.php`),
  },
  {
    key: 'laravel-ignition',
    description: 'Laravel Ignition - Remote Code Execution - CVE:CVE-2021-3129',
    categories: ['rce', 'php', 'laravel', 'cve-2021-3129'],
    expression: path('(?i)/_ignition/execute-solution'),
  },
  {
    key: 'thinkphp-rce',
    description: 'ThinkPHP - Remote Code Execution - CVE:CVE-2018-20062',
    categories: ['rce', 'php', 'thinkphp', 'cve-2018-20062'],
    expression: matchesIn(
      ['path', 'query'],
      String.raw`(?i)\\think\\(?:app|container|request|view)|invokefunction&function=|/think\\`,
    ),
  },
  {
    key: 'vbulletin-widget',
    description: 'vBulletin - Remote Code Execution - CVE:CVE-2019-16759, CVE:CVE-2020-17496',
    categories: ['rce', 'php', 'vbulletin', 'cve-2019-16759', 'cve-2020-17496'],
    expression: matchesIn(
      ['path', 'query', 'body'],
      String.raw`(?i)widgetconfig\[code\]|ajax/render/widget_(?:php|tabbedcontainer_tab_panel)`,
    ),
  },
  {
    key: 'drupalgeddon2',
    description: 'Drupal - Remote Code Execution - CVE:CVE-2018-7600',
    categories: ['rce', 'php', 'drupal', 'cve-2018-7600'],
    expression: matchesIn(
      ['query', 'body'],
      String.raw`(?i)(?:\[#|(?:^|&)#)(?:post_render|pre_render|markup|access_callback|lazy_builder|submit|validate)\b|element_parents=[^&]*#value`,
    ),
  },
  {
    key: 'joomla-config-leak',
    description: 'Joomla - Information Disclosure - CVE:CVE-2023-23752',
    categories: ['joomla', 'php', 'cve-2023-23752', 'information-disclosure'],
    expression: `${path(String.raw`(?i)/api/index\.php/v1/(?:config/application|users)`)} and ${query(String.raw`(?i)\bpublic=true\b`)}`,
  },
  {
    key: 'joomla-session-injection',
    description: 'Joomla - Remote Code Execution - CVE:CVE-2015-8562',
    categories: ['rce', 'joomla', 'php', 'cve-2015-8562'],
    expression: matchesIn(['headers'], String.raw`(?i)jdatabasedrivermysqli|\}__\w+\|o:\d+:`),
  },
  {
    key: 'magento-shoplift',
    description: 'Magento - Remote Code Execution - CVE:CVE-2015-1397',
    categories: ['rce', 'magento', 'php', 'cve-2015-1397'],
    expression: path('(?i)/admin/cms_wysiwyg/directive/index'),
  },
  {
    key: 'wordpress-revslider',
    description: 'WordPress - Slider Revolution - File Disclosure',
    categories: ['wordpress', 'lfi', 'php'],
    expression: query('(?i)action=revslider_show_image[^#]*&img='),
  },
  {
    key: 'wordpress-file-manager',
    description: 'WordPress - File Manager - Remote Code Execution - CVE:CVE-2020-25213',
    categories: ['wordpress', 'rce', 'php', 'cve-2020-25213'],
    expression: path(String.raw`(?i)/wp-file-manager/lib/php/connector\.minimal\.php`),
  },
  {
    key: 'wordpress-duplicator',
    description: 'WordPress - Duplicator - File Disclosure - CVE:CVE-2020-11738',
    categories: ['wordpress', 'lfi', 'php', 'cve-2020-11738'],
    expression: query('(?i)action=duplicator_download[^#]*&file='),
  },
  {
    key: 'wordpress-xmlrpc-multicall',
    description: 'WordPress - XML-RPC multicall amplification',
    categories: ['wordpress', 'brute-force', 'php'],
    expression: `${path(String.raw`(?i)/xmlrpc\.php`)} and ${matchesIn(['body'], String.raw`(?i)<methodname>\s*system\.multicall`)}`,
  },
  {
    key: 'wordpress-user-enumeration',
    description: 'WordPress - User enumeration',
    categories: ['wordpress', 'information-disclosure'],
    action: 'log',
    expression: `(${path(String.raw`(?i)/wp-json/wp/v2/users\b`)} or ${query(String.raw`^author=\d+$`)})`,
  },
  {
    key: 'wordpress-install-probe',
    description: 'WordPress - Installer access',
    categories: ['wordpress', 'attack-surface-reduction'],
    action: 'managed_challenge',
    expression: path(String.raw`(?i)/wp-admin/(?:install|setup-config)\.php$`),
  },
  {
    key: 'citrix-traversal',
    description: 'Citrix ADC - Remote Code Execution - CVE:CVE-2019-19781',
    categories: ['rce', 'citrix', 'cve-2019-19781'],
    expression: path(String.raw`(?i)/vpns?/\.\./vpns/|/vpns/portal/scripts/(?:newbm|rmbm|picktheme)\.pl`),
  },
  {
    key: 'citrix-bleed',
    description: 'Citrix ADC - Information Disclosure - CVE:CVE-2023-4966',
    categories: ['citrix', 'cve-2023-4966', 'information-disclosure'],
    expression: `${path(String.raw`(?i)/oauth/idp/\.well-known/openid-configuration`)} and len(http.host) gt 1024`,
  },
  {
    key: 'f5-tmui-traversal',
    description: 'F5 BIG-IP - Remote Code Execution - CVE:CVE-2020-5902',
    categories: ['rce', 'f5', 'cve-2020-5902'],
    expression: path(String.raw`(?i)/tmui/login\.jsp/\.\.;/`),
  },
  {
    key: 'f5-icontrol-bash',
    description: 'F5 BIG-IP - Authentication Bypass - CVE:CVE-2022-1388',
    categories: ['rce', 'f5', 'cve-2022-1388'],
    expression: path('(?i)^/mgmt/tm/util/bash'),
  },
  {
    key: 'fortinet-fgt-lang',
    description: 'Fortinet FortiOS - Path Traversal - CVE:CVE-2018-13379',
    categories: ['lfi', 'fortinet', 'cve-2018-13379'],
    expression: `${path('(?i)/remote/fgt_lang')} and ${query(String.raw`(?i)lang=/?\.\.`)}`,
  },
  {
    key: 'fortinet-auth-bypass',
    description: 'Fortinet FortiOS - Authentication Bypass - CVE:CVE-2022-40684',
    categories: ['fortinet', 'cve-2022-40684', 'broken-access-control'],
    expression: `${path('(?i)^/api/v2/cmdb/system/admin')} and (http.user_agent contains "Report Runner" or any(http.request.headers["forwarded"][*] contains "127.0.0.1"))`,
  },
  {
    key: 'exchange-proxyshell',
    description: 'Microsoft Exchange - ProxyShell - CVE:CVE-2021-34473',
    categories: ['rce', 'exchange', 'microsoft', 'cve-2021-34473'],
    expression: `${path(String.raw`(?i)/autodiscover/autodiscover\.json`)} and ${query('(?i)@[^&]*(?:/mapi|/powershell|/ews|autodiscover)')}`,
  },
  {
    key: 'exchange-proxylogon',
    description: 'Microsoft Exchange - ProxyLogon - CVE:CVE-2021-26855',
    categories: ['rce', 'exchange', 'microsoft', 'cve-2021-26855'],
    expression: matchesIn(['cookies'], String.raw`(?i)\bx-(?:anonresource-backend|beresource)=`),
  },
  {
    key: 'vmware-vcenter-upload',
    description: 'VMware vCenter - Remote Code Execution - CVE:CVE-2021-21972',
    categories: ['rce', 'vmware', 'cve-2021-21972'],
    expression: path('(?i)/ui/vropspluginui/rest/services/(?:uploadova|getstatus)'),
  },
  {
    key: 'vmware-workspace-ssti',
    description: 'VMware Workspace ONE - Template Injection - CVE:CVE-2022-22954',
    categories: ['rce', 'ssti', 'vmware', 'cve-2022-22954'],
    expression: `${path('(?i)/catalog-portal/ui/oauth/verify')} and ${query(String.raw`\$\{`)}`,
  },
  {
    key: 'weblogic-console',
    description: 'Oracle WebLogic - Remote Code Execution - CVE:CVE-2020-14882',
    categories: ['rce', 'oracle', 'weblogic', 'cve-2020-14882'],
    expression: matchesIn(
      ['path', 'query'],
      String.raw`(?i)/console/(?:css|images|\.\.)/.*console\.portal|com\.tangosol\.coherence\.mvel2|shellsession`,
    ),
  },
  {
    key: 'weblogic-async',
    description: 'Oracle WebLogic - Deserialization - CVE:CVE-2019-2725',
    categories: ['rce', 'oracle', 'weblogic', 'cve-2019-2725'],
    expression: path('(?i)/(?:_async/asyncresponseservice|wls-wsat/coordinatorporttype)'),
  },
  {
    key: 'jenkins-script-security',
    description: 'Jenkins - Remote Code Execution - CVE:CVE-2019-1003000',
    categories: ['rce', 'jenkins', 'cve-2019-1003000'],
    expression: path(String.raw`(?i)/descriptorbyname/org\.jenkinsci\.plugins\.(?:scriptsecurity|workflow)`),
  },
  {
    key: 'ivanti-traversal',
    description: 'Ivanti Connect Secure - Authentication Bypass - CVE:CVE-2023-46805, CVE:CVE-2024-21887',
    categories: ['rce', 'ivanti', 'cve-2023-46805', 'cve-2024-21887'],
    expression: path('(?i)/api/v1/(?:totp/user-backup-code|cav/client/status|license/keys-status)/'),
  },
  {
    key: 'nextjs-middleware-bypass',
    description: 'Next.js - Authorization Bypass - CVE:CVE-2025-29927',
    categories: ['nextjs', 'cve-2025-29927', 'broken-access-control'],
    expression: hasHeader('x-middleware-subrequest'),
  },
  {
    key: 'gpon-router',
    description: 'GPON Router - Authentication Bypass - CVE:CVE-2018-10561',
    categories: ['rce', 'iot', 'cve-2018-10561'],
    expression: path('(?i)/gponform/diag_form'),
  },
  {
    key: 'iot-probes',
    description: 'IoT - Router and camera exploit paths',
    categories: ['iot', 'rce'],
    expression: path(
      String.raw`(?i)^/(?:hnap1/?$|boaform/admin/formlogin|cgi-bin/luci/;stok=|setup\.cgi$|shell$|goform/(?:setsystemsettings|formping|set_lan)|cgi-bin/(?:kerbynet|supervisor/currentusers\.cgi|viewlog\.asp))`,
    ),
  },
  {
    key: 'moveit-transfer',
    description: 'Progress MOVEit Transfer - SQLi - CVE:CVE-2023-34362',
    categories: ['sqli', 'moveit', 'cve-2023-34362'],
    expression: `(${path(String.raw`(?i)/moveitisapi/moveitisapi\.dll`)} and ${query('(?i)action=m2')}) or ${hasHeader('x-silock-transaction')}`,
  },
  {
    key: 'geoserver-eval',
    description: 'GeoServer - Remote Code Execution - CVE:CVE-2024-36401',
    categories: ['rce', 'geoserver', 'cve-2024-36401'],
    expression: matchesIn(['query', 'body'], String.raw`(?i)valuereference=[^&]*\bexec\s*\(`),
  },
  {
    key: 'solr-velocity',
    description: 'Apache Solr - Template Injection - CVE:CVE-2019-17558',
    categories: ['rce', 'ssti', 'solr', 'cve-2019-17558'],
    expression: matchesIn(ARGS, String.raw`(?i)\bv\.template\s*=\s*custom|#set\s*\(\s*\$\w+\s*=`),
  },
  {
    key: 'gitlab-exiftool',
    description: 'GitLab - Remote Code Execution - CVE:CVE-2021-22205',
    categories: ['rce', 'gitlab', 'cve-2021-22205'],
    expression: matchesIn(['body'], String.raw`(?i)\(metadata\s*\(\s*copyright\s*"\\\s*"\s*\.\s*qx\{`),
  },
  {
    key: 'zimbra-mboximport',
    description: 'Zimbra - Path Traversal Upload - CVE:CVE-2022-27925',
    categories: ['rce', 'zimbra', 'cve-2022-27925'],
    expression: `${path('(?i)/service/extension/backup/mboximport')} and ${query(String.raw`(?i)\bow=`)}`,
  },
  {
    key: 'sap-recon',
    description: 'SAP NetWeaver - Missing Authorization - CVE:CVE-2020-6287',
    categories: ['sap', 'cve-2020-6287', 'broken-access-control'],
    expression: path('(?i)/ctcprotocol/protocol|/ctc/servlet/configservlet'),
  },
  {
    key: 'log4j-solr-probe',
    description: 'Apache Solr - Log4j probe in admin API - CVE:CVE-2021-44228',
    categories: ['rce', 'solr', 'cve-2021-44228', 'log4j'],
    expression: `${path('(?i)/solr/admin/(?:cores|collections|info)')} and ${matchesIn(ARGS, String.raw`\$\{`)}`,
  },
  {
    key: 'struts-action-prefix',
    description: 'Apache Struts - Remote Code Execution - CVE:CVE-2013-2251',
    categories: ['rce', 'apache-struts', 'cve-2013-2251', 'java'],
    expression: matchesIn(
      ['query', 'body'],
      String.raw`(?i)(?:^|&)(?:action|redirect|redirectaction)\s*:\s*[%$]\{`,
    ),
  },
  {
    key: 'jolokia-exec',
    description: 'Jolokia - JMX operation exposed',
    categories: ['rce', 'java', 'information-disclosure'],
    expression: path('(?i)/jolokia/(?:exec|read|list|write)/'),
  },
  {
    key: 'docker-api',
    description: 'Docker Engine API - Container creation',
    categories: ['rce', 'docker', 'attack-surface-reduction'],
    expression: path(String.raw`(?i)^/(?:v1\.\d+/)?containers/(?:create|[\w-]+/exec)$`),
  },
  {
    key: 'hadoop-yarn',
    description: 'Hadoop YARN - Unauthenticated application submission',
    categories: ['rce', 'hadoop', 'attack-surface-reduction'],
    expression: path('(?i)^/ws/v1/cluster/apps(?:/new-application)?$'),
  },
  {
    key: 'php-info-probe',
    description: 'PHP - Information disclosure through phpinfo',
    categories: ['php', 'information-disclosure'],
    expression: matchesIn(['path', 'query'], String.raw`(?i)/phpinfo\.php$|(?:^|&)phpinfo(?:=|&|$)`),
  },
  {
    key: 'anywhere-jndi-protocol',
    description: 'Log4j - JNDI URL in a parameter',
    categories: ['log4j', 'cve-2021-44228'],
    action: 'log',
    expression: matchesIn(ANYWHERE, String.raw`(?i)\b(?:ldaps?|rmi|iiop|corba|nds|nis)://[\w.-]+(?::\d+)?/`),
  },
];
