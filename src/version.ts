// Kept in step with package.json by test/cli/cli.test.ts.
export const VERSION = '0.1.0';
