import { readFileSync, writeFileSync } from 'node:fs';

const PATH = 'bench/RESULTS.md';
const HEADER =
  "# Benchmark results\n\nRatios compare with figures measured in the same run, or with the reference engine's figures in ../shared/bench/workload.json (2 vCPU Xeon VM, wirefilter release build).\n\n";

/**
 * Puts a benchmark's report (which starts with its `## Title` line) into bench/RESULTS.md, replacing the
 * section of the same title, when the command line has `--write`; prints it in any case.
 */
export function publish(report: string): void {
  console.log(report);
  if (!process.argv.includes('--write')) return;
  const title = report.slice(0, report.indexOf('\n'));
  let results: string;
  try {
    results = readFileSync(PATH, 'utf8');
  } catch {
    results = HEADER;
  }
  const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const section = new RegExp(`${escaped}[\\s\\S]*?(?=\\n## |$)`);
  results = section.test(results) ? results.replace(section, report) : `${results.trimEnd()}\n\n${report}`;
  writeFileSync(PATH, results);
  console.log(`updated ${PATH}`);
}
