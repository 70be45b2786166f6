import { EditorView } from '@codemirror/view';

// The editor's look. CodeMirror's styles (these included) are mounted as constructed style sheets of the
// editor's shadow root (./expression-editor.ts): a page served with a strict Content-Security-Policy
// (`style-src 'self'`, no nonce) refuses the <style> elements CodeMirror would add to the document, while
// constructed sheets are not inline styles. The page's own style sheet does not reach into the shadow root,
// so everything the editor shows is styled here.

const MONO = 'ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace';
const SANS = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

export const playgroundTheme = EditorView.theme({
  '&': {
    border: '1px solid #dde1e7',
    borderRadius: '8px',
    minHeight: '96px',
    background: '#fff',
    fontSize: '14px',
  },
  '&.cm-focused': { outline: '2px solid #ffd8b5', borderColor: '#f38020' },
  '.cm-content': { fontFamily: MONO, padding: '10px 0' },
  '.cm-scroller': { fontFamily: MONO, lineHeight: '1.55' },
  '.cm-gutters': { background: '#fbfcfd', borderRight: '1px solid #eef0f3', borderRadius: '8px 0 0 8px' },
  '.cm-placeholder': { color: '#98a2b3' },
  '.cm-tooltip': { fontFamily: SANS, fontSize: '13px', border: '1px solid #dde1e7', borderRadius: '6px' },
  '.cm-tooltip-autocomplete > ul > li': { fontFamily: MONO, padding: '2px 8px' },
  '.cm-completionDetail': { color: '#667085', marginLeft: '12px', fontStyle: 'normal' },
  '.cm-completionInfo': { fontFamily: SANS, whiteSpace: 'pre-line', maxWidth: '360px' },
  '.cm-diagnostic': { fontFamily: MONO, whiteSpace: 'pre-wrap' },
  '.cf-field': { color: '#0b5cad' },
  '.cf-function': { color: '#7a3eb1' },
  '.cf-keyword': { color: '#b3261e', fontWeight: '600' },
  '.cf-operator': { color: '#a15c00', fontWeight: '600' },
  '.cf-string': { color: '#1a7f37' },
  '.cf-regex': { color: '#0f7b6c' },
  '.cf-literal': { color: '#9a3412' },
  '.cf-list': { color: '#0e7490', fontStyle: 'italic' },
  '.cf-invalid': { color: '#b42318' },
  '.cf-hover': { padding: '8px 10px', maxWidth: '420px', lineHeight: '1.45' },
  '.cf-hover-title': { marginBottom: '4px' },
  '.cf-hover code': { fontFamily: MONO, fontWeight: '600' },
  '.cf-type': { color: '#667085', fontFamily: MONO, fontSize: '12px' },
  '.cf-muted': { color: '#667085', fontSize: '12px' },
  '.cf-deprecated, .cf-warning': { color: '#9a6700' },
});
