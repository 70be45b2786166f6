// biome-ignore-all lint/suspicious/noTemplateCurlyInString: HCL template sequences in plain strings are what these tests are about
// Strings that HCL would misread if written naively: template sequences, escapes, line breaks, control
// and non-ASCII characters, and a long one. The expressions are valid filters (the service stores them);
// the descriptions are free text.

/** `${` written 4,000 characters in: a long expression must still be escaped all the way. */
const longExpression = `http.request.uri.path in {${Array.from({ length: 440 }, (_, i) => `"/p${String(i).padStart(4, '0')}"`).join(' ')} "/\${end}"}`;

export const nastyExpressions: readonly string[] = [
  'http.request.uri.path eq "/${var.secret}"',
  'http.request.uri.query contains "%{if true}x%{endif}"',
  'http.request.uri.path eq "${~x}" or http.request.uri.path eq "%{~y}"',
  'http.user_agent contains "say \\"hi\\""',
  'http.request.uri.path eq "C:\\\\dir\\\\"',
  'http.request.uri.path wildcard r"/${x}/*"',
  'http.request.uri.path eq "line one\nline two"',
  'http.request.uri.path eq "a\tb\rc"',
  'http.request.uri.path eq "bell\u0001 nul-free \u007f \u0085 \u2028 \u202e"',
  'http.host eq "münchen.example" or http.user_agent contains "日本語 😀 עברית"',
  'http.request.uri.path eq "$$${{%%%{" or http.request.uri.path eq "$$" or http.request.uri.path eq "%%"',
  'ends_with(http.request.uri.path, "$") or ends_with(http.request.uri.path, "%")',
  'ip.src in {192.0.2.0/24}\nand not ssl\n',
  'ssl\r\nand not cf.client.bot',
  '(http.host eq "a.example"\n  or http.host eq "b.example")\nand http.request.uri.path eq "/${EOT}"',
  longExpression,
];

export const nastyDescriptions: readonly string[] = [
  '',
  'ends with $',
  'ends with %',
  'log4j: ${jndi:ldap://x}',
  '%{ for x in y }',
  'quote " and backslash \\ and \\n (not a line break)',
  'two\nlines',
  // Not U+0000, which the API refuses to store (docs/api.md); hcl.test.ts checks how it would be written.
  'control \u0001\u0007\u001b[2J',
  'EOT\n',
  'naïve café ☕',
];

/** Strings HCL cannot hold as they are: HCL (and Terraform) read every string in NFC. */
export const notNfc = 'cafe\u0301';
