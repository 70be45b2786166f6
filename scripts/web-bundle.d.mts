import type { LogLevel, Metafile } from 'esbuild';

/**
 * Bundles the browser playground (web/) into `outdir`, relative to `root` or absolute; resolves with
 * esbuild's metafile (what each output is made of).
 */
export declare function bundleWeb(options: {
  root?: string;
  outdir: string;
  logLevel?: LogLevel;
}): Promise<Metafile>;
