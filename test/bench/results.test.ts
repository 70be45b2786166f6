// bench/RESULTS.md keeps one section per benchmark, whatever the reports contain.
import { describe, expect, it } from 'vitest';
import { withSection } from '../../bench/results.js';

const file =
  '# Benchmark results\n\nintro\n\n## Parse (bench/parse.ts)\n\nold parse\n\n## Regex (bench/regex.ts)\n\nold regex\n';

describe('withSection', () => {
  it('replaces the section of the same title and keeps the others', () => {
    const updated = withSection(file, '## Parse (bench/parse.ts)\n\nnew parse\n');
    expect(updated).toBe(
      '# Benchmark results\n\nintro\n\n## Parse (bench/parse.ts)\n\nnew parse\n\n## Regex (bench/regex.ts)\n\nold regex\n',
    );
  });

  it('appends a new section', () => {
    expect(withSection(file, '## API (bench/api.ts)\n\nfigures\n')).toBe(
      `${file.trimEnd()}\n\n## API (bench/api.ts)\n\nfigures\n`,
    );
  });

  it('copies a report with $ signs literally (a pattern such as `^(a|a)*b$` once duplicated the file)', () => {
    const report = "## Regex (bench/regex.ts)\n\n| `^(a|a)*b$` | `$&` | `$'` |\n";
    const updated = withSection(file, report);
    expect(updated).toBe(
      `# Benchmark results\n\nintro\n\n## Parse (bench/parse.ts)\n\nold parse\n\n${report}`,
    );
    expect(updated.match(/^## /gm)).toHaveLength(2);
  });
});
