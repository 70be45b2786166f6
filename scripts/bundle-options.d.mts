import type { BuildOptions, LogLevel } from 'esbuild';

export declare const bundleOptions: BuildOptions;
/** `outdir`: the new directory to bundle into, relative to `root` or absolute. */
export declare function bundleDist(options: {
  root?: string;
  outdir: string;
  logLevel?: LogLevel;
}): Promise<void>;
