import badBotUserAgents from './bad-bot-user-agents.json' with { type: 'json' };
import crawlerUserAgents from './crawler-user-agents.json' with { type: 'json' };
import javaClasses from './java-classes.json' with { type: 'json' };
import lfiAiArtifacts from './lfi-ai-artifacts.json' with { type: 'json' };
import lfiOsFiles from './lfi-os-files.json' with { type: 'json' };
import lfiRestrictedFiles from './lfi-restricted-files.json' with { type: 'json' };
import phpFunctionsAJ from './php-functions-a-j.json' with { type: 'json' };
import phpFunctionsHighRisk from './php-functions-high-risk.json' with { type: 'json' };
import phpFunctionsKQ from './php-functions-k-q.json' with { type: 'json' };
import phpFunctionsRZ from './php-functions-r-z.json' with { type: 'json' };
import phpVariables from './php-variables.json' with { type: 'json' };
import powershellCommands from './powershell-commands.json' with { type: 'json' };
import scannerHeaders from './scanner-headers.json' with { type: 'json' };
import scannerUrls from './scanner-urls.json' with { type: 'json' };
import scannerUserAgents from './scanner-user-agents.json' with { type: 'json' };
import scriptingUserAgents from './scripting-user-agents.json' with { type: 'json' };
import searchEngineUserAgents from './search-engine-user-agents.json' with { type: 'json' };
import ssrfCloudMetadata from './ssrf-cloud-metadata.json' with { type: 'json' };
import ssrfInternalHosts from './ssrf-internal-hosts.json' with { type: 'json' };
import xssDomPhrases from './xss-dom-phrases.json' with { type: 'json' };

/**
 * The phrase lists of `waf_phrases` (ModSecurity's @pm and @pmFromFile), by name: one JSON file each in
 * this folder, an array of phrases. They are facts written out for this project (command names, function
 * and class names, file paths…), never copied from another project's data files; each file's rules say
 * where its words come from in docs/managed-rules.md.
 */
export const PHRASE_LISTS: Readonly<Record<string, readonly string[]>> = {
  /** Names security scanners and attack tools announce in their User-Agent (CRS 913100). */
  'scanner-user-agents': scannerUserAgents,
  /** Header names (and values) security scanners add to their requests, in lower case (CRS 913110). */
  'scanner-headers': scannerHeaders,
  /** Paths and argument values security scanners probe with, in lower case (CRS 913120). */
  'scanner-urls': scannerUrls,
  /**
   * HTTP libraries and command-line clients, by their User-Agent product token (CRS 913101); not OkHttp,
   * whose token Android apps send as their own.
   */
  'scripting-user-agents': scriptingUserAgents,
  /** Crawlers of SEO and marketing-data services, which index for their customers (CRS 913102). */
  'crawler-user-agents': crawlerUserAgents,
  /** Site downloaders, address harvesters, content extractors and synthetic monitors (CRS 913131). */
  'bad-bot-user-agents': badBotUserAgents,
  /** Search engines' crawlers, which sites usually welcome (CRS 913132 counts them as automated). */
  'search-engine-user-agents': searchEngineUserAgents,
  /** PowerShell's cmdlets, switches and .NET calls seen in attacks, in lower case (CRS 932120). */
  'powershell-commands': powershellCommands,
  /** Paths of operating-system files an attacker reads through a file inclusion (CRS 930120, 930121). */
  'lfi-os-files': lfiOsFiles,
  /** Files in a web root that must never be served: VCS metadata, secrets, dumps, logs (CRS 930130). */
  'lfi-restricted-files': lfiRestrictedFiles,
  /** Configuration folders and files of AI coding assistants, which hold keys and MCP servers (930140). */
  'lfi-ai-artifacts': lfiAiArtifacts,
  /** PHP's superglobals and predefined variables (CRS 933130). */
  'php-variables': phpVariables,
  /**
   * PHP functions an attacker's code calls and applications rarely take from a request: decoders,
   * process and socket functions, system information, file system access (CRS 933150).
   */
  'php-functions-high-risk': phpFunctionsHighRisk,
  /**
   * PHP functions called by name (`waf_calls`) at paranoia level 2, by first letter as CRS splits them
   * (933151, 933152, 933153): the functions of PHP's core and common extensions, less the ones the
   * level 1 and 3 rules name and the ones that are English words.
   */
  'php-functions-a-j': phpFunctionsAJ,
  'php-functions-k-q': phpFunctionsKQ,
  'php-functions-r-z': phpFunctionsRZ,
  /** Cloud providers' instance-metadata URLs, from `://` on (CRS 934110). */
  'ssrf-cloud-metadata': ssrfCloudMetadata,
  /** Internal host names and loopback addresses as written without a scheme (CRS 934190). */
  'ssrf-internal-hosts': ssrfInternalHosts,
  /** Java packages and classes that run commands, load code or reach JNDI (OWASP 944130). */
  'java-classes': javaClasses,
  /** DOM properties and markup openers that XSS payloads use (OWASP 941180). */
  'xss-dom-phrases': xssDomPhrases,
};
