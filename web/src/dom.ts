// Building the page's elements. Text always goes in as text nodes (never as HTML), so that expressions,
// requests, zone files and library messages shown on the page cannot inject markup.

type Child = Node | string | number | false | null | undefined;
type Attributes = Record<string, string | number | boolean | undefined | EventListener>;

/** `<tag attrs>children</tag>`: attributes `on…` with a function are listeners, the others attributes. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** Replaces the children of `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** A `<select>` of `options` (value, label), with `selected` chosen. */
export function select(
  attributes: Attributes,
  options: readonly (readonly [string, string])[],
  selected: string,
): HTMLSelectElement {
  const element = h('select', attributes);
  for (const [value, label] of options)
    element.append(h('option', { value, selected: value === selected }, label));
  return element;
}
