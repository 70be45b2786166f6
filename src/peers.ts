// The service's packages — Fastify, better-sqlite3, pg, PGlite and yaml — are optional peer dependencies: a user of the
// library (`npm install cfrules` to validate expressions) does not need them, and better-sqlite3 compiles a
// native addon. They are loaded here, on first use and never at import time, so that importing a module
// that may use them costs nothing (every CLI command but `serve` starts without them: issue 16), and so that
// a missing one is reported as what to install rather than as Node's "Cannot find package".
//
// Each can be loaded with `require` (PGlite through its CommonJS build): synchronously, and also from the
// CLI's code cache, where a dynamic import cannot load a package.
import { createRequire } from 'node:module';

export type Peer = 'fastify' | 'better-sqlite3' | 'pg' | '@electric-sql/pglite' | 'yaml';

/** What needs each peer, and the command that installs what that needs. */
const SERVICE = {
  needs: 'cfrules serve and cfrules/server need fastify and better-sqlite3',
  install: 'npm install fastify better-sqlite3',
};
const USES: Record<Peer, { needs: string; install: string }> = {
  fastify: SERVICE,
  'better-sqlite3': SERVICE,
  '@electric-sql/pglite': {
    needs: 'pglite: databases (PostgreSQL in-process) need @electric-sql/pglite',
    install: 'npm install @electric-sql/pglite',
  },
  pg: {
    needs: 'cfrules serve --database postgres://… (and export, migrate with a PostgreSQL database) need pg',
    install: 'npm install pg',
  },
  yaml: {
    needs: 'YAML files (cfrules serve --config, zone and test files, export zone -o FILE.yaml) need yaml',
    install: 'npm install yaml',
  },
};

/** A peer dependency that is not installed; the message says what to install. */
export class MissingPeerError extends Error {
  constructor(readonly peer: Peer) {
    super(`${USES[peer].needs} (${peer} is not installed): ${USES[peer].install}`);
    this.name = 'MissingPeerError';
  }
}

const require = createRequire(import.meta.url);

/**
 * Loads a peer dependency (cached by Node after the first call). Throws MissingPeerError when the package
 * itself cannot be found; any other failure (a package of its own missing, a native addon built for
 * another Node) is rethrown as it is, since installing the peer again would not be the fix.
 */
export function requirePeer<T>(peer: Peer): T {
  try {
    return require(peer) as T;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'MODULE_NOT_FOUND' && message.startsWith(`Cannot find module '${peer}'`)) {
      throw new MissingPeerError(peer);
    }
    throw error;
  }
}

/** Loads the service's packages, so that a missing one is reported before anything starts. */
export function requireServicePeers(): void {
  requirePeer('fastify');
  requirePeer('better-sqlite3');
}
