// Plain SVG charts of a replay: horizontal bars (final actions, rules by matches or decisions) and columns
// along the log. Every label goes in as text (textContent), and colours come from the style sheet's classes,
// so that the page's Content-Security-Policy needs no inline style.

const SVG = 'http://www.w3.org/2000/svg';

type Attributes = Record<string, string | number>;

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Attributes,
  text?: string,
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/** `text` cut to `max` characters, with an ellipsis. */
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export interface Bar {
  label: string;
  value: number;
  /** A class suffix for the bar's colour (`bar-block`…). */
  kind?: string;
  /** What hovering the bar says (the whole label by default). */
  title?: string;
}

const WIDTH = 560;
const LABEL = 210;
const ROW = 24;

/** Horizontal bars, longest first as given; `label` names the chart for assistive technology. */
export function barChart(label: string, bars: readonly Bar[]): SVGSVGElement {
  const height = Math.max(1, bars.length) * ROW + 8;
  const chart = svg('svg', {
    class: 'chart bar-chart',
    viewBox: `0 0 ${WIDTH} ${height}`,
    width: WIDTH,
    height,
    role: 'img',
    'aria-label': label,
  });
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const room = WIDTH - LABEL - 60;
  bars.forEach((bar, index) => {
    const y = 4 + index * ROW;
    const group = svg('g', { class: 'chart-row' });
    group.append(
      svg('title', {}, `${bar.title ?? bar.label}: ${bar.value}`),
      svg(
        'text',
        { x: LABEL - 8, y: y + 15, class: 'chart-label', 'text-anchor': 'end' },
        cut(bar.label, 30),
      ),
      svg('rect', {
        x: LABEL,
        y: y + 3,
        width: Math.max(bar.value > 0 ? 2 : 0, (bar.value / max) * room),
        height: ROW - 8,
        rx: 3,
        class: `bar bar-${bar.kind ?? 'default'}`,
      }),
      svg(
        'text',
        { x: LABEL + (bar.value / max) * room + 6, y: y + 15, class: 'chart-value' },
        bar.value.toLocaleString('en'),
      ),
    );
    chart.append(group);
  });
  if (bars.length === 0) chart.append(svg('text', { x: 8, y: 18, class: 'chart-label' }, 'nothing to show'));
  return chart;
}

export interface Column {
  /** The stretch's name, e.g. `lines 1–20`. */
  label: string;
  total: number;
  /** Parts of `total`, drawn over each other from the first (largest) to the last. */
  parts: { value: number; kind: string; name: string }[];
}

/** Columns along an axis (the log), each a total with its parts drawn over it; a legend below. */
export function columnChart(
  label: string,
  columns: readonly Column[],
  axis: [string, string],
): SVGSVGElement {
  const height = 190;
  const plot = { left: 44, right: WIDTH - 8, top: 8, bottom: 150 };
  const chart = svg('svg', {
    class: 'chart column-chart',
    viewBox: `0 0 ${WIDTH} ${height}`,
    width: WIDTH,
    height,
    role: 'img',
    'aria-label': label,
  });
  const max = Math.max(1, ...columns.map((column) => column.total));
  const step = (plot.right - plot.left) / Math.max(1, columns.length);
  const y = (value: number) => plot.bottom - (value / max) * (plot.bottom - plot.top);
  chart.append(
    svg('line', { x1: plot.left, x2: plot.right, y1: plot.bottom, y2: plot.bottom, class: 'chart-axis' }),
    svg(
      'text',
      { x: plot.left - 6, y: plot.top + 10, class: 'chart-value', 'text-anchor': 'end' },
      String(max),
    ),
    svg('text', { x: plot.left - 6, y: plot.bottom, class: 'chart-value', 'text-anchor': 'end' }, '0'),
    svg('text', { x: plot.left, y: plot.bottom + 16, class: 'chart-label' }, axis[0]),
    svg('text', { x: plot.right, y: plot.bottom + 16, class: 'chart-label', 'text-anchor': 'end' }, axis[1]),
  );
  columns.forEach((column, index) => {
    const x = plot.left + index * step + 1;
    const group = svg('g', { class: 'chart-column' });
    group.append(
      svg(
        'title',
        {},
        `${column.label}: ${column.total} requests${column.parts.map((part) => `, ${part.value} ${part.name}`).join('')}`,
      ),
      svg('rect', {
        x,
        y: y(column.total),
        width: Math.max(1, step - 2),
        height: plot.bottom - y(column.total),
        class: 'bar bar-total',
      }),
    );
    for (const part of column.parts)
      group.append(
        svg('rect', {
          x,
          y: y(part.value),
          width: Math.max(1, step - 2),
          height: plot.bottom - y(part.value),
          class: `bar bar-${part.kind}`,
        }),
      );
    chart.append(group);
  });
  const legend = [['total', 'requests'], ...(columns[0]?.parts.map((part) => [part.kind, part.name]) ?? [])];
  legend.forEach(([kind, name], index) => {
    const x = plot.left + index * 150;
    chart.append(
      svg('rect', { x, y: height - 16, width: 10, height: 10, class: `bar bar-${kind}` }),
      svg('text', { x: x + 14, y: height - 7, class: 'chart-label' }, name as string),
    );
  });
  return chart;
}
