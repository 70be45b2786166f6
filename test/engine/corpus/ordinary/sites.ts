import type { CookieStyle } from './cookies.js';
import { PRODUCTS, SEARCHES_EN, SEARCHES_WORLD, TITLES } from './data/text.js';
import type { Random } from './random.js';

/**
 * The sites the traffic goes to, each built on a common platform with the URL shapes that platform has:
 * a Shopify-like shop, a WordPress news site, a Next.js documentation site, a single-page SaaS app, a
 * Discourse-like forum, a HubSpot-run company site and a legacy ASP.NET portal.
 */

export interface Site {
  readonly host: string;
  readonly platform: string;
  /** Share of the browser traffic. */
  readonly weight: number;
  /** Cookies every visitor gets once they have been there, and cookies some get. */
  readonly cookies: readonly CookieStyle[];
  readonly someCookies: readonly CookieStyle[];
  /** A page's path and query. */
  page(random: Random): string;
  /** The path of the site's search results for `text` (as its search form submits it). */
  search(text: string, random: Random): string;
  /** The static files a page loads: [path, destination]. */
  assets(random: Random): [string, 'script' | 'style' | 'image' | 'font' | 'manifest'][];
  /** JSON the page's script reads: a path and query. */
  xhr(random: Random): string;
}

export const slug = (text: string): string =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** How a search form submits (spaces as `+`), and how script encodes (spaces as `%20`). */
export const formEncode = (text: string): string => new URLSearchParams({ q: text }).toString().slice(2);
export const uriEncode = (text: string): string => encodeURIComponent(text);

/** A search text: English mostly, other languages on a share of visits. */
export const searchText = (random: Random): string =>
  random.chance(0.75) ? random.pick(SEARCHES_EN) : random.pick(SEARCHES_WORLD);

const COLLECTIONS = [
  'running',
  'outdoor',
  'womens-jackets',
  'mens-shoes',
  'kitchen',
  'sale',
  'new-arrivals',
  'gift-cards',
];
const CATEGORIES = [
  'world',
  'politics',
  'business',
  'tech',
  'science',
  'sport',
  'culture',
  'local-news',
  'opinion',
];
const DOC_SECTIONS = [
  'getting-started',
  'guides',
  'api',
  'cli',
  'sdk/javascript',
  'sdk/python',
  'integrations',
  'security',
];
const DOC_PAGES = [
  'installation',
  'authentication',
  'webhooks',
  'rate-limits',
  'pagination',
  'errors',
  'select-queries',
  'joins-and-unions',
  'drop-and-truncate',
  'scripts',
  'environment-variables',
  'migrating-from-v1',
];
const TOPICS = [
  'how-to-select-all-rows-with-a-where-clause',
  'union-vs-join-performance',
  'my-script-tag-is-not-loading',
  'drop-shipping-integration-help',
  'rock-roll-playlist-2024',
  'where-is-my-order',
  'c-or-c-for-game-development',
  'announcing-v2-4',
  'welcome-to-the-community',
  'feature-request-dark-mode',
];

const year = '2024';
const month = (random: Random) => String(random.int(1, 5)).padStart(2, '0');
const day = (random: Random) => String(random.int(1, 28)).padStart(2, '0');

export const SITES: readonly Site[] = [
  {
    host: 'shop.example.com',
    platform: 'shop',
    weight: 30,
    cookies: ['ga4', 'google-ads', 'facebook', 'onetrust', 'cloudflare'],
    someCookies: ['hotjar', 'clarity', 'bing-ads', 'preferences', 'rails'],
    page(random) {
      const product = slug(random.pick(PRODUCTS).name);
      return random.weighted([
        [10, '/'],
        [14, `/collections/${random.pick(COLLECTIONS)}`],
        [
          5,
          `/collections/${random.pick(COLLECTIONS)}?sort_by=${random.pick(['price-ascending', 'price-descending', 'best-selling', 'created-descending'])}&filter.v.price.gte=${random.int(0, 50)}&filter.v.price.lte=${random.int(60, 300)}${random.chance(0.5) ? `&filter.p.m.custom.color=${random.pick(['Blue', 'Black', 'Off+White'])}` : ''}`,
        ],
        [3, `/collections/${random.pick(COLLECTIONS)}?page=${random.int(2, 9)}`],
        [20, `/products/${product}`],
        [8, `/products/${product}?variant=${random.digits(14)}`],
        [5, '/cart'],
        [2, '/account/login'],
        [2, '/account'],
        [1, `/account/orders/${random.hex(32)}`],
        [2, `/pages/${random.pick(['shipping-returns', 'faq', 'about-us', 'contact', 'size-guide'])}`],
        [2, `/blogs/news/${slug(random.pick(TITLES))}`],
        [1, `/policies/${random.pick(['privacy-policy', 'refund-policy', 'terms-of-service'])}`],
        [2, `/checkouts/cn/${random.b64url(26)}?locale=en-${random.pick(['DE', 'US', 'GB'])}`],
      ]);
    },
    search: (text, random) =>
      random.chance(0.7)
        ? `/search?q=${formEncode(text)}&options%5Bprefix%5D=last`
        : `/search?q=${formEncode(text)}&type=product&page=${random.int(2, 4)}`,
    assets(random) {
      const v = random.digits(19);
      return [
        [`/cdn/shop/t/12/assets/base.css?v=${v}`, 'style'],
        [`/cdn/shop/t/12/assets/global.js?v=${random.digits(19)}`, 'script'],
        [`/cdn/shop/t/12/assets/product-form.js?v=${random.digits(19)}`, 'script'],
        [
          `/cdn/shop/files/hero_${random.pick(['1800x', '900x', '3600x'])}.jpg?v=${random.digits(10)}&width=1500`,
          'image',
        ],
        [`/cdn/shop/products/IMG_${random.int(1000, 9999)}_600x.jpg?v=${random.digits(10)}`, 'image'],
        [
          `/cdn/shop/products/${slug(random.pick(PRODUCTS).name)}-front.webp?v=${random.digits(10)}&width=533`,
          'image',
        ],
        [
          `/cdn/fonts/assistant/assistant_n4.${random.hex(40)}.woff2?h1=${Buffer.from('shop.example.com').toString('base64url')}&hmac=${random.hex(64)}`,
          'font',
        ],
        ['/cdn/shopifycloud/portable-wallets/latest/accelerated-checkout-backwards-compat.css', 'style'],
        ['/favicon.ico', 'image'],
      ];
    },
    xhr: (random) =>
      random.weighted([
        [5, '/cart.js'],
        [3, `/recommendations/products.json?product_id=${random.digits(13)}&limit=4&intent=related`],
        [
          4,
          `/search/suggest.json?q=${uriEncode(searchText(random).slice(0, random.int(2, 8)))}&resources%5Btype%5D=product%2Ccollection%2Cquery&resources%5Blimit%5D=4&resources%5Boptions%5D%5Bfields%5D=title%2Cproduct_type%2Cvariants.title`,
        ],
        [2, `/products/${slug(random.pick(PRODUCTS).name)}.js`],
        [2, `/variants/${random.digits(14)}/?section_id=pickup-availability`],
      ]),
  },
  {
    host: 'news.example.org',
    platform: 'wordpress',
    weight: 22,
    cookies: ['universal-analytics', 'ga4', 'cookieconsent-json'],
    someCookies: ['matomo', 'facebook', 'wordpress-visitor', 'consent-base64'],
    page(random) {
      const title = slug(random.pick(TITLES));
      return random.weighted([
        [10, '/'],
        [35, `/${year}/${month(random)}/${day(random)}/${title}/`],
        [6, `/category/${random.pick(CATEGORIES)}/`],
        [3, `/category/${random.pick(CATEGORIES)}/page/${random.int(2, 12)}/`],
        [
          3,
          `/tag/${random.pick(['union', 'elections', 'select-committee', 'drop-in-centre', 'c', 'rock-roll', 'ai'])}/`,
        ],
        [2, `/author/${random.pick(['jane-obrien', 'm-dangelo', 'editorial-team'])}/`],
        [2, `/?p=${random.int(100, 9999)}`],
        [3, `/${year}/${month(random)}/${day(random)}/${title}/amp/`],
        [
          2,
          `/${year}/${month(random)}/${day(random)}/${title}/?utm_source=newsletter&utm_medium=email&utm_campaign=daily_${year}${month(random)}${day(random)}`,
        ],
        [1, `/${year}/${month(random)}/${day(random)}/${title}/#comments`.replace('#comments', '')],
        [2, '/feed/'],
        [1, `/${year}/${month(random)}/`],
      ]);
    },
    search: (text, random) =>
      random.chance(0.8) ? `/?s=${formEncode(text)}` : `/search/${uriEncode(text)}/`,
    assets(random) {
      const ver = random.pick(['6.5.3', '6.5.2', '6.4.4']);
      const image = `${slug(random.pick(TITLES))}`;
      return [
        [`/wp-includes/css/dist/block-library/style.min.css?ver=${ver}`, 'style'],
        [`/wp-content/themes/newsroom/style.css?ver=${random.pick(['1.4.2', '2.0.1'])}`, 'style'],
        ['/wp-includes/js/jquery/jquery.min.js?ver=3.7.1', 'script'],
        ['/wp-includes/js/jquery/jquery-migrate.min.js?ver=3.4.1', 'script'],
        [`/wp-includes/js/wp-emoji-release.min.js?ver=${ver}`, 'script'],
        ['/wp-content/plugins/contact-form-7/includes/js/index.js?ver=5.9.3', 'script'],
        [`/wp-content/uploads/${year}/${month(random)}/${image}-1024x683.jpg`, 'image'],
        [`/wp-content/uploads/${year}/${month(random)}/${image}-300x200.webp`, 'image'],
        [`/wp-content/uploads/${year}/${month(random)}/IMG_${random.int(1000, 9999)}-scaled.jpeg`, 'image'],
        ['/wp-content/themes/newsroom/fonts/merriweather-v30-latin-regular.woff2', 'font'],
        ['/wp-content/uploads/2023/01/cropped-favicon-192x192.png', 'image'],
      ];
    },
    xhr: (random) =>
      random.weighted([
        [4, `/wp-json/wp/v2/posts?per_page=10&page=${random.int(2, 6)}&_embed=1`],
        [2, `/wp-json/wp/v2/posts?categories=${random.int(2, 40)}&per_page=5&_fields=id,title,link,date`],
        [2, `/wp-json/wp/v2/comments?post=${random.int(100, 9999)}&per_page=50&order=asc`],
        [
          1,
          `/wp-json/oembed/1.0/embed?url=https%3A%2F%2Fnews.example.org%2F${year}%2F${month(random)}%2F${slug(random.pick(TITLES))}%2F`,
        ],
      ]),
  },
  {
    host: 'docs.example.dev',
    platform: 'docs',
    weight: 12,
    cookies: ['matomo', 'preferences'],
    someCookies: ['cookieconsent-json', 'ga4', 'segment'],
    page(random) {
      const page = `/docs/${random.pick(DOC_SECTIONS)}/${random.pick(DOC_PAGES)}`;
      return random.weighted([
        [40, page],
        [5, `${page}?tab=${random.pick(['curl', 'python', 'node', 'go'])}`],
        [5, `/api/reference?version=${random.pick(['v1', 'v2'])}`],
        [3, '/changelog'],
        [3, `/docs/${random.pick(DOC_SECTIONS)}`],
        [2, `/blog/${slug(random.pick(TITLES))}`],
        [2, '/'],
      ]);
    },
    search: (text) => `/search?q=${uriEncode(text)}`,
    assets(random) {
      return [
        [`/_next/static/css/${random.hex(16)}.css`, 'style'],
        [`/_next/static/chunks/webpack-${random.hex(16)}.js`, 'script'],
        [`/_next/static/chunks/framework-${random.hex(16)}.js`, 'script'],
        [`/_next/static/chunks/pages/_app-${random.hex(16)}.js`, 'script'],
        [`/_next/static/chunks/pages/docs/%5B...slug%5D-${random.hex(16)}.js`, 'script'],
        [`/_next/static/media/inter-var.${random.hex(8)}.woff2`, 'font'],
        [
          `/_next/image?url=%2Fimages%2Fdocs%2F${random.pick(['architecture', 'dashboard', 'webhooks-flow'])}.png&w=${random.pick(['640', '1080', '1920'])}&q=75`,
          'image',
        ],
        ['/site.webmanifest', 'manifest'],
        ['/favicon.svg', 'image'],
      ];
    },
    xhr: (random) =>
      random.weighted([
        [
          4,
          `/api/search?q=${uriEncode(searchText(random))}&hitsPerPage=20&facetFilters=${uriEncode(JSON.stringify([`version:${random.pick(['v1', 'v2'])}`, 'language:en']))}`,
        ],
        [
          3,
          `/_next/data/${random.b64url(21)}/docs/${random.pick(DOC_SECTIONS)}/${random.pick(DOC_PAGES)}.json?slug=${random.pick(DOC_PAGES)}`,
        ],
        [1, '/api/versions'],
      ]),
  },
  {
    host: 'app.example.io',
    platform: 'spa',
    weight: 14,
    cookies: ['express-session', 'segment', 'preferences'],
    someCookies: ['jwt', 'hotjar', 'ga4', 'cloudflare'],
    page(random) {
      return random.weighted([
        [10, '/dashboard'],
        [8, `/projects/${random.digits(6)}/board?view=${random.pick(['kanban', 'list', 'timeline'])}`],
        [5, `/projects/${random.digits(6)}/issues/${random.int(1, 4000)}`],
        [3, `/settings/${random.pick(['profile', 'billing', 'team', 'integrations', 'api-keys'])}`],
        [3, '/login'],
        [1, `/login?next=${uriEncode(`/projects/${random.digits(6)}/board`)}`],
        [1, `/invite/${random.b64url(32)}`],
        [2, '/'],
      ]);
    },
    search: (text, random) => `/search?q=${uriEncode(text)}&scope=${random.pick(['all', 'issues', 'docs'])}`,
    assets(random) {
      return [
        [`/assets/index-${random.b64url(8)}.js`, 'script'],
        [`/assets/vendor-${random.b64url(8)}.js`, 'script'],
        [`/assets/index-${random.b64url(8)}.css`, 'style'],
        [`/assets/logo-${random.b64url(8)}.svg`, 'image'],
        [`/avatars/${random.hex(32)}?s=64&d=identicon`, 'image'],
        ['/fonts/inter-var-latin.woff2', 'font'],
      ];
    },
    xhr: (random) =>
      random.weighted([
        [5, '/api/v1/me'],
        [
          6,
          `/api/v1/projects/${random.digits(6)}/issues?state=${random.pick(['open', 'closed', 'all'])}&sort=${random.pick(['-created_at', 'updated_at', '-priority'])}&page%5Bsize%5D=50&page%5Bnumber%5D=${random.int(1, 5)}`,
        ],
        [
          3,
          `/api/v1/projects/${random.digits(6)}/issues?filter%5Bstatus%5D=open&filter%5Bassignee%5D=me&include=labels,assignee`,
        ],
        [2, `/api/v1/notifications?unread=true&limit=20`],
        [
          2,
          `/api/v1/issues?ids%5B%5D=${random.int(1, 999)}&ids%5B%5D=${random.int(1, 999)}&ids%5B%5D=${random.int(1, 999)}`,
        ],
        [2, `/api/v1/activity?since=${uriEncode(new Date(random.time() * 1000).toISOString())}`],
        [1, '/api/v1/features'],
      ]),
  },
  {
    host: 'community.example.net',
    platform: 'forum',
    weight: 8,
    cookies: ['ga4', 'rails'],
    someCookies: ['preferences', 'cookieyes'],
    page(random) {
      const topic = random.pick(TOPICS);
      return random.weighted([
        [8, '/latest'],
        [25, `/t/${topic}/${random.int(100, 99999)}`],
        [6, `/t/${topic}/${random.int(100, 99999)}/${random.int(2, 60)}`],
        [
          4,
          `/c/${random.pick(['general', 'help', 'feature-requests', 'announcements'])}/${random.int(1, 40)}`,
        ],
        [2, `/u/${random.pick(['jane_d', 'obrien', 'sam.k', 'dev-ops-guy'])}/summary`],
        [2, '/'],
        [1, `/tag/${random.pick(['sql', 'javascript', 'c-sharp', 'docker'])}`],
      ]);
    },
    search: (text, random) =>
      `/search?q=${uriEncode(random.chance(0.3) ? `${text} ${random.pick(['order:latest', 'in:title', 'status:solved', '#help', '@jane_d'])}` : text)}`,
    assets(random) {
      return [
        [`/assets/application-${random.hex(64)}.js`, 'script'],
        [
          `/stylesheets/desktop_${random.int(1, 9)}_${random.hex(40)}.css?__ws=community.example.net`,
          'style',
        ],
        [
          `/user_avatar/community.example.net/${random.pick(['jane_d', 'obrien', 'sam.k'])}/48/${random.int(10, 999)}_2.png`,
          'image',
        ],
        [`/uploads/default/optimized/2X/${random.hex(1)}/${random.hex(40)}_2_690x388.jpeg`, 'image'],
        ['/manifest.webmanifest', 'manifest'],
      ];
    },
    xhr: (random) =>
      random.weighted([
        [4, `/latest.json?no_definitions=true&page=${random.int(1, 6)}`],
        [
          3,
          `/t/${random.int(100, 99999)}/posts.json?post_ids%5B%5D=${random.int(1, 999)}&post_ids%5B%5D=${random.int(1, 999)}&include_suggested=true`,
        ],
        [2, `/t/${random.int(100, 99999)}.json?track_visit=true&forceLoad=true`],
        [2, `/search/query.json?term=${uriEncode(searchText(random))}&include_blurbs=true`],
        [1, '/session/current.json'],
      ]),
  },
  {
    host: 'www.example.com',
    platform: 'company',
    weight: 10,
    cookies: ['hubspot', 'ga4', 'cookiebot'],
    someCookies: ['facebook', 'google-ads', 'bing-ads'],
    page(random) {
      return random.weighted([
        [10, '/'],
        [8, '/pricing'],
        [5, `/features/${random.pick(['automation', 'reporting', 'integrations', 'security'])}`],
        [3, `/customers/${random.pick(['acme', 'globex', 'initech', 'umbrella'])}`],
        [6, `/blog/${slug(random.pick(TITLES))}`],
        [3, '/contact'],
        [2, '/demo'],
        [2, '/careers'],
        [
          2,
          `/careers/${random.pick(['senior-backend-engineer', 'product-designer', 'account-executive-dach'])}?gh_jid=${random.digits(7)}`,
        ],
        [1, `/legal/${random.pick(['privacy', 'terms', 'dpa', 'cookies'])}`],
        [
          3,
          `/lp/${random.pick(['spring-webinar', 'ebook-security', 'free-trial'])}?utm_source=${random.pick(['linkedin', 'google', 'newsletter'])}&utm_medium=${random.pick(['paid_social', 'cpc', 'email'])}&utm_campaign=${random.pick(['q2_2024_emea', 'brand', 'webinar_may'])}`,
        ],
      ]);
    },
    search: (text) => `/search?q=${formEncode(text)}`,
    assets(random) {
      return [
        [
          `/hs-fs/hubfs/${random.pick(['hero', 'logo-wall', 'team'])}.png?width=${random.pick(['600', '1200'])}&height=${random.pick(['400', '800'])}&name=hero.png`,
          'image',
        ],
        [`/_hcms/forms/v2.js`, 'script'],
        [`/hs/hsstatic/keyboard-accessible-menu-flyouts/static-1.17/bundles/project.js`, 'script'],
        [
          `/hubfs/hub_generated/template_assets/1/${random.digits(11)}/${random.digits(13)}/template_main.min.css`,
          'style',
        ],
        ['/hubfs/fonts/GT-Walsheim-Regular.woff2', 'font'],
        ['/hubfs/favicon.png', 'image'],
      ];
    },
    xhr: (random) =>
      random.weighted([
        [
          2,
          `/_hcms/livechat/widget?portalId=${random.digits(7)}&hsLiveChatUrl=${uriEncode('https://www.example.com/pricing')}`,
        ],
        [
          2,
          `/api/pricing?currency=${random.pick(['EUR', 'USD', 'GBP'])}&seats=${random.int(1, 50)}&billing=annual`,
        ],
      ]),
  },
  {
    host: 'portal.example.org',
    platform: 'aspnet',
    weight: 4,
    cookies: ['aspnet'],
    someCookies: ['universal-analytics'],
    page(random) {
      return random.weighted([
        [5, '/Default.aspx'],
        [3, `/Account/Login.aspx?ReturnUrl=${uriEncode('/Portal/Default.aspx').toLowerCase()}`],
        [
          5,
          `/Reports/View.aspx?id=${random.int(100, 999)}&from=${uriEncode('01/05/2024')}&to=${uriEncode('31/05/2024')}&format=html`,
        ],
        [3, `/Members/Profile.aspx?uid=${random.uuid().toUpperCase()}`],
        [2, '/Portal/Documents.aspx?folder=%2fShared+Documents%2fHR'],
      ]);
    },
    search: (text) => `/Search/Results.aspx?k=${formEncode(text)}&s=All%20Sites`,
    assets(random) {
      return [
        [`/WebResource.axd?d=${random.b64url(86)}2&t=638${random.digits(15)}`, 'script'],
        [`/ScriptResource.axd?d=${random.b64url(150)}1&t=${random.hex(8)}`, 'script'],
        ['/Content/Site.css?v=20240501', 'style'],
        ['/Images/logo.gif', 'image'],
      ];
    },
    xhr: (random) =>
      `/Services/Lookup.asmx/GetSuggestions?prefixText=${uriEncode(searchText(random).slice(0, 4))}&count=10`,
  },
];
