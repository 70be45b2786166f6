import { hoverTooltip } from '@codemirror/view';
import { h } from '../dom.js';
import { describeName, type Profile } from './names.js';

// Documentation on hover: a field's type, description, availability and deprecation; a function's
// signature; an operator's meaning. The word under the pointer is a name (letters, digits, `_` and `.`).

export function hoverDocs(profile: () => Profile) {
  return hoverTooltip((view, pos) => {
    const line = view.state.doc.lineAt(pos);
    const text = line.text;
    let from = pos - line.from;
    let to = from;
    while (from > 0 && /[\w.]/.test(text[from - 1] as string)) from--;
    while (to < text.length && /[\w.]/.test(text[to] as string)) to++;
    if (from === to) return null;
    const info = describeName(text.slice(from, to), profile());
    if (!info) return null;
    return {
      pos: line.from + from,
      end: line.from + to,
      above: true,
      create: () => ({
        dom: h(
          'div',
          { class: 'cf-hover' },
          h(
            'div',
            { class: 'cf-hover-title' },
            h('code', {}, info.name),
            ' ',
            h('span', { class: 'cf-type' }, info.detail),
          ),
          info.description && h('div', {}, info.description),
          info.availability && h('div', { class: 'cf-muted' }, info.availability),
          info.deprecated && h('div', { class: 'cf-deprecated' }, info.deprecated),
          !info.allowed && h('div', { class: 'cf-warning' }, 'Not available with the chosen plan and phase.'),
        ),
      }),
    };
  });
}
