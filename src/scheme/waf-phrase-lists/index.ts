import javaClasses from './java-classes.json' with { type: 'json' };
import xssDomPhrases from './xss-dom-phrases.json' with { type: 'json' };

/**
 * The phrase lists of `waf_phrases` (ModSecurity's @pm and @pmFromFile), by name: one JSON file each in
 * this folder, an array of phrases. They are facts written out for this project (command names, function
 * and class names, file paths…), never copied from another project's data files; each file's rules say
 * where its words come from in docs/managed-rules.md.
 */
export const PHRASE_LISTS: Readonly<Record<string, readonly string[]>> = {
  /** Java packages and classes that run commands, load code or reach JNDI (OWASP 944130). */
  'java-classes': javaClasses,
  /** DOM properties and markup openers that XSS payloads use (OWASP 941180). */
  'xss-dom-phrases': xssDomPhrases,
};
