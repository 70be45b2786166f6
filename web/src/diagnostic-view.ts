import type { Diagnostic } from '../../src/index.js';
import { formatDiagnostic } from '../../src/lang/diagnostics.js';
import { h, replaceChildren } from './dom.js';
import { quickFixFor } from './editor/quick-fixes.js';

// One diagnostic as the pages list it below an expression editor (the playground, the console's rule
// editor): Cloudflare's text with its carets, the hint, the code, and the quick fix when there is one.

export type ApplyFix = (from: number, to: number, text: string) => void;

export function diagnosticItem(source: string, diagnostic: Diagnostic, applyFix: ApplyFix): HTMLElement {
  const fix = quickFixFor(source, diagnostic);
  return h(
    'div',
    { class: `diagnostic diagnostic-${diagnostic.severity}`, 'data-code': diagnostic.code },
    h('pre', { class: 'diagnostic-text' }, formatDiagnostic(source, diagnostic)),
    diagnostic.hint && h('div', { class: 'diagnostic-hint' }, `hint: ${diagnostic.hint}`),
    h(
      'div',
      { class: 'diagnostic-foot' },
      h('code', { class: 'diagnostic-code' }, diagnostic.code),
      fix &&
        h(
          'button',
          {
            type: 'button',
            class: 'button small quick-fix',
            onclick: () => applyFix(diagnostic.span.start, diagnostic.span.end, fix.replacement),
          },
          fix.label,
        ),
    ),
  );
}

/** Fills `list` with the diagnostics of `source`, or says it is valid. */
export function showDiagnostics(
  list: HTMLElement,
  source: string,
  diagnostics: readonly Diagnostic[],
  applyFix: ApplyFix,
): void {
  replaceChildren(
    list,
    ...(diagnostics.length === 0
      ? [h('div', { class: 'diagnostic-ok' }, '✓ Valid for this plan and phase')]
      : diagnostics.map((diagnostic) => diagnosticItem(source, diagnostic, applyFix))),
  );
}
