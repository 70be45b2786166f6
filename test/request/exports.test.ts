// docs/request.md §9 lists the sample-request API the package offers: every name it lists must be exported
// by the library's entry point (src/index.ts), or the page promises what users cannot import.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as library from '../../src/index.js';

/** The names of the code block of §9: functions (`name(`) and the constants listed on their own. */
function documentedNames(): string[] {
  const page = readFileSync(new URL('../../docs/request.md', import.meta.url), 'utf8');
  const section = /^## 9\. Library API\n([\s\S]*?)^## /m.exec(page)?.[1] ?? '';
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const names = new Set<string>();
  for (const line of block.split('\n')) {
    const code = line.replace(/\/\/.*$/, '').trim();
    const call = /^(\w+)\(/.exec(code);
    if (call) names.add(call[1]);
    else if (/^[A-Z_]+(?:,\s*[A-Z_]+)*$/.test(code)) for (const name of code.split(/,\s*/)) names.add(name);
  }
  return [...names];
}

describe('docs/request.md §9', () => {
  it('lists only names the package exports', () => {
    const names = documentedNames();
    // The block's functions and constants, so that a change of the page's layout cannot empty the test.
    expect(names).toEqual(
      expect.arrayContaining(['readSampleRequest', 'fieldValue', 'fieldDeriver', 'DEFAULT_BODY_LIMIT']),
    );
    expect(names.length).toBeGreaterThanOrEqual(8);
    const missing = names.filter((name) => !(name in library));
    expect(missing).toEqual([]);
  });
});
