import { readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * Builds a new dist/ aside and swaps it in, so that a `cfrules` command started during a build (`npm test`
 * rebuilds the CLI in its global setup, `npm run build` the whole of dist/) finds either the old tree or
 * the new one, each complete, never a tree being written (issue 23).
 *
 * `build(directory)` writes the new tree into `dist.next-PID`, next to dist/ (the same file system, so
 * that renames are possible); then dist/ is renamed to `dist.old-PID`, the new tree to dist/, and the old
 * one removed. Node has no atomic exchange of two directories: between the two renames, a few
 * microseconds, dist/ is missing. A failed build leaves dist/ as it was.
 *
 * Two builds of the same checkout at once (two test runs) each build their own tree; when the other's tree
 * lands between our two renames, it is moved aside in turn: the build that swaps last wins.
 */
export async function replaceDist(root, build) {
  const dist = join(resolve(root), 'dist');
  const next = `${dist}.next-${process.pid}`;
  const old = `${dist}.old-${process.pid}`;
  removeLeftovers(dist);
  rmSync(next, { recursive: true, force: true });
  try {
    await build(next);
    swap(dist, next, old);
  } finally {
    rmSync(next, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
}

function swap(dist, next, old) {
  for (let attempt = 0; ; attempt++) {
    try {
      renameSync(dist, old);
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
    try {
      renameSync(next, dist);
      return;
    } catch (error) {
      // Another build put its tree in place between our two renames: take our turn again, a few times.
      if ((error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') || attempt >= 5) throw error;
      rmSync(old, { recursive: true, force: true });
    }
  }
}

/** Trees of builds that were killed before they finished (their process is gone): nobody else removes them. */
function removeLeftovers(dist) {
  const prefix = `${basename(dist)}.`;
  for (const name of readdirSync(dirname(dist))) {
    const match = /^(?:next|old)-(\d+)$/.exec(name.startsWith(prefix) ? name.slice(prefix.length) : '');
    if (match && !isRunning(Number(match[1])))
      rmSync(join(dirname(dist), name), { recursive: true, force: true });
  }
}

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
