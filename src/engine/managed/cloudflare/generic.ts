import type { SignatureSpec } from '../define.js';
import { ANYWHERE, ARGS, ARGS_AND_PATH, anyOf, type Input, matchesIn } from '../inputs.js';
import { COMMAND, INJECTION, JAVA, LOG4J, PHP, SQL, TRAVERSAL, XSS } from '../patterns.js';

/** Headers an application may echo or log, where injected payloads are also found. */
const LOGGED_HEADERS: readonly Input[] = ['userAgent', 'referer'];

/**
 * Rules of the Cloudflare Managed Ruleset against attack classes rather than one product, written by the
 * project before the OWASP Core Ruleset followed the Core Rule Set; most attack classes are now covered by
 * rules that share the OWASP rules' detection (attacks.ts). Those kept fire on none of the project's
 * ordinary traffic (test/engine/ordinary-traffic.test.ts).
 */
export const GENERIC_RULES: readonly SignatureSpec[] = [
  // SQL injection
  {
    key: 'sqli-tautology-numeric',
    description: 'SQLi - Numeric tautology',
    categories: ['sqli'],
    expression: matchesIn(ARGS, SQL.numericTautology),
  },
  {
    key: 'sqli-stacked',
    description: 'SQLi - Stacked query',
    categories: ['sqli'],
    expression: matchesIn(ARGS_AND_PATH, SQL.stackedQuery),
  },
  {
    key: 'sqli-time-based',
    description: 'SQLi - Time-based blind',
    categories: ['sqli'],
    expression: matchesIn(ARGS_AND_PATH, SQL.timeBased),
  },
  {
    key: 'sqli-error-based',
    description: 'SQLi - Error-based extraction functions',
    categories: ['sqli'],
    expression: matchesIn(ARGS, SQL.errorBased),
  },
  {
    key: 'sqli-schema',
    description: 'SQLi - Database schema enumeration',
    categories: ['sqli'],
    expression: matchesIn(ARGS_AND_PATH, SQL.schemaEnumeration),
  },
  {
    key: 'sqli-file-access',
    description: 'SQLi - File and command access from the database',
    categories: ['sqli', 'rce'],
    expression: matchesIn(ARGS, SQL.fileAccess),
  },
  {
    key: 'sqli-system-variables',
    description: 'SQLi - Server variables and functions',
    categories: ['sqli'],
    expression: matchesIn(ARGS, SQL.systemVariables),
  },
  {
    key: 'sqli-char-encoding',
    description: 'SQLi - String built from character codes',
    categories: ['sqli'],
    expression: matchesIn(ARGS, SQL.charEncoding),
  },
  {
    key: 'sqli-order-by',
    description: 'SQLi - Column count probe',
    categories: ['sqli'],
    expression: matchesIn(ARGS, SQL.orderByProbe),
  },
  {
    key: 'sqli-conditional',
    description: 'SQLi - Conditional blind probe',
    categories: ['sqli'],
    action: 'log',
    expression: matchesIn(ARGS, SQL.conditionalProbe),
  },
  {
    key: 'sqli-headers',
    description: 'SQLi - In User-Agent or Referer',
    categories: ['sqli'],
    expression: anyOf([
      matchesIn(LOGGED_HEADERS, SQL.unionSelect),
      matchesIn(LOGGED_HEADERS, SQL.timeBased),
      matchesIn(LOGGED_HEADERS, SQL.quotedTautology),
    ]),
  },
  // Cross-site scripting
  {
    key: 'xss-dom-sink',
    description: 'XSS - DOM access and dialog functions',
    categories: ['xss'],
    expression: matchesIn(ARGS, XSS.domSink),
  },
  {
    key: 'xss-encoded-tag',
    description: 'XSS - Encoded tag',
    categories: ['xss'],
    expression: matchesIn(ARGS, XSS.encodedTag),
  },
  {
    key: 'xss-js-context-escape',
    description: 'XSS - JavaScript context escape',
    categories: ['xss'],
    expression: matchesIn(ARGS, XSS.jsContextEscape),
  },
  {
    key: 'xss-data-uri',
    description: 'XSS - Active content in a data URI',
    categories: ['xss'],
    expression: matchesIn(ARGS, XSS.dataUri),
  },
  {
    key: 'xss-client-template',
    description: 'XSS - Client-side template injection',
    categories: ['xss', 'angularjs'],
    expression: matchesIn(ARGS_AND_PATH, XSS.clientTemplate),
  },
  {
    key: 'xss-css-expression',
    description: 'XSS - Script in CSS',
    categories: ['xss'],
    action: 'log',
    expression: matchesIn(ARGS, XSS.cssExpression),
  },
  {
    key: 'xss-headers',
    description: 'XSS - In User-Agent or Referer',
    categories: ['xss'],
    expression: anyOf([
      matchesIn(LOGGED_HEADERS, XSS.scriptTag),
      matchesIn(LOGGED_HEADERS, XSS.eventHandlerInTag),
    ]),
  },
  // Path traversal and file inclusion
  {
    key: 'lfi-dot-dot-slash',
    description: 'LFI - Directory traversal',
    categories: ['lfi', 'directory-traversal'],
    expression: matchesIn(ARGS_AND_PATH, TRAVERSAL.dotDotSlash),
  },
  {
    key: 'lfi-encoded-dots',
    description: 'LFI - Encoded directory traversal',
    categories: ['lfi', 'directory-traversal'],
    expression: matchesIn(['rawPath', 'rawQuery', 'path', 'query'], TRAVERSAL.encodedDots),
  },
  {
    key: 'lfi-os-files',
    description: 'LFI - Operating system files',
    categories: ['lfi'],
    expression: matchesIn(ARGS_AND_PATH, TRAVERSAL.osFile),
  },
  {
    key: 'lfi-stream-wrapper',
    description: 'LFI - PHP stream wrapper',
    categories: ['lfi', 'rfi', 'php'],
    expression: matchesIn(ARGS, TRAVERSAL.streamWrapper),
  },
  {
    key: 'rfi-ip-url',
    description: 'RFI - Include of a URL on an IP address',
    categories: ['rfi'],
    expression: matchesIn(
      ['query', 'body'],
      String.raw`(?i)(?:^|[?&])(?:file|page|path|include|inc|require|template|tpl|dir|doc|document|folder|root|pg|style|lang|load|mod|module|conf|site|url)=\s*(?:https?|ftps?|smb)://\d{1,3}(?:\.\d{1,3}){3}`,
    ),
  },
  {
    key: 'rfi-trailing-question-mark',
    description: 'RFI - URL parameter ending in a question mark',
    categories: ['rfi'],
    expression: matchesIn(['query'], String.raw`(?i)(?:^|&)[\w\[\]]+=(?:https?|ftps?)://[^&]+?\?+(?:&|$)`),
  },
  // Command injection
  {
    key: 'rce-chained-recon',
    description: 'Command Injection - Chained reconnaissance command',
    categories: ['rce', 'command-injection'],
    expression: matchesIn(ARGS, COMMAND.chainedRecon),
  },
  {
    key: 'rce-unix-shell',
    description: 'Command Injection - Unix shell',
    categories: ['rce', 'command-injection'],
    expression: matchesIn(ARGS_AND_PATH, COMMAND.unixShell),
  },
  {
    key: 'rce-windows',
    description: 'Command Injection - Windows shell',
    categories: ['rce', 'command-injection', 'windows'],
    expression: matchesIn(ARGS, COMMAND.windows),
  },
  {
    key: 'shellshock',
    description: 'Bash - Remote Code Execution - CVE:CVE-2014-6271',
    categories: ['rce', 'cve-2014-6271', 'shellshock'],
    expression: matchesIn(ANYWHERE, COMMAND.shellshock),
  },
  // Log4j and other lookup injections
  {
    key: 'log4j-headers',
    description: 'Log4j Headers - Remote Code Execution - CVE:CVE-2021-44228',
    categories: ['rce', 'cve-2021-44228', 'log4j'],
    expression: matchesIn(['headers'], LOG4J.jndi),
  },
  {
    key: 'log4j-args',
    description: 'Log4j Body and URI - Remote Code Execution - CVE:CVE-2021-44228',
    categories: ['rce', 'cve-2021-44228', 'log4j'],
    expression: matchesIn(ARGS_AND_PATH, LOG4J.jndi),
  },
  {
    key: 'log4j-lookup',
    description: 'Log4j - Lookup expression - CVE:CVE-2021-45046',
    categories: ['rce', 'cve-2021-45046', 'log4j'],
    expression: matchesIn(ANYWHERE, LOG4J.lookup),
  },
  {
    key: 'text4shell',
    description: 'Apache Commons Text - Remote Code Execution - CVE:CVE-2022-42889',
    categories: ['rce', 'cve-2022-42889'],
    expression: matchesIn(ANYWHERE, String.raw`(?i)\$\{\s*(?:script|dns|url)\s*:[^}]{0,30}:`),
  },
  // Java, PHP and Node.js code injection
  {
    key: 'spring4shell',
    description: 'Spring Framework - Remote Code Execution - CVE:CVE-2022-22965',
    categories: ['rce', 'cve-2022-22965', 'spring', 'java'],
    expression: matchesIn(ARGS, JAVA.springClassLoader),
  },
  {
    key: 'ognl-args',
    description: 'OGNL - Expression injection in the URI or body',
    categories: ['rce', 'java', 'apache-struts', 'confluence'],
    expression: matchesIn(ARGS_AND_PATH, JAVA.ognl),
  },
  {
    key: 'java-runtime',
    description: 'Java - Runtime and reflection classes',
    categories: ['rce', 'java'],
    expression: matchesIn(ARGS_AND_PATH, JAVA.runtimeExec),
  },
  {
    key: 'java-deserialization',
    description: 'Java - Serialized object',
    categories: ['rce', 'java', 'deserialization'],
    expression: matchesIn(['body', 'cookies', 'headers'], JAVA.serializedObject),
  },
  {
    key: 'spel-injection',
    description: 'Spring - Expression Language injection - CVE:CVE-2022-22947',
    categories: ['rce', 'spring', 'java', 'cve-2022-22947'],
    expression: matchesIn(ARGS_AND_PATH, String.raw`(?i)(?:#\{|\$\{)[^}]{0,40}\bT\s*\(\s*java\.`),
  },
  {
    key: 'php-open-tag',
    description: 'PHP - Code in a parameter',
    categories: ['rce', 'php'],
    expression: matchesIn(ARGS, PHP.openTag),
  },
  {
    key: 'php-exec-functions',
    description: 'PHP - Command execution functions',
    categories: ['rce', 'php'],
    expression: matchesIn(ARGS_AND_PATH, PHP.superglobalExec),
  },
  {
    key: 'php-obfuscated-eval',
    description: 'PHP - Evaluation of encoded code',
    categories: ['rce', 'php', 'webshell'],
    expression: matchesIn(ARGS, PHP.obfuscatedEval),
  },
  {
    key: 'php-object-injection',
    description: 'PHP - Object injection',
    categories: ['rce', 'php', 'deserialization'],
    expression: matchesIn(['query', 'body', 'cookies', 'headers'], PHP.objectInjection),
  },
  {
    key: 'php-ini-directive',
    description: 'PHP - Configuration directive in a parameter',
    categories: ['rce', 'php'],
    expression: matchesIn(ARGS, PHP.iniDirective),
  },
  {
    key: 'php-cgi-argument',
    description: 'PHP CGI - Argument injection - CVE:CVE-2012-1823, CVE:CVE-2024-4577',
    categories: ['rce', 'php', 'cve-2012-1823', 'cve-2024-4577'],
    expression: matchesIn(['rawQuery', 'query'], PHP.cgiArgument),
  },
  {
    key: 'upload-executable',
    description: 'File Upload - Server-side script',
    categories: ['rce', 'file-upload', 'php'],
    expression: matchesIn(
      ['body'],
      String.raw`(?i)\bfilename\s*=\s*"?[^";\r\n]*\.(?:php\d?|phtml|phar|pht|jsp|jspx|asp|aspx|ashx|cer|cgi|pl)"?\s*(?:[;\r\n]|$)`,
    ),
  },
  {
    key: 'node-exec',
    description: 'Node.js - Code injection',
    categories: ['rce', 'nodejs'],
    expression: matchesIn(ARGS, INJECTION.nodeExec),
  },
  {
    key: 'prototype-pollution',
    description: 'JavaScript - Prototype pollution',
    categories: ['prototype-pollution', 'nodejs'],
    expression: matchesIn(ARGS_AND_PATH, INJECTION.prototypePollution),
  },
  // Other injections
  {
    key: 'ssti-arithmetic',
    description: 'SSTI - Template expression probe',
    categories: ['ssti'],
    expression: matchesIn(ARGS_AND_PATH, INJECTION.templateArithmetic),
  },
  {
    key: 'ssti-objects',
    description: 'SSTI - Template object traversal',
    categories: ['ssti', 'rce'],
    expression: matchesIn(ARGS_AND_PATH, INJECTION.templateObjects),
  },
  {
    key: 'xxe',
    description: 'XXE - External entity',
    categories: ['xxe'],
    expression: matchesIn(['body', 'query'], INJECTION.xmlExternalEntity),
  },
  {
    key: 'ssrf-metadata',
    description: 'SSRF - Cloud metadata service',
    categories: ['ssrf'],
    expression: matchesIn(ARGS_AND_PATH, INJECTION.metadataService),
  },
  {
    key: 'ssrf-scheme',
    description: 'SSRF - Unusual URL scheme',
    categories: ['ssrf'],
    expression: matchesIn(ARGS, INJECTION.ssrfScheme),
  },
  {
    key: 'nosqli-operator',
    description: 'NoSQLi - Query operator in a parameter',
    categories: ['nosqli'],
    expression: matchesIn(ARGS, INJECTION.nosqlOperator),
  },
  {
    key: 'crlf-injection',
    description: 'HTTP Response Splitting - CRLF and header in the URI',
    categories: ['crlf', 'protocol'],
    expression: matchesIn(['path', 'query', 'cookies'], INJECTION.crlfHeader),
  },
  {
    key: 'oast-callback',
    description: 'Out-of-band interaction domain',
    categories: ['scanner'],
    expression: matchesIn(ANYWHERE, INJECTION.oastDomain),
  },
];
