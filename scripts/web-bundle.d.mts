import type { LogLevel } from 'esbuild';

/** Bundles the browser playground (web/) into `outdir`, relative to `root` or absolute. */
export declare function bundleWeb(options: {
  root?: string;
  outdir: string;
  logLevel?: LogLevel;
}): Promise<void>;
