import powershellCommands from './powershell-commands.json' with { type: 'json' };
import scannerUserAgents from './scanner-user-agents.json' with { type: 'json' };

/**
 * The phrase lists of `waf_phrases` (ModSecurity's @pm and @pmFromFile), by name: one JSON file each in
 * this folder, an array of phrases. They are facts written out for this project (command names, function
 * and class names, file paths…), never copied from another project's data files; each file's rules say
 * where its words come from in docs/managed-rules.md.
 */
export const PHRASE_LISTS: Readonly<Record<string, readonly string[]>> = {
  /** Names security scanners and attack tools announce in their User-Agent (CRS 913100). */
  'scanner-user-agents': scannerUserAgents,
  /** PowerShell's cmdlets, switches and .NET calls seen in attacks, in lower case (CRS 932120). */
  'powershell-commands': powershellCommands,
};
