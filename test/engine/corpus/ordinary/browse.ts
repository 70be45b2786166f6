import type { Headers } from '../http.js';
import { type CorpusBuilder, lengthOf, message } from './build.js';
import {
  type Browser,
  type BrowserRequest,
  browserHeaders,
  browserVersion,
  LANGUAGES,
  pickBrowser,
  secChUa,
  type Version,
} from './clients.js';
import { type CookieStyle, cookieHeader, SOURCES, type Source } from './cookies.js';
import { TITLES } from './data/text.js';
import type { Random } from './random.js';
import { SITES, type Site, searchText, slug, uriEncode } from './sites.js';

/**
 * Browser traffic as visits: a visitor arrives from a search engine, a link or a campaign, loads a page and
 * what it needs, moves around the site, and the page's scripts fetch JSON and send analytics.
 */

interface Visitor {
  readonly site: Site;
  readonly browser: Browser;
  readonly language: string;
  readonly version: Version;
  readonly ip: string;
  readonly source: Source;
  readonly returning: boolean;
  /** The Cookie header once the site has set its cookies (undefined before). */
  readonly cookie: string | undefined;
}

function visitor(corpus: CorpusBuilder, site?: Site): Visitor {
  const { random } = corpus;
  const chosen = site ?? random.weighted(SITES.map((s) => [s.weight, s] as const));
  const source = random.weighted(SOURCES);
  const returning = random.chance(0.55);
  const styles: CookieStyle[] = returning
    ? [...chosen.cookies, ...chosen.someCookies.filter(() => random.chance(0.35))]
    : chosen.cookies.filter(() => random.chance(0.5));
  return {
    site: chosen,
    browser: pickBrowser(random),
    language: random.weighted(LANGUAGES),
    version: browserVersion(random),
    ip: corpus.ip(),
    source,
    returning,
    cookie: cookieHeader(styles, random, source),
  };
}

/** Parameters ad platforms and mail tools add to landing URLs. */
function campaign(random: Random): string {
  return random.weighted([
    [
      5,
      `utm_source=google&utm_medium=cpc&utm_campaign=${random.pick(['spring_sale_2024', 'brand_exact', 'pmax-de'])}&utm_term=${uriEncode(searchText(random))}&utm_content=${random.pick(['ad_a', 'ad_b', 'rsa-1'])}&gclid=Cj0KCQjw${random.b64url(80)}`,
    ],
    [3, `gclid=Cj0KCQjw${random.b64url(80)}&gad_source=1`],
    [1, `gbraid=0AAAAA${random.b64url(30)}&gclid=${random.b64url(90)}_BwE`],
    [4, `fbclid=IwAR${random.b64url(58)}`],
    [1, `fbclid=IwZXh0bgNhZW0CMTEAAR${random.b64url(60)}_aem_${random.b64url(22)}`],
    [2, `msclkid=${random.hex(32)}&utm_source=bing&utm_medium=cpc&utm_campaign=Search%20-%20Brand`],
    [2, `utm_source=hs_email&utm_medium=email&_hsenc=p2ANqtz-${random.b64url(80)}&_hsmi=${random.digits(9)}`],
    [2, `mc_cid=${random.hex(10)}&mc_eid=${random.hex(10)}`],
    [
      2,
      `_gl=1*${random.alnum(7).toLowerCase()}*_ga*${Buffer.from(`${random.digits(10)}.${random.time()}`)
        .toString('base64')
        .replace(
          /=+$/,
          '',
        )}*_ga_9ZQ1KX4T7B*${Buffer.from(`${random.time()}.1.1.${random.time()}.0.0.0`).toString('base64').replace(/=/g, '.')}`,
    ],
    [1, `ttclid=${random.b64url(60)}&utm_source=tiktok&utm_medium=paid`],
    [1, `srsltid=AfmBOo${random.b64url(60)}`],
    [1, `ref=producthunt`],
    [
      1,
      `utm_source=newsletter&utm_medium=email&utm_campaign=weekly%2319&utm_content=${uriEncode('hero button')}`,
    ],
  ]);
}

const withQuery = (target: string, params: string) => `${target}${target.includes('?') ? '&' : '?'}${params}`;

function etag(random: Random): string {
  return random.chance(0.5) ? `W/"${random.hex(8)}-${random.b64url(27)}"` : `"${random.hex(32)}"`;
}

/** One request of a visit. */
function send(
  corpus: CorpusBuilder,
  v: Visitor,
  kind: string,
  target: string,
  request: Omit<BrowserRequest, 'browser' | 'language' | 'version'>,
  label = target,
  method = 'GET',
  body?: string,
): void {
  const headers = browserHeaders(v.site.host, {
    browser: v.browser,
    language: v.language,
    version: v.version,
    ...request,
  });
  if (body !== undefined)
    headers.push([v.version === 'HTTP/1.1' ? 'Content-Length' : 'content-length', lengthOf(body)]);
  corpus.add(
    kind,
    `${method} ${v.site.host}${label} (${v.browser.family}${v.browser.mobile ? ' mobile' : ''}, ${v.version})`,
    message({
      method,
      host: v.site.host,
      target,
      version: v.version,
      headers,
      clientIp: v.ip,
      ...(body === undefined ? {} : { body }),
    }),
  );
}

/** Analytics hits the page's tags send to the site's own collection endpoints. */
function tracking(corpus: CorpusBuilder, v: Visitor, pageUrl: string, title: string): void {
  const { random } = corpus;
  const origin = `https://${v.site.host}`;
  const style = random.weighted([
    [5, 'ga4'],
    [3, 'matomo'],
    [2, 'beacon'],
    [1, 'pixel'],
  ] as const);
  const common = { site: 'same-origin' as const, referer: pageUrl, cookie: v.cookie };
  if (style === 'ga4') {
    const brands = secChUa(v.browser)
      .split(', ')
      .map((brand) =>
        brand.replace(
          /"(.*)";v="(\d+)"/,
          (_, name: string, major: string) => `${uriEncode(name)};${major}.0.0.0`,
        ),
      )
      .join('|');
    // Client hints exist in Chromium browsers only.
    const hints =
      /Chrome|Edg|OPR|YaBrowser|SamsungBrowser/.test(v.browser.userAgent) &&
      v.browser.family !== 'chrome-ios';
    const clientHints = {
      uaa: 'x86',
      uab: '64',
      uafvl: brands,
      uamb: v.browser.mobile ? '1' : '0',
      uam: '',
      uap: v.browser.platform.replace(/"/g, ''),
      uapv: '15.0.0',
      uaw: '0',
    };
    const params = new URLSearchParams({
      v: '2',
      tid: 'G-9ZQ1KX4T7B',
      gtm: `45je45${random.alnum(3).toLowerCase()}v9${random.digits(9)}za200`,
      _p: `${random.time()}${random.digits(3)}`,
      gcs: 'G111',
      gcd: '13r3r3r3r5l1',
      npa: '0',
      dma: '0',
      cid: `${random.digits(10)}.${random.time()}`,
      ul: v.language.split(',')[0]?.toLowerCase() ?? 'en-us',
      sr: random.pick(['1920x1080', '1440x900', '390x844', '412x915', '2560x1440']),
      ...(hints ? clientHints : {}),
      are: '1',
      frm: '0',
      pscdl: 'noapi',
      _s: String(random.int(1, 6)),
      sid: String(random.time()),
      sct: String(random.int(1, 30)),
      seg: '1',
      dl: pageUrl,
      ...(v.source.referer ? { dr: v.source.referer } : {}),
      dt: title,
      en: random.pick(['page_view', 'scroll', 'user_engagement', 'view_item', 'add_to_cart']),
      'epn.percent_scrolled': '90',
      _et: String(random.int(100, 60000)),
      tfd: String(random.int(500, 90000)),
    });
    send(
      corpus,
      v,
      'tracking',
      `/g/collect?${params}`,
      { ...common, dest: 'empty', site: 'same-origin' },
      '/g/collect?...',
      'POST',
      '',
    );
  } else if (style === 'matomo') {
    const params = new URLSearchParams({
      action_name: title,
      idsite: '1',
      rec: '1',
      r: random.digits(6),
      h: String(random.int(0, 23)),
      m: String(random.int(0, 59)),
      s: String(random.int(0, 59)),
      url: pageUrl,
      ...(v.source.referer ? { urlref: v.source.referer } : {}),
      _id: random.hex(16),
      _idn: '0',
      send_image: '0',
      _refts: String(random.time()),
      pv_id: random.alnum(6),
      pf_net: String(random.int(0, 300)),
      pf_srv: String(random.int(10, 900)),
      ...(/Chrome|Edg/.test(v.browser.userAgent) && v.browser.family !== 'chrome-ios'
        ? {
            uadata: JSON.stringify({
              fullVersionList: [{ brand: 'Chromium', version: `${v.browser.major}.0.6367.91` }],
              mobile: v.browser.mobile,
              model: '',
              platform: v.browser.platform.replace(/"/g, ''),
              platformVersion: '15.0.0',
            }),
          }
        : {}),
      pdf: '1',
      qt: '0',
      realp: '0',
      wma: '0',
      fla: '0',
      java: '0',
      ag: '0',
      cookie: '1',
      res: random.pick(['1920x1080', '1440x900', '390x844']),
    });
    send(
      corpus,
      v,
      'tracking',
      `/matomo.php?${params}`,
      { ...common, dest: 'empty' },
      '/matomo.php?...',
      'POST',
      '',
    );
  } else if (style === 'beacon') {
    const body = JSON.stringify({
      type: 'web-vitals',
      page: new URL(pageUrl).pathname,
      metrics: {
        LCP: random.int(600, 4000),
        CLS: Number((random.next() / 5).toFixed(3)),
        INP: random.int(40, 500),
      },
      nav: random.pick(['navigate', 'reload', 'back-forward']),
      connection: random.pick(['4g', '3g', 'wifi']),
      ua: v.browser.userAgent,
    });
    send(
      corpus,
      v,
      'tracking',
      '/api/rum',
      { ...common, dest: 'empty', origin, extra: [['Content-Type', 'text/plain;charset=UTF-8']] },
      '/api/rum (sendBeacon)',
      'POST',
      body,
    );
  } else {
    const params = new URLSearchParams({
      e: 'pv',
      url: pageUrl,
      ref: v.source.referer ?? '',
      t: title,
      w: String(random.int(320, 2560)),
      ts: String(random.time() * 1000),
      uid: random.uuid(),
    });
    send(corpus, v, 'tracking', `/px.gif?${params}`, { ...common, dest: 'image' }, '/px.gif?...');
  }
}

const titleOf = (site: Site, target: string, random: Random): string => {
  const name = site.host.split('.')[0] ?? 'Site';
  const last = target.split('?')[0]?.split('/').filter(Boolean).pop();
  const page = last ? last.replace(/-/g, ' ') : random.pick(TITLES);
  return `${page.charAt(0).toUpperCase()}${page.slice(1)} | ${name.charAt(0).toUpperCase()}${name.slice(1)} – ${random.pick(["Today's news", 'Official Store', 'Docs', 'Community', 'Home'])}`;
};

/** One visit: pages, their assets, the page's fetches and its analytics. */
export function visit(corpus: CorpusBuilder): void {
  const { random } = corpus;
  const v = visitor(corpus);
  const { site } = v;
  const pages = random.weighted([
    [40, 1],
    [25, 2],
    [15, 3],
    [10, 4],
    [10, 6],
  ] as const);
  let previous: string | undefined;
  for (let i = 0; i < pages; i++) {
    let target = site.page(random);
    if (i === 0 && random.chance(0.18)) target = withQuery(target, campaign(random));
    const url = `https://${site.host}${target}`;
    const first = i === 0;
    const cookie = first && !v.returning ? undefined : v.cookie;
    send(corpus, v, 'page', target, {
      dest: 'document',
      site: first ? (v.source.referer ? 'cross-site' : 'none') : 'same-origin',
      referer: first ? v.source.referer : previous,
      cookie,
      reload: random.chance(0.04),
      user: first ? v.source.referer !== undefined : true,
    });
    // Assets: all of the first page's (some from the cache of a returning visitor), a few images later.
    const assets = site.assets(random);
    const loaded = first
      ? assets.filter(() => random.chance(v.returning ? 0.45 : 0.85))
      : assets.filter(([, dest]) => dest === 'image' && random.chance(0.5));
    for (const [asset, dest] of loaded) {
      const conditional = v.returning && random.chance(0.3);
      send(corpus, v, 'asset', asset, {
        dest,
        site: 'same-origin',
        referer:
          dest === 'font' ? `https://${site.host}${assets.find(([, d]) => d === 'style')?.[0] ?? '/'}` : url,
        ...(dest === 'font' ? { origin: `https://${site.host}` } : {}),
        cookie,
        ...(conditional
          ? random.chance(0.7)
            ? { ifNoneMatch: etag(random) }
            : { ifModifiedSince: new Date(random.time() * 1000).toUTCString() }
          : {}),
      });
    }
    if (random.chance(0.45)) {
      for (let k = random.int(1, 2); k > 0; k--) {
        const xhr = site.xhr(random);
        send(corpus, v, 'xhr', xhr, {
          dest: 'empty',
          site: 'same-origin',
          referer: url,
          cookie: v.cookie,
          accept: random.pick(['application/json', 'application/json, text/plain, */*', '*/*']),
          extra: random.chance(0.3) ? [['X-Requested-With', 'XMLHttpRequest']] : [],
        });
      }
    }
    if (random.chance(0.35)) tracking(corpus, v, url, titleOf(site, target, random));
    previous = url;
  }
}

/** A search typed into the site's search box, then maybe a second page or a filter. */
export function searchVisit(corpus: CorpusBuilder, text: string): void {
  const { random } = corpus;
  const v = visitor(corpus);
  const target = v.site.search(text, random);
  const referer = `https://${v.site.host}${v.site.page(random)}`;
  send(corpus, v, 'search', target, { dest: 'document', site: 'same-origin', referer, cookie: v.cookie });
  if (random.chance(0.3)) {
    // Type-ahead suggestions as the visitor typed.
    const prefix = [...text].slice(0, random.int(2, Math.max(2, [...text].length))).join('');
    send(corpus, v, 'search', `/search/suggest.json?q=${uriEncode(prefix)}&limit=8`, {
      dest: 'empty',
      site: 'same-origin',
      referer,
      cookie: v.cookie,
      accept: 'application/json',
    });
  }
  if (random.chance(0.2))
    send(corpus, v, 'search', `${target}&page=${random.int(2, 5)}`, {
      dest: 'document',
      site: 'same-origin',
      referer: `https://${v.site.host}${target}`,
      cookie: v.cookie,
    });
}

/** Listings with filters, sorts and pagination, as pages and as the JSON behind them. */
export function listing(corpus: CorpusBuilder): void {
  const { random } = corpus;
  const v = visitor(corpus);
  const brackets = random.chance(0.5);
  const enc = (s: string) => (brackets ? s : s.replace(/\[/g, '%5B').replace(/\]/g, '%5D'));
  const target = random.weighted([
    [
      3,
      enc(
        `/api/v1/orders?sort=-created_at&filter[status]=${random.pick(['open', 'paid', 'shipped'])}&page[number]=${random.int(1, 9)}&page[size]=25`,
      ),
    ],
    [
      2,
      enc(
        `/api/v1/products?ids[]=${random.int(1, 999)}&ids[]=${random.int(1, 999)}&fields[products]=name,price,stock`,
      ),
    ],
    [
      3,
      `/products?price=${random.int(5, 50)}..${random.int(60, 500)}&sort=${random.pick(['price', '-price', 'rating', 'newest'])}&brand=${uriEncode(random.pick(["Levi's", 'H&M', 'Marks & Spencer', 'Dr. Martens']))}`,
    ],
    [
      2,
      `/listings?bedrooms=${random.pick(['1', '2', '1,2', '2-3'])}&price_min=${random.int(500, 1500)}&price_max=${random.int(1600, 4000)}&near=${uriEncode(random.pick(['Union Station', "King's Cross", 'Grand Central']))}&pets=true`,
    ],
    [
      2,
      `/jobs?q=${uriEncode(random.pick(['C++ developer', 'C# .NET', 'SQL analyst', 'DevOps (remote)']))}&location=${uriEncode(random.pick(['Berlin', 'Remote', 'New York, NY']))}&type=full-time&posted=7d`,
    ],
    [
      2,
      enc(
        `/api/v1/users?filter[name][like]=${uriEncode(random.pick(["O'B", 'Smi', 'Mü']))}%25&sort=name&page=${random.int(1, 4)}`,
      ),
    ],
    [
      2,
      `/events?from=${random.pick(['2024-05-01', '01%2F05%2F2024'])}&to=${random.pick(['2024-05-31', '31%2F05%2F2024'])}&category=${uriEncode(random.pick(['music & arts', 'food/drink', 'sports']))}&sort=date`,
    ],
    [
      2,
      `/api/v2/search?q=${uriEncode(random.pick(['status:open AND priority:high', 'author:"Jane Doe"', 'title:(union OR join)', 'tag:c++']))}&limit=50&offset=${random.int(0, 10) * 50}`,
    ],
    [
      2,
      `/rest/api/2/search?jql=${uriEncode(random.pick(['project = WEB AND status in ("In Progress", "Code Review") ORDER BY priority DESC', 'assignee = currentUser() AND resolution = Unresolved order by updated DESC', 'labels = "drop-2024" AND created >= -7d']))}&maxResults=50&fields=summary,status,assignee`,
    ],
    [
      2,
      `/catalog?category=${random.int(1, 99)}&sort=popularity&order=desc&per_page=${random.pick(['24', '48', '96'])}&view=grid&in_stock=1`,
    ],
    [
      1,
      `/api/v1/transactions?created%5Bgte%5D=${random.time()}&created%5Blte%5D=${random.time()}&limit=100&starting_after=txn_${random.alnum(24)}`,
    ],
    [
      1,
      `/odata/Products?$filter=${uriEncode("Price gt 20 and Category eq 'Shoes'")}&$orderby=Price%20desc&$top=20&$skip=${random.int(0, 5) * 20}&$select=Name,Price`,
    ],
    [
      1,
      `/api/v1/items?where=${uriEncode(JSON.stringify({ status: 'active', price: { $lt: 100 } }))}&sort=${uriEncode(JSON.stringify({ createdAt: -1 }))}`,
    ],
  ]);
  const api = target.startsWith('/api') || target.startsWith('/rest') || target.startsWith('/odata');
  send(corpus, v, 'listing', target, {
    dest: api ? 'empty' : 'document',
    site: 'same-origin',
    referer: `https://${v.site.host}/`,
    cookie: v.cookie,
    ...(api ? { accept: 'application/json' } : {}),
  });
}

/** CORS preflights before a page's cross-origin API calls. */
export function preflight(corpus: CorpusBuilder): void {
  const { random } = corpus;
  const v = visitor(corpus);
  const method = random.weighted([
    [5, 'POST'],
    [3, 'PUT'],
    [3, 'PATCH'],
    [2, 'DELETE'],
    [3, 'GET'],
  ] as const);
  const path = random.pick([
    '/v1/orders',
    `/v1/projects/${random.digits(6)}`,
    '/graphql',
    '/v1/uploads/sign',
    '/v1/events',
    `/v1/items/${random.int(1, 999)}`,
  ]);
  const headers: Headers = [
    ['Host', 'api.example.com'],
    ['Accept', '*/*'],
    ['Access-Control-Request-Method', method],
    [
      'Access-Control-Request-Headers',
      random.pick([
        'authorization,content-type',
        'content-type',
        'authorization,content-type,x-request-id',
        'x-csrf-token,content-type',
      ]),
    ],
    ['Origin', `https://${v.site.host}`],
    ['User-Agent', v.browser.userAgent],
    ['Sec-Fetch-Mode', 'cors'],
    ['Sec-Fetch-Site', 'same-site'],
    ['Sec-Fetch-Dest', 'empty'],
    ['Referer', `https://${v.site.host}/`],
    ['Accept-Encoding', 'gzip, deflate, br'],
    ['Accept-Language', v.language],
  ];
  corpus.add(
    'preflight',
    `OPTIONS api.example.com${path} for ${method} from ${v.site.host}`,
    message({
      method: 'OPTIONS',
      host: 'api.example.com',
      target: path,
      version: v.version,
      headers:
        v.version === 'HTTP/1.1' ? headers : headers.map(([n, x]): [string, string] => [n.toLowerCase(), x]),
      clientIp: v.ip,
    }),
  );
}

/** Audio and video played in the page: range requests. */
export function media(corpus: CorpusBuilder): void {
  const { random } = corpus;
  const v = visitor(
    corpus,
    SITES.find((s) => s.platform === 'wordpress'),
  );
  const file = random.pick([
    `/wp-content/uploads/2024/0${random.int(1, 5)}/${slug(random.pick(TITLES))}.mp4`,
    `/media/podcast/episode-${random.int(1, 180)}.mp3`,
    `/videos/hls/${random.hex(12)}/720p/segment_${random.int(0, 300)}.ts`,
  ]);
  const start = random.chance(0.5) ? 0 : random.int(1, 80) * 1048576;
  send(corpus, v, 'media', file, {
    dest: 'video',
    site: 'same-origin',
    referer: `https://${v.site.host}/`,
    cookie: v.cookie,
    range: `bytes=${start}-`,
    ...(random.chance(0.2) ? { ifNoneMatch: etag(random) } : {}),
  });
}

/** Sign-in with an identity provider: the authorization request and the callback with its code. */
export function oauth(corpus: CorpusBuilder): void {
  const { random } = corpus;
  const v = visitor(
    corpus,
    SITES.find((s) => s.platform === 'spa'),
  );
  const state = random.b64url(43);
  const redirect = uriEncode(`https://${v.site.host}/auth/callback`);
  const target = random.weighted([
    [
      3,
      `/oauth/authorize?response_type=code&client_id=${random.alnum(32)}&redirect_uri=${redirect}&scope=${uriEncode('openid profile email offline_access')}&state=${state}&code_challenge=${random.b64url(43)}&code_challenge_method=S256&nonce=${random.b64url(22)}`,
    ],
    [
      4,
      `/auth/callback?code=${uriEncode(`4/0A${random.b64url(70)}`)}&scope=${uriEncode('email profile openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile')}&authuser=0&prompt=consent&state=${state}`,
    ],
    [
      2,
      `/auth/callback?code=${random.hex(20)}&state=${uriEncode(JSON.stringify({ returnTo: '/projects/812/board', nonce: random.hex(8) }))}`,
    ],
    [
      1,
      `/auth/callback?error=access_denied&error_description=${uriEncode('The user denied the request')}&state=${state}`,
    ],
    [
      2,
      `/login/oauth/authorize?client_id=Iv1.${random.hex(16)}&redirect_uri=${redirect}&scope=${uriEncode('read:user user:email')}&state=${state}&allow_signup=true`,
    ],
    [
      1,
      `/logout?post_logout_redirect_uri=${uriEncode(`https://${v.site.host}/`)}&id_token_hint=${random.b64url(40)}.${random.b64url(200)}.${random.b64url(86)}`,
    ],
  ]);
  send(corpus, v, 'oauth', target, {
    dest: 'document',
    site: 'cross-site',
    referer: random.pick([
      'https://accounts.google.com/',
      'https://login.microsoftonline.com/',
      'https://github.com/',
      `https://${v.site.host}/login`,
    ]),
    cookie: v.cookie,
  });
}

/** Files served through signed URLs (S3, GCS, CloudFront, Azure), opened from a page or an email. */
export function signedUrl(corpus: CorpusBuilder): void {
  const { random } = corpus;
  const v = visitor(corpus);
  const file = random.pick([
    `/uploads/2024/05/${uriEncode(random.pick(['Invoice 100234.pdf', 'photo (1).jpg', 'Résumé - Jane.pdf', 'export_2024-05-01.csv']))}`,
    `/exports/${random.uuid()}/report.xlsx`,
    `/media/${random.hex(2)}/${random.hex(32)}.mp4`,
  ]);
  const date = '20240501T080000Z';
  const query = random.weighted([
    [
      4,
      `X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Content-Sha256=UNSIGNED-PAYLOAD&X-Amz-Credential=AKIA${random.alnum(16).toUpperCase()}%2F20240501%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=${date}&X-Amz-Expires=${random.pick(['300', '3600', '604800'])}&X-Amz-Signature=${random.hex(64)}&X-Amz-SignedHeaders=host&x-id=GetObject${random.chance(0.3) ? `&response-content-disposition=${uriEncode('attachment; filename="report.pdf"')}` : ''}`,
    ],
    [
      2,
      `X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=${uriEncode(`uploader@example-prod.iam.gserviceaccount.com/20240501/auto/storage/goog4_request`)}&X-Goog-Date=${date}&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature=${random.hex(512)}`,
    ],
    [
      2,
      `Expires=${random.time()}&Signature=${random.b64url(340).replace(/_/g, '~')}__&Key-Pair-Id=K2JCJMDEHXQW5F`,
    ],
    [
      1,
      `sv=2022-11-02&ss=b&srt=o&sp=r&se=${uriEncode('2024-05-02T08:00:00Z')}&st=${uriEncode('2024-05-01T08:00:00Z')}&spr=https&sig=${uriEncode(random.base64(32))}`,
    ],
    [1, `token=${random.b64url(40)}&expires=${random.time()}`],
  ]);
  send(corpus, v, 'signed-url', `${file}?${query}`, {
    dest: file.endsWith('.mp4') ? 'video' : 'document',
    site: random.pick(['cross-site', 'none', 'same-site']),
    ...(random.chance(0.5) ? { referer: `https://app.example.io/` } : {}),
    ...(file.endsWith('.mp4') ? { range: 'bytes=0-' } : {}),
  });
}

/** Email open pixels and click redirects from newsletters. */
export function mailTracking(corpus: CorpusBuilder): void {
  const { random } = corpus;
  const v = visitor(corpus);
  const data = Buffer.from(
    JSON.stringify({
      c: random.int(100, 999),
      u: random.hex(12),
      l: `https://${v.site.host}/blog/${slug(random.pick(TITLES))}`,
    }),
  ).toString('base64url');
  const target = random.chance(0.5) ? `/o/${data}` : `/c/${data}?utm_source=newsletter&utm_medium=email`;
  corpus.add(
    'tracking',
    `GET email.example.com${target.slice(0, 30)}... (mail ${target.startsWith('/o/') ? 'open' : 'click'})`,
    message({
      method: 'GET',
      host: 'email.example.com',
      target,
      version: 'HTTP/1.1',
      headers: [
        ['Host', 'email.example.com'],
        [
          'User-Agent',
          target.startsWith('/o/')
            ? 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)'
            : v.browser.userAgent,
        ],
        [
          'Accept',
          target.startsWith('/o/')
            ? 'image/*'
            : 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
        ],
        ['Accept-Encoding', 'gzip, deflate, br'],
      ],
      clientIp: corpus.ip(),
    }),
  );
}
