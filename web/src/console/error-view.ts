import { h } from '../dom.js';
import { ApiError } from './api.js';

// The API's refusals as the console shows them, in Cloudflare's envelope's terms: code, message, pointer.

/** A failure as the page shows it: each error's code and message (and where in the body it points). */
export function errorBox(error: unknown, title = 'The API refused the request'): HTMLElement {
  if (!(error instanceof ApiError))
    return h('div', { class: 'error-box', role: 'alert' }, h('strong', {}, title), ` ${String(error)}`);
  return h(
    'div',
    { class: 'error-box api-error', role: 'alert' },
    h('strong', {}, error.status ? `${title} (HTTP ${error.status})` : title),
    h(
      'ul',
      {},
      ...error.errors.map((item) =>
        h(
          'li',
          { 'data-code': item.code },
          h('code', { class: 'error-code' }, String(item.code)),
          item.source?.pointer && h('span', { class: 'muted' }, ` at ${item.source.pointer}`),
          // An expression's error quotes it with carets under the problem: keep its lines and columns.
          item.message.includes('\n') ? h('pre', { class: 'api-message' }, item.message) : ` ${item.message}`,
          ...(item.error_chain ?? []).map((chained) =>
            h('div', { class: 'muted' }, `${chained.code}: ${chained.message}`),
          ),
        ),
      ),
    ),
  );
}
