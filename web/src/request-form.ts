import { h, select } from './dom.js';
import { PRESETS } from './presets.js';

// The sample-request editor: the parts of a request (docs/request.md) as form fields, written back as the
// request's JSON on every change. Keys the form has no field for (cookies, fields, version…) are kept as
// they came from the preset or the link.

export interface RequestForm {
  element: HTMLElement;
  /** Fills the form from a request's JSON text (invalid JSON leaves it empty, with the text kept aside). */
  load(json: string): void;
}

const FORM_KEYS = ['method', 'url', 'headers', 'body', 'clientIp', 'edge'];

export function requestForm(onChange: (json: string) => void): RequestForm {
  let extra: Record<string, unknown> = {};
  const method = h('input', {
    id: 'req-method',
    class: 'req-method',
    'aria-label': 'Method',
    spellcheck: 'false',
  });
  const url = h('input', { id: 'req-url', class: 'req-url', 'aria-label': 'URL', spellcheck: 'false' });
  const clientIp = h('input', {
    id: 'req-ip',
    'aria-label': 'Client IP',
    spellcheck: 'false',
    placeholder: '203.0.113.7 or 2001:db8::1',
  });
  const headers = h('textarea', { id: 'req-headers', rows: 5, spellcheck: 'false', 'aria-label': 'Headers' });
  const body = h('textarea', { id: 'req-body', rows: 3, spellcheck: 'false', 'aria-label': 'Body' });
  const edge = h('textarea', {
    id: 'req-edge',
    rows: 3,
    spellcheck: 'false',
    'aria-label': 'Edge data (JSON)',
    placeholder: '{"country": "US", "asn": 64500, "botScore": 92} — the keys of docs/request.md, section 4',
  });
  const problem = h('div', { class: 'form-problem', role: 'alert' });
  const presets = select(
    { id: 'req-preset', 'aria-label': 'Preset' },
    [['', 'Presets…'], ...PRESETS.map((preset) => [preset.name, preset.label] as const)],
    '',
  );

  const write = () => {
    problem.textContent = '';
    let edgeValue: unknown;
    if (edge.value.trim() !== '') {
      try {
        edgeValue = JSON.parse(edge.value);
      } catch (error) {
        problem.textContent = `Edge data: ${(error as Error).message}`;
        return;
      }
    }
    const request: Record<string, unknown> = { ...extra, method: method.value, url: url.value };
    const lines = headers.value.split('\n').filter((line) => line.trim() !== '');
    request.headers = lines.map((line) => {
      const colon = line.indexOf(':');
      return colon < 0 ? [line.trim(), ''] : [line.slice(0, colon).trim(), line.slice(colon + 1).trimStart()];
    });
    if (body.value !== '') request.body = body.value;
    if (clientIp.value.trim() !== '') request.clientIp = clientIp.value.trim();
    if (edgeValue !== undefined) request.edge = edgeValue;
    onChange(JSON.stringify(request));
  };

  const load = (json: string) => {
    let request: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(json) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
        request = parsed as Record<string, unknown>;
    } catch {
      problem.textContent = 'The request in the link is not valid JSON; the form starts empty.';
    }
    extra = Object.fromEntries(Object.entries(request).filter(([key]) => !FORM_KEYS.includes(key)));
    method.value = typeof request.method === 'string' ? request.method : 'GET';
    url.value = typeof request.url === 'string' ? request.url : '';
    clientIp.value = typeof request.clientIp === 'string' ? request.clientIp : '';
    body.value = typeof request.body === 'string' ? request.body : '';
    headers.value = Array.isArray(request.headers)
      ? request.headers.map((pair) => (Array.isArray(pair) ? `${pair[0]}: ${pair[1] ?? ''}` : '')).join('\n')
      : '';
    edge.value = request.edge === undefined ? '' : JSON.stringify(request.edge);
  };

  presets.addEventListener('change', () => {
    const preset = PRESETS.find((candidate) => candidate.name === presets.value);
    if (!preset) return;
    load(JSON.stringify(preset.request));
    presets.value = '';
    write();
  });
  for (const input of [method, url, clientIp, headers, body, edge]) input.addEventListener('input', write);

  const row = (label: string, control: HTMLElement) =>
    h('label', { class: 'form-row' }, h('span', {}, label), control);
  const element = h(
    'section',
    { class: 'panel request-panel', 'aria-label': 'Sample request' },
    h('div', { class: 'panel-head' }, h('h2', {}, 'Sample request'), presets),
    h('div', { class: 'request-line' }, method, url),
    row('Client IP', clientIp),
    row('Headers', headers),
    row('Body', body),
    row('Edge (JSON)', edge),
    problem,
  );
  return { element, load };
}
