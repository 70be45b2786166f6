/** Runs `build(directory)` on a new directory next to `root`/dist, then puts that directory in dist/'s place. */
export declare function replaceDist(root: string, build: (directory: string) => Promise<void>): Promise<void>;
