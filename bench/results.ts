import { readFileSync, writeFileSync } from 'node:fs';

const PATH = 'bench/RESULTS.md';
const HEADER =
  "# Benchmark results\n\nRatios compare with figures measured in the same run, or with the reference engine's figures in bench/workload.json (2 vCPU Xeon VM, wirefilter release build).\n\n";

/**
 * Puts a benchmark's report (which starts with its `## Title` line) into bench/RESULTS.md, replacing the
 * section of the same title, when the command line has `--write`; prints it in any case.
 */
export function publish(report: string): void {
  console.log(report);
  if (!process.argv.includes('--write')) return;
  let results: string;
  try {
    results = readFileSync(PATH, 'utf8');
  } catch {
    results = HEADER;
  }
  writeFileSync(PATH, withSection(results, report));
  console.log(`updated ${PATH}`);
}

/** The results with the report's section (same `## Title` line) replaced, or appended when new. */
export function withSection(results: string, report: string): string {
  const title = report.slice(0, report.indexOf('\n'));
  const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const section = new RegExp(`${escaped}[\\s\\S]*?(?=\\n## |$)`);
  // A function, not a string: reports hold regexes such as `^(a|a)*b$`, and "$`" in a replacement string
  // would insert the text before the match.
  return section.test(results) ? results.replace(section, () => report) : `${results.trimEnd()}\n\n${report}`;
}
