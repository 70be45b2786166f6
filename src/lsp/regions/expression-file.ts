import { stripFinalNewline } from '../../cli/files.js';
import { looksLikeRuleFile } from '../../cli/inputs.js';
import { readRuleFile } from '../../cli/rule-files.js';
import { plainRegion, type Region, type RegionFinder } from './region.js';

// A .cfrules file, read as the CLI reads a file of expressions (src/cli/inputs.ts): one expression per line
// when it has `#` comment lines or every line parses alone, else the whole text as one expression (which
// may span lines). A file of several expressions with a line being edited stays one per line as long as it
// has a `#` comment line (docs/editors.md).

export const expressionFileFinder: RegionFinder = {
  name: 'expression file',
  accepts: ({ uri, languageId }) => languageId === 'cfrules' || /\.cfrules$/i.test(uri),
  find(text) {
    const bom = text.startsWith('\uFEFF') ? 1 : 0;
    if (looksLikeRuleFile(text.slice(bom))) {
      // Read as a text file whatever its first character (a line being typed may start with `{`): one entry
      // per expression line, never a throw.
      const regions: Region[] = readRuleFile('', undefined, text, true).flatMap((entry) =>
        entry.written ? [plainRegion(entry.expression, entry.written.start, 'filter')] : [],
      );
      return { regions, problems: [] };
    }
    const expression = stripFinalNewline(text.slice(bom));
    return { regions: [plainRegion(expression, bom, 'filter')], problems: [] };
  },
};
