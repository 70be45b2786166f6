// Types of ./code-cache.js (CommonJS), for the tests (test/cli/code-cache.test.ts).
export declare const OFF: 'off';
export declare function cacheDirectory(
  env?: NodeJS.ProcessEnv,
  platform?: NodeJS.Platform,
  home?: () => string | undefined,
): string | null;
export interface Build {
  version: string;
  hash: string;
}
export declare function buildPrefix(build: Build): string;
export declare function cacheFile(dir: string, build: Build, firstArgument: string | undefined): string;
export declare function readCache(file: string): Buffer | undefined;
export declare function writeCache(file: string, build: Build, data: Buffer): Error | undefined;
export declare function setRegExpFlags(): void;
export declare function compileScript(
  source: string,
  path: string,
  cachedData: Buffer | undefined,
): { script: import('node:vm').Script; state: 'used' | 'missing' | 'rejected' };
export declare function runCompiledScript(script: import('node:vm').Script, path: string): unknown;
export declare function writeCacheFile(file: string, data: Buffer): Error | undefined;
