import type { BuildOptions, LogLevel } from 'esbuild';

export declare const bundleOptions: BuildOptions;
export declare function bundleDist(options?: { root?: string; logLevel?: LogLevel }): Promise<void>;
