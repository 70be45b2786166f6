import type { Headers } from '../http.js';
import { type CorpusBuilder, forVersion, message } from './build.js';
import { CRAWLERS, MONITORS } from './clients.js';
import { SITES } from './sites.js';

/** Health checks, monitors and the crawlers a site lets in. */

export function monitor(corpus: CorpusBuilder): void {
  const r = corpus.random;
  const probe = r.pick(MONITORS);
  const site = r.pick(SITES);
  const path = r.pick(probe.paths);
  const method = probe.name === 'Pingdom' || probe.name === 'UptimeRobot' ? r.pick(['GET', 'HEAD']) : 'GET';
  // Probes inside the cluster speak plain HTTP to the origin; external monitors go through the edge.
  const internal = probe.name === 'kube-probe' || probe.name.includes('health');
  corpus.add(
    'monitoring',
    `${method} ${site.host}${path} (${probe.name})`,
    message({
      method,
      host: site.host,
      target: path,
      version: 'HTTP/1.1',
      headers: probe.headers(site.host),
      clientIp: internal ? r.pick(['203.0.113.250', '198.51.100.250']) : corpus.ip(),
      ...(internal ? { scheme: 'http' as const } : {}),
    }),
  );
}

export function crawl(corpus: CorpusBuilder): void {
  const r = corpus.random;
  const [, name, agent] = r.weighted(CRAWLERS.map((crawler) => [crawler[0], crawler] as const));
  const site = r.weighted(
    SITES.filter((s) => s.platform !== 'spa' && s.platform !== 'aspnet').map((s) => [s.weight, s] as const),
  );
  const target = r.weighted([
    [60, site.page(r)],
    [6, '/robots.txt'],
    [
      8,
      r.pick([
        '/sitemap.xml',
        '/sitemap_index.xml',
        '/post-sitemap.xml',
        `/sitemap_products_1.xml?from=${r.digits(13)}&to=${r.digits(13)}`,
      ]),
    ],
    [4, '/feed/'],
    [4, site.assets(r)[0]?.[0] ?? '/'],
    [3, '/favicon.ico'],
  ]);
  const preview = /facebook|Twitter|LinkedIn|Slack|Discord|WhatsApp/.test(name);
  const headers: Headers = [
    ['Host', site.host],
    ...(name.startsWith('Google') || name === 'AdsBot-Google'
      ? ([
          ['Connection', 'keep-alive'],
          ['Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
          ['From', 'googlebot(at)googlebot.com'],
          ['User-Agent', agent],
          ['Accept-Encoding', 'gzip, deflate, br'],
        ] as Headers)
      : name === 'Bingbot'
        ? ([
            ['Cache-Control', 'no-cache'],
            ['Accept', '*/*'],
            ['From', 'bingbot(at)microsoft.com'],
            ['User-Agent', agent],
            ['Accept-Encoding', 'gzip, deflate'],
          ] as Headers)
        : preview
          ? ([
              ['User-Agent', agent],
              ['Accept', '*/*'],
              ['Accept-Encoding', 'gzip, deflate'],
              ...(name === 'facebookexternalhit' ? ([['Range', 'bytes=0-524287']] as Headers) : []),
            ] as Headers)
          : ([
              ['User-Agent', agent],
              ['Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
              ['Accept-Encoding', 'gzip, deflate, br'],
              ['Accept-Language', 'en-US,en;q=0.5'],
            ] as Headers)),
    ...(r.chance(0.15) ? ([['If-Modified-Since', new Date(r.time() * 1000).toUTCString()]] as Headers) : []),
  ];
  const verified = !/Feedly|WhatsApp/.test(name);
  const version = r.chance(0.4) ? 'HTTP/2' : 'HTTP/1.1';
  corpus.add(
    'crawler',
    `GET ${site.host}${target} (${name})`,
    message({
      method: 'GET',
      host: site.host,
      target,
      version,
      headers: forVersion(version, headers),
      clientIp: corpus.ip(),
      edge: {
        verifiedBot: verified,
        ...(verified ? { verifiedBotCategory: preview ? 'Page Preview' : 'Search Engine Crawler' } : {}),
      },
    }),
  );
}
