import type { Diagnostic } from '../lang/diagnostics.js';
import { cloudflareScheme } from '../scheme/scheme.js';

// Quick fixes for the diagnostics whose hint names the change to make. The library's hints are text
// (src/lang/messages.ts: `did you mean NAME?`, `replace it with NAME`, `write VALUE`); each fix here reads
// one of those forms and says which text replaces the diagnostic's span.

export interface QuickFix {
  /** What the button says. */
  label: string;
  /** The new text of the span. */
  replacement: string;
}

export function quickFixFor(source: string, diagnostic: Diagnostic): QuickFix | undefined {
  const text = source.slice(diagnostic.span.start, diagnostic.span.end);
  if (diagnostic.code === 'deprecated-field') {
    const replacement = cloudflareScheme.fields.get(text)?.deprecated?.replacement;
    return replacement ? { label: `Use ${replacement}`, replacement } : undefined;
  }
  if (diagnostic.code === 'duplicate-set-item') return { label: 'Remove the repeated item', replacement: '' };
  const hint = diagnostic.hint ?? '';
  const name = /^did you mean ([\w.$]+)\?$/.exec(hint)?.[1] ?? /^replace it with ([\w.$]+)$/.exec(hint)?.[1];
  if (name && /^[\w.$]+$/.test(text)) return { label: `Change to ${name}`, replacement: name };
  const written = /^write ("(?:[^"\\]|\\.)*")$/.exec(hint)?.[1];
  const quoted = /"(?:[^"\\]|\\.)*"/.exec(text);
  if (written && quoted)
    return {
      label: `Write ${written}`,
      replacement: text.slice(0, quoted.index) + written + text.slice(quoted.index + quoted[0].length),
    };
  return undefined;
}
