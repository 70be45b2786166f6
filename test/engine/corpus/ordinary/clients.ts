import type { Headers } from '../http.js';
import { TOP_USER_AGENTS } from './data/user-agents.js';
import type { Random } from './random.js';

/**
 * The clients of ordinary traffic and the headers each sends: browsers (by family, with the header sets,
 * order and client hints they really send), apps, crawlers, monitors and command-line tools.
 */

export type Version = 'HTTP/1.1' | 'HTTP/2' | 'HTTP/3';

export type Family = 'chrome' | 'edge' | 'opera' | 'yandex' | 'samsung' | 'firefox' | 'safari' | 'chrome-ios';

export interface Browser {
  readonly userAgent: string;
  readonly family: Family;
  /** The major version, as client hints give it. */
  readonly major: string;
  readonly mobile: boolean;
  /** `Sec-CH-UA-Platform`'s value, quotes included. */
  readonly platform: string;
}

function browserOf(userAgent: string): Browser | undefined {
  const version = (pattern: RegExp) => pattern.exec(userAgent)?.[1] ?? '';
  const mobile = /Mobile|iPhone|Android/.test(userAgent);
  const platform = userAgent.includes('Windows')
    ? '"Windows"'
    : userAgent.includes('Android')
      ? '"Android"'
      : userAgent.includes('CrOS')
        ? '"Chrome OS"'
        : userAgent.includes('Macintosh')
          ? '"macOS"'
          : userAgent.includes('iPhone')
            ? '"iOS"'
            : '"Linux"';
  const chrome = version(/Chrome\/(\d+)/);
  if (userAgent.includes('CriOS/'))
    return { userAgent, family: 'chrome-ios', major: version(/CriOS\/(\d+)/), mobile, platform };
  if (userAgent.includes('Firefox/'))
    return { userAgent, family: 'firefox', major: version(/Firefox\/(\d+)/), mobile, platform };
  if (userAgent.includes(' Edg/')) return { userAgent, family: 'edge', major: chrome, mobile, platform };
  if (userAgent.includes(' OPR/')) return { userAgent, family: 'opera', major: chrome, mobile, platform };
  if (userAgent.includes('YaBrowser/'))
    return { userAgent, family: 'yandex', major: chrome, mobile, platform };
  if (userAgent.includes('SamsungBrowser/'))
    return { userAgent, family: 'samsung', major: chrome, mobile, platform };
  // Electron apps and user agents cut short are not browsers a visitor uses.
  if (userAgent.includes('Electron/')) return undefined;
  if (chrome && userAgent.includes('Safari/537.36'))
    return { userAgent, family: 'chrome', major: chrome, mobile, platform };
  if (userAgent.includes('Version/') && userAgent.includes('Safari/'))
    return { userAgent, family: 'safari', major: version(/Version\/(\d+)/), mobile, platform };
  return undefined;
}

/** The browsers of the top user agents, weighted by rank (the list is most common first). */
export const BROWSERS: readonly (readonly [number, Browser])[] = TOP_USER_AGENTS.flatMap((ua, rank) => {
  const browser = browserOf(ua);
  return browser ? [[100 / (rank + 10), browser] as const] : [];
});

/** A browser family's share of the top list is not a site's: mobile traffic is about half of it. */
export function pickBrowser(random: Random, mobile?: boolean): Browser {
  const wantMobile = mobile ?? random.chance(0.45);
  return random.weighted(BROWSERS.filter(([, browser]) => browser.mobile === wantMobile));
}

const GREASE = [
  '"Not_A Brand";v="8"',
  '"Not-A.Brand";v="99"',
  '"Not/A)Brand";v="8"',
  '"Not A(Brand";v="99"',
  '"Not)A;Brand";v="99"',
  '"Not.A/Brand";v="8"',
  '"Not;A=Brand";v="24"',
];

const BRAND: Partial<Record<Family, string>> = {
  chrome: 'Google Chrome',
  edge: 'Microsoft Edge',
  opera: 'Opera',
  yandex: 'YaBrowser',
  samsung: 'Samsung Internet',
};

/** Whether the browser sends client hints and Sec-Fetch-* (Chromium browsers); Safari and Firefox send Sec-Fetch-* only. */
const chromium = (browser: Browser) => BRAND[browser.family] !== undefined;

/** `Sec-CH-UA` as Chromium writes it: three brands in an order that varies with the version. */
export function secChUa(browser: Browser): string {
  const major = Number(browser.major);
  const grease = GREASE[major % GREASE.length] as string;
  const brand = `"${BRAND[browser.family]}";v="${browser.family === 'chrome' ? major : major - (browser.family === 'opera' ? 15 : 0)}"`;
  const brands = [`"Chromium";v="${major}"`, brand, grease];
  const order = major % 3;
  return (order === 0 ? brands : order === 1 ? [grease, brands[0], brand] : [brand, brands[0], grease]).join(
    ', ',
  );
}

export const LANGUAGES: readonly (readonly [number, string])[] = [
  [30, 'en-US,en;q=0.9'],
  [8, 'en-GB,en-US;q=0.9,en;q=0.8'],
  [8, 'de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7'],
  [6, 'fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7'],
  [5, 'es-ES,es;q=0.9'],
  [4, 'pt-BR,pt;q=0.9,en-US;q=0.8,en;q=0.7'],
  [3, 'ja,en-US;q=0.9,en;q=0.8'],
  [3, 'zh-CN,zh;q=0.9,en;q=0.8'],
  [2, 'nl-NL,nl;q=0.9,en-US;q=0.8,en;q=0.7'],
  [2, 'it-IT,it;q=0.9,en-US;q=0.8,en;q=0.7'],
  [2, 'pl-PL,pl;q=0.9,en-US;q=0.8,en;q=0.7'],
  [2, 'tr-TR,tr;q=0.9,en-US;q=0.8,en;q=0.7'],
  [2, 'ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7'],
  [1, 'ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7'],
  [1, 'ar,en-US;q=0.9,en;q=0.8'],
  [1, 'hi-IN,hi;q=0.9,en-IN;q=0.8,en;q=0.7'],
  [1, 'sv-SE,sv;q=0.9,en-US;q=0.8,en;q=0.7'],
  [1, 'en-US'],
];

/** Firefox weighs languages in steps of its own. */
function firefoxLanguage(language: string): string {
  const tags = language.split(',').map((tag) => tag.split(';')[0] as string);
  if (tags.length === 1) return tags[0] as string;
  const step = tags.length === 2 ? 0.5 : 0.3;
  return tags.map((tag, i) => (i === 0 ? tag : `${tag};q=${(1 - step * i).toFixed(1)}`)).join(',');
}

export type Dest = 'document' | 'script' | 'style' | 'image' | 'font' | 'empty' | 'video' | 'manifest';
export type FetchSite = 'none' | 'same-origin' | 'same-site' | 'cross-site';

export interface BrowserRequest {
  readonly browser: Browser;
  readonly language: string;
  readonly version: Version;
  readonly dest: Dest;
  readonly site: FetchSite;
  readonly referer?: string;
  /** Sent by fetch() with CORS and by font loads. */
  readonly origin?: string;
  readonly cookie?: string;
  /** Headers the page's script adds to a fetch (Content-Type, X-CSRF-Token, Authorization…). */
  readonly extra?: Headers;
  /** A reload (`Cache-Control: max-age=0`) or a conditional request. */
  readonly ifNoneMatch?: string;
  readonly ifModifiedSince?: string;
  readonly range?: string;
  /** Accept of a fetch(); `*\/*` by default. */
  readonly accept?: string;
  readonly reload?: boolean;
  /** Whether the user clicked (Sec-Fetch-User). */
  readonly user?: boolean;
}

const CHROME_DOCUMENT_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';
const FIREFOX_DOCUMENT_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/png,image/svg+xml,*/*;q=0.8';
const SAFARI_DOCUMENT_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

function acceptOf(request: BrowserRequest): string {
  const { browser, dest } = request;
  const safari = browser.family === 'safari' || browser.family === 'chrome-ios';
  switch (dest) {
    case 'document':
      return chromium(browser)
        ? CHROME_DOCUMENT_ACCEPT
        : browser.family === 'firefox'
          ? FIREFOX_DOCUMENT_ACCEPT
          : SAFARI_DOCUMENT_ACCEPT;
    case 'style':
      return 'text/css,*/*;q=0.1';
    case 'image':
      return chromium(browser)
        ? 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8'
        : safari
          ? 'image/webp,image/avif,image/jxl,image/heic,image/heic-sequence,video/*;q=0.8,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5'
          : 'image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5';
    case 'font':
      return browser.family === 'firefox'
        ? 'application/font-woff2;q=1.0,application/font-woff;q=0.9,*/*;q=0.8'
        : '*/*';
    case 'manifest':
      return '*/*';
    default:
      return request.accept ?? '*/*';
  }
}

function encodingOf(request: BrowserRequest): string {
  if (request.dest === 'video') return 'identity;q=1, *;q=0';
  const { browser } = request;
  if (browser.family === 'safari' || browser.family === 'chrome-ios') return 'gzip, deflate, br';
  return Number(browser.major) >= 123 || browser.family === 'firefox'
    ? 'gzip, deflate, br, zstd'
    : 'gzip, deflate, br';
}

const modeOf = (request: BrowserRequest): string =>
  request.dest === 'document'
    ? 'navigate'
    : request.dest === 'font' || (request.dest === 'empty' && request.origin !== undefined)
      ? 'cors'
      : request.dest === 'empty'
        ? 'cors'
        : 'no-cors';

const priorityOf = (dest: Dest): string | undefined =>
  dest === 'document'
    ? 'u=0, i'
    : dest === 'style'
      ? 'u=0'
      : dest === 'image'
        ? 'u=1, i'
        : dest === 'font'
          ? 'u=0'
          : 'u=1';

/** A browser's request headers, in its order; lower-case names over HTTP/2 and HTTP/3. */
export function browserHeaders(host: string, request: BrowserRequest): Headers {
  const { browser, dest } = request;
  const h: Headers = [];
  const add = (name: string, value: string | undefined) => {
    if (value !== undefined) h.push([name, value]);
  };
  const document = dest === 'document';
  const secFetch = () => {
    add('Sec-Fetch-Site', request.site);
    add('Sec-Fetch-Mode', modeOf(request));
    if (document && request.user !== false) add('Sec-Fetch-User', '?1');
    add('Sec-Fetch-Dest', dest);
  };
  add('Host', host);
  if (chromium(browser)) {
    if (request.reload && document) add('Cache-Control', 'max-age=0');
    if (dest === 'empty' || document) {
      add('sec-ch-ua', secChUa(browser));
      add('sec-ch-ua-mobile', browser.mobile ? '?1' : '?0');
      add('sec-ch-ua-platform', browser.platform);
    }
    if (document) add('Upgrade-Insecure-Requests', '1');
    for (const header of request.extra ?? []) h.push(header);
    add('User-Agent', browser.userAgent);
    add('Accept', acceptOf(request));
    add('Origin', request.origin);
    secFetch();
    add('Referer', request.referer);
    add('Accept-Encoding', encodingOf(request));
    add('Accept-Language', request.language);
    add('Cookie', request.cookie);
    add('If-None-Match', request.ifNoneMatch);
    add('If-Modified-Since', request.ifModifiedSince);
    add('Range', request.range);
    if (request.version !== 'HTTP/1.1') add('Priority', priorityOf(dest));
  } else if (browser.family === 'firefox') {
    add('User-Agent', browser.userAgent);
    add('Accept', acceptOf(request));
    add('Accept-Language', firefoxLanguage(request.language));
    add('Accept-Encoding', encodingOf(request));
    add('Range', request.range);
    for (const header of request.extra ?? []) h.push(header);
    add('Origin', request.origin);
    if (request.version === 'HTTP/1.1') add('Connection', 'keep-alive');
    add('Referer', request.referer);
    add('Cookie', request.cookie);
    if (document) add('Upgrade-Insecure-Requests', '1');
    secFetch();
    add('If-Modified-Since', request.ifModifiedSince);
    add('If-None-Match', request.ifNoneMatch);
    if (request.version !== 'HTTP/1.1') add('Priority', priorityOf(dest));
    if (request.reload && document) add('Cache-Control', 'max-age=0');
    if (request.version === 'HTTP/2') add('TE', 'trailers');
  } else {
    // Safari (and every browser on iOS, which is WebKit).
    add('Accept', acceptOf(request));
    for (const header of request.extra ?? []) h.push(header);
    add('Sec-Fetch-Site', request.site);
    add('Origin', request.origin);
    add('Cookie', request.cookie);
    add('Sec-Fetch-Dest', dest);
    add(
      'Accept-Language',
      request.language
        .split(',')
        .slice(0, 2)
        .join(',')
        .replace(/q=0\.\d$/, 'q=0.9'),
    );
    add('Sec-Fetch-Mode', modeOf(request));
    add('User-Agent', browser.userAgent);
    add('Range', request.range);
    add('Referer', request.referer);
    add('Accept-Encoding', encodingOf(request));
    add('If-None-Match', request.ifNoneMatch);
    add('If-Modified-Since', request.ifModifiedSince);
    if (request.version !== 'HTTP/1.1') add('Priority', priorityOf(dest));
    if (request.version === 'HTTP/1.1') add('Connection', 'keep-alive');
  }
  return request.version === 'HTTP/1.1' ? h : lowerCase(h);
}

/** Header names as HTTP/2 and HTTP/3 clients must send them. */
export const lowerCase = (headers: Headers): Headers =>
  headers.map(([name, value]): [string, string] => [name.toLowerCase(), value]);

/** How browsers reach a site behind Cloudflare: HTTP/2 mostly, HTTP/3 often, HTTP/1.1 rarely. */
export const browserVersion = (random: Random): Version =>
  random.weighted([
    [62, 'HTTP/2'],
    [30, 'HTTP/3'],
    [8, 'HTTP/1.1'],
  ] as const);

/** User agents of software that is not a browser, by what it is. */
export const APP_AGENTS = {
  android: [
    'okhttp/4.12.0',
    'okhttp/4.9.3',
    'okhttp/3.14.9',
    'Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/AP1A.240405.002)',
    'Dalvik/2.1.0 (Linux; U; Android 13; SM-A536B Build/TP1A.220624.014)',
    'ShopApp/5.2.1 (com.example.shop; build:5210; Android 14) okhttp/4.12.0',
    'Dart/3.3 (dart:io)',
  ],
  ios: [
    'ShopApp/5.2.1 CFNetwork/1494.0.7 Darwin/23.4.0',
    'ShopApp/5.1.0 CFNetwork/1410.1 Darwin/22.6.0',
    'News/812 CFNetwork/1496.0.7 Darwin/23.5.0',
    'ShopApp/5.2.1 (com.example.shop; build:812; iOS 17.4.1) Alamofire/5.9.1',
    'Example%20Tasks/3.4 CFNetwork/1490.0.4 Darwin/23.2.0',
  ],
} as const;

export const CLI_AGENTS: readonly (readonly [number, string])[] = [
  [6, 'curl/8.7.1'],
  [4, 'curl/7.81.0'],
  [3, 'curl/8.5.0'],
  [5, 'python-requests/2.31.0'],
  [2, 'python-requests/2.32.3'],
  [2, 'HTTPie/3.2.2'],
  [3, 'PostmanRuntime/7.37.3'],
  [2, 'axios/1.6.8'],
  [2, 'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)'],
  [2, 'Go-http-client/2.0'],
  [1, 'insomnia/8.6.1'],
  [1, 'Wget/1.21.4'],
  [1, 'Python/3.11 aiohttp/3.9.5'],
  [1, 'Ruby'],
  [1, 'Java/17.0.10'],
  [1, 'Terraform/1.8.2 (+https://www.terraform.io) terraform-provider-example/2.3.0'],
];

/** Crawlers a site lets in, with the user agents their owners document. */
export const CRAWLERS: readonly (readonly [number, string, string])[] = [
  [20, 'Googlebot', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
  [
    20,
    'Googlebot smartphone',
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.118 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  ],
  [4, 'Googlebot-Image', 'Googlebot-Image/1.0'],
  [
    12,
    'Bingbot',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36',
  ],
  [
    4,
    'Applebot',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
  ],
  [3, 'DuckDuckBot', 'DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)'],
  [3, 'YandexBot', 'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)'],
  [4, 'facebookexternalhit', 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)'],
  [2, 'Twitterbot', 'Twitterbot/1.0'],
  [2, 'LinkedInBot', 'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)'],
  [2, 'Slackbot', 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'],
  [2, 'Discordbot', 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)'],
  [1, 'WhatsApp', 'WhatsApp/2.23.20.0'],
  [2, 'AdsBot-Google', 'AdsBot-Google (+http://www.google.com/adsbot.html)'],
  [2, 'Google-InspectionTool', 'Mozilla/5.0 (compatible; Google-InspectionTool/1.0;)'],
  [2, 'Feedly', 'Feedly/1.0 (+http://www.feedly.com/fetcher.html; 12 subscribers; )'],
];

/** Health checks and monitors, with the headers they send. */
export const MONITORS: readonly {
  name: string;
  headers: (host: string) => Headers;
  paths: readonly string[];
}[] = [
  {
    name: 'kube-probe',
    headers: (host) => [
      ['Host', host],
      ['User-Agent', 'kube-probe/1.29'],
      ['Accept', '*/*'],
      ['Connection', 'close'],
    ],
    paths: ['/healthz', '/readyz', '/livez', '/health/ready'],
  },
  {
    name: 'ELB health checker',
    headers: (host) => [
      ['Host', host],
      ['Connection', 'close'],
      ['User-Agent', 'ELB-HealthChecker/2.0'],
      ['Accept-Encoding', 'gzip, compressed'],
    ],
    paths: ['/health', '/'],
  },
  {
    name: 'Google health check',
    headers: (host) => [
      ['Host', host],
      ['User-Agent', 'GoogleHC/1.0'],
      ['Connection', 'Keep-alive'],
    ],
    paths: ['/healthz', '/'],
  },
  {
    name: 'Datadog synthetics',
    headers: (host) => [
      ['Host', host],
      ['User-Agent', 'Datadog/Synthetics'],
      ['Accept', '*/*'],
      ['Accept-Encoding', 'gzip, deflate'],
      ['x-datadog-origin', 'synthetics'],
      ['x-datadog-trace-id', '5027460357478291923'],
      ['x-datadog-parent-id', '0'],
      ['x-datadog-sampling-priority', '1'],
    ],
    paths: ['/', '/api/v1/status', '/login', '/checkout/health'],
  },
  {
    name: 'Pingdom',
    headers: (host) => [
      ['Host', host],
      ['User-Agent', 'Pingdom.com_bot_version_1.4_(http://www.pingdom.com/)'],
      ['Accept', '*/*'],
    ],
    paths: ['/', '/status', '/ping'],
  },
  {
    name: 'UptimeRobot',
    headers: (host) => [
      ['Host', host],
      ['User-Agent', 'Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)'],
      ['Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
      ['Accept-Language', 'en-US,en;q=0.8'],
      ['Cache-Control', 'no-cache'],
    ],
    paths: ['/', '/api/health'],
  },
  {
    name: 'Prometheus',
    headers: (host) => [
      ['Host', host],
      ['User-Agent', 'Prometheus/2.51.2'],
      [
        'Accept',
        'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1',
      ],
      ['Accept-Encoding', 'gzip'],
      ['X-Prometheus-Scrape-Timeout-Seconds', '10'],
    ],
    paths: ['/metrics'],
  },
  {
    name: 'Better Stack',
    headers: (host) => [
      ['Host', host],
      [
        'User-Agent',
        'Better Stack Better Uptime Bot Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/108.0.0.0 Safari/537.36',
      ],
      ['Accept', '*/*'],
    ],
    paths: ['/', '/status'],
  },
];
