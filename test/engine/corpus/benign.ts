import {
  browserHeaders,
  type Entry,
  encode,
  fetchHeaders,
  get,
  type Headers,
  multipart,
  postForm,
  query,
  type SampleRequestJson,
  sendJson,
} from './http.js';

/**
 * Legitimate traffic: page loads, searches, forms, API calls and uploads, including the text that trips
 * naive signatures (apostrophes, quotes, angle brackets, SQL and script words in prose, encoded URLs).
 */

const SITES = ['www.example.com', 'shop.example.com', 'news.example.org', 'docs.example.net'];

const GA_COOKIES = { _ga: 'GA1.2.1185012745.1714550400', _gid: 'GA1.2.90012231.1714550400' };
const CONSENT = { cookie_consent: encode('{"necessary":true,"analytics":false,"marketing":false}') };

const PAGES = [
  '/',
  '/index.html',
  '/about',
  '/about/team',
  '/contact',
  '/pricing',
  '/blog',
  '/blog/2024/05/why-we-moved-to-postgres',
  '/blog/2023/11/select-the-right-database-for-your-union-of-services',
  '/blog/tags/javascript',
  '/blog/how-to-write-a-script-for-your-first-podcast',
  '/products/running-shoes?color=blue&size=42',
  '/products/trail-runner-2?variant=8812&utm_source=newsletter&utm_medium=email&utm_campaign=spring_sale',
  '/category/kitchen/knives?sort=price_asc&page=2',
  '/cart',
  '/checkout/shipping',
  '/account/orders/100234',
  '/account/settings#notifications',
  '/help/articles/360001234-how-do-i-reset-my-password',
  '/docs/getting-started',
  '/docs/api/v2/reference#operation/listOrders',
  '/docs/guides/select-queries-and-joins',
  '/docs/cli/commands/drop',
  '/news/world/european-union-summit-ends-with-deal',
  '/news/local/2024/04/30/o-briens-pub-reopens',
  '/news/tech/openai-and-the-script-kiddies-of-2024',
  '/events/union-square-farmers-market',
  '/jobs/senior-backend-engineer-remote',
  '/legal/privacy',
  '/legal/terms-of-service',
  '/static/css/main.8f2a1c.css',
  '/static/js/app.4b9e77.js?v=3.2.1',
  '/static/js/vendor.min.js',
  '/images/hero@2x.webp',
  '/fonts/inter-var.woff2',
  '/favicon.ico',
  '/robots.txt',
  '/sitemap.xml',
  '/feed.rss',
  '/wiki/Caf%C3%A9',
  '/wiki/M%C3%BCnchen',
  '/files/Annual%20Report%202023.pdf',
  '/p/100%25-cotton-t-shirt',
  '/tag/c%2B%2B',
  '/users/jane.doe/profile',
  '/search/suggest?q=ru',
  '/recipes/grandma%27s-apple-pie',
  '/recipes/mac-n-cheese?servings=4',
  '/store/locator?lat=51.5072&lng=-0.1276&radius=10km',
  '/login?next=%2Faccount%2Forders%3Ftab%3Dopen',
  '/logout',
  '/signup?ref=partner-42&plan=pro',
  '/auth/callback?code=4%2F0AY0e-g6Lk2wP&state=af0ifjsldkj&scope=email%20profile',
  '/share?url=https%3A%2F%2Fwww.example.com%2Fblog%2F2024%2F05%2Fwhy-we-moved-to-postgres&title=Why%20we%20moved',
  '/redirect?to=https%3A%2F%2Fdocs.example.net%2Fdocs%2Fgetting-started',
  '/compare?ids=12,15,19',
  '/calendar/2024-05?view=month',
  '/download/app-1.4.2-x86_64.AppImage',
  '/en-us/support/kb/windows-10-update',
  '/forum/t/union-vs-union-all-performance/8812',
  '/forum/t/my-script-tag-is-not-loading/9921?page=2',
];

/** Page views from browsers, with the cookies and referers they really carry. */
function pageLoads(): Entry[] {
  const entries: Entry[] = [];
  PAGES.forEach((page, i) => {
    for (const round of [0, 1]) {
      const n = i * 2 + round;
      const host = SITES[n % SITES.length] as string;
      const referer = round === 0 ? `https://www.google.com/` : `https://${host}/`;
      const headers = browserHeaders(host, n, [['Referer', referer]]);
      const cookies =
        round === 0
          ? { ...GA_COOKIES, ...CONSENT }
          : { session: `s%3A${(n * 7919).toString(16)}.kX2Pb7`, ...GA_COOKIES };
      entries.push({
        name: `page ${page} (${n})`,
        kind: 'page',
        request: get(`https://${host}${page}`, headers, { cookies }),
      });
    }
  });
  return entries;
}

const SEARCHES = [
  "O'Brien",
  "rock 'n' roll",
  'select a plan',
  'European Union regulations on AI',
  'union square hotels',
  'javascript: the good parts',
  'script writing course',
  '<3 valentines gifts',
  'a < b math symbol',
  'Tom & Jerry',
  'SELECT button not working',
  'drop shipping suppliers',
  'insert coin arcade machine',
  'update my address',
  'how to delete my account',
  'sleep apnea treatment',
  'benchmark results 2024',
  'excel formula if 1=1',
  'C:\\ drive full windows 11',
  '50% off running shoes',
  '"exact phrase" search tips',
  "what does 'or' mean in logic",
  "don't stop believin'",
  '#throwbackthursday',
  'jane.doe@example.com',
  'price < 100 and > 50',
  'how to exit vim',
  'ls vs dir command',
  'the union of two sets',
  'script tag html explained',
  'curly braces {{ }} in jinja templates',
  'what is 7*7',
  'ping pong table outdoor',
  "l'Oréal shampoo",
  'Müller Milch',
  '日本 旅行',
  'café near me',
  'where; is the semicolon key',
  'AT&T store hours',
  'R&D tax credit',
  'order by date',
  'waitfor in python',
  'sql injection explained for beginners',
  'how to cat a file in linux',
  "mother's day brunch",
  'size 10 1/2 boots',
  'iphone 15 (pro) case',
  'C# vs Java',
  'node.js vs deno',
  "Hello, it's me",
  'alert dialog design patterns',
  'system design interview',
  'the script of pulp fiction',
  'select committee report',
  'on error resume next',
  'onload event in react',
  'document cookie consent banner',
  'e=mc^2 explained',
  '1+1=2 proof',
  '"Smith & Sons" -- hardware store',
];

/** Site searches typed by people. */
function searches(): Entry[] {
  return SEARCHES.map((text, n) => {
    const host = SITES[n % SITES.length] as string;
    const params: Record<string, string> =
      n % 3 === 0
        ? { q: text }
        : n % 3 === 1
          ? { q: text, page: '2', sort: 'relevance' }
          : { query: text, lang: 'en' };
    const path = n % 2 === 0 ? '/search' : '/api/search';
    const headers: Headers =
      n % 2 === 0 ? browserHeaders(host, n, [['Referer', `https://${host}/`]]) : fetchHeaders(host, n);
    return {
      name: `search: ${text}`,
      kind: 'search',
      request: get(`https://${host}${path}?${query(params)}`, headers),
    };
  });
}

const JWT =
  'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkphbmUgRG9lIiwiaWF0IjoxNzE0NTUwNDAwfQ.c2lnbmF0dXJl';

const API_BODIES: [string, string, unknown][] = [
  [
    'POST',
    '/api/v1/orders',
    {
      items: [
        { sku: 'A-1001', qty: 2 },
        { sku: 'B-77', qty: 1 },
      ],
      note: "Leave at O'Brien's door, ring twice",
    },
  ],
  ['PATCH', '/api/v1/users/123', { bio: 'I love <3 coding & "design". Previously @ Acme; now freelancing.' }],
  [
    'POST',
    '/graphql',
    {
      query:
        'query GetUser($id: ID!) { user(id: $id) { name email orders(first: 5) { edges { node { id total } } } } }',
      variables: { id: 'VXNlcjox' },
    },
  ],
  ['POST', '/graphql', { query: 'mutation { updateCart(input: {sku: "A-1", qty: 3}) { cart { id } } }' }],
  [
    'POST',
    '/api/v1/posts',
    {
      title: 'Union vs. Union All: when to select which',
      body: '<p>Use <strong>UNION ALL</strong> when duplicates are fine.</p><p>See <a href="https://docs.example.net/sql">the docs</a>.</p>',
      tags: ['sql', 'databases'],
    },
  ],
  [
    'POST',
    '/api/v1/posts',
    {
      title: 'My first script',
      body: '## Setup\n\nRun `npm install` and then `npm start`.\n\n> Tip: select the Node 20 runtime.',
      draft: true,
    },
  ],
  [
    'PUT',
    '/api/v1/profile',
    {
      firstName: 'Seán',
      lastName: "O'Connor",
      address: { line1: "12 O'Connell St, Apt #4", city: 'Dublin', zip: 'D01 F5P2' },
      phone: '+353 1 555 0100',
    },
  ],
  [
    'POST',
    '/api/v1/webhooks',
    {
      url: 'https://hooks.example.com/services/T000/B000/XXXX',
      events: ['order.created', 'order.updated'],
      secret: 'whsec_8f2b1c',
    },
  ],
  [
    'POST',
    '/api/v1/wallets',
    { address: '0x52908400098527886E0F7030069857D2E4169EE7', network: 'ethereum', label: 'cold storage' },
  ],
  [
    'POST',
    '/api/v1/templates',
    {
      name: 'welcome',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: placeholders of a mail template, sent as text
      subject: 'Welcome, ${firstName}!',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: placeholders of a mail template, sent as text
      text: 'Hi ${firstName}, thanks for joining ${company}.',
    },
  ],
  [
    'POST',
    '/api/v1/reports',
    { filter: 'price>100 AND stock<5', groupBy: ['category'], orderBy: 'revenue desc', limit: 50 },
  ],
  [
    'POST',
    '/api/v1/feedback',
    {
      rating: 4,
      comment:
        "Great app! Wish the 'select all' button were bigger. Also the union of filters is confusing :)",
    },
  ],
  [
    'POST',
    '/api/v1/avatars',
    {
      image:
        'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    },
  ],
  [
    'POST',
    '/api/v1/events',
    {
      type: 'page_view',
      url: 'https://www.example.com/products/running-shoes?color=blue',
      referrer: 'https://www.google.com/',
      ts: 1714550400123,
    },
  ],
  [
    'POST',
    '/api/v1/search',
    { query: 'drop-down menu not closing', filters: { product: ['web'], since: '2024-01-01' } },
  ],
  [
    'POST',
    '/api/v1/snippets',
    { language: 'python', code: 'for row in rows:\n    print(row["name"])', title: 'print names' },
  ],
  [
    'POST',
    '/api/v1/messages',
    { to: 'support', text: "Hi team,\nmy order #100234 didn't arrive. Could you check?\nThanks -- Maria" },
  ],
  ['POST', '/api/v1/calc', { expression: '(3 + 4) * 2 / 7', precision: 2 }],
  [
    'PATCH',
    '/api/v1/settings',
    { theme: 'dark', notifications: { email: true, sms: false }, timezone: 'Europe/Berlin' },
  ],
  ['DELETE', '/api/v1/cart/items/88', {}],
  ['POST', '/api/v1/translations', { source: 'en', target: 'de', text: 'Select your language & region' }],
  [
    'POST',
    '/api/v1/addresses/validate',
    { street: '1 Infinite Loop', city: 'Cupertino', state: 'CA', zip: '95014' },
  ],
  ['POST', '/api/v1/coupons/apply', { code: 'SPRING-2024', cartId: 'c_8812' }],
  [
    'POST',
    '/api/v1/telemetry',
    {
      metrics: [
        { name: 'cpu', value: 0.42 },
        { name: 'mem', value: 1024 },
      ],
      host: 'web-01',
    },
  ],
  ['POST', '/api/v1/chat', { message: "What's the difference between <div> and <span>?" }],
  ['POST', '/api/v1/chat', { message: 'Can you explain what 1=1 means in an SQL WHERE clause?' }],
  [
    'PUT',
    '/api/v1/documents/77',
    { title: 'Q2 plan', content: 'Goals: (1) ship v2; (2) hire 3 engineers; (3) reduce churn by 5%.' },
  ],
  [
    'POST',
    '/api/v1/uploads/sign',
    { filename: 'holiday photo (1).jpg', contentType: 'image/jpeg', size: 2483921 },
  ],
  ['POST', '/api/v1/subscriptions', { plan: 'pro', interval: 'year', seats: 5, coupon: null }],
  ['POST', '/api/v1/geo', { lat: 48.8566, lng: 2.3522, accuracy: 12.5 }],
];

const API_CLIENTS: ((host: string, n: number) => Headers)[] = [
  (host, n) =>
    fetchHeaders(host, n, [
      ['Authorization', `Bearer ${JWT}`],
      ['X-Requested-With', 'XMLHttpRequest'],
    ]),
  (host) => [
    ['host', host],
    ['user-agent', 'ExampleApp/5.2.1 (iPhone; iOS 17.4; Scale/3.00)'],
    ['accept', 'application/json'],
    ['authorization', `Bearer ${JWT}`],
    ['x-request-id', '9f1c2d3e-4b5a-6978-8a9b-0c1d2e3f4a5b'],
  ],
  (host) => [
    ['host', host],
    ['user-agent', 'okhttp/4.12.0'],
    ['accept', 'application/json'],
    ['authorization', `Bearer ${JWT}`],
  ],
  (host) => [
    ['host', host],
    ['user-agent', 'python-requests/2.31.0'],
    ['accept', '*/*'],
    ['authorization', 'Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b'],
  ],
  (host) => [
    ['host', host],
    ['user-agent', 'curl/8.5.0'],
    ['accept', '*/*'],
    ['x-api-key', 'sk_live_51H8s2kQ'],
  ],
];

/** JSON API calls from pages, mobile apps and scripts. */
function apiCalls(): Entry[] {
  const entries: Entry[] = [];
  API_BODIES.forEach(([method, path, json], i) => {
    for (const round of [0, 1]) {
      const n = i * 2 + round;
      const host = round === 0 ? 'api.example.com' : 'shop.example.com';
      const client = API_CLIENTS[n % API_CLIENTS.length] as (host: string, n: number) => Headers;
      const request: SampleRequestJson =
        method === 'DELETE'
          ? { ...get(`https://${host}${path}`, client(host, n)), method }
          : sendJson(method, `https://${host}${path}`, client(host, n), json);
      entries.push({ name: `api ${method} ${path} (${n})`, kind: 'api', request });
    }
  });
  // Reads with query parameters, and CORS preflights.
  const reads = [
    '/api/v1/products?ids=12,15,19&fields=name,price',
    '/api/v1/orders?status=open&sort=-created_at&page[size]=20&page[number]=2',
    '/api/v1/users?filter[name]=O%27Brien',
    '/api/v1/search?q=select%20all%20shoes',
    '/api/v1/articles?tag=union&tag=labor',
    '/api/v1/items?since=2024-05-01T00%3A00%3A00Z',
    '/api/v1/geo/reverse?lat=40.7128&lng=-74.0060',
    '/api/v1/export?format=csv&columns=id%2Cname%2Cemail',
    '/api/v1/health',
    '/api/v1/me',
  ];
  reads.forEach((path, n) => {
    entries.push({
      name: `api GET ${path}`,
      kind: 'api',
      request: get(
        `https://api.example.com${path}`,
        (API_CLIENTS[n % API_CLIENTS.length] as (host: string, n: number) => Headers)('api.example.com', n),
      ),
    });
  });
  ['/api/v1/orders', '/api/v1/profile', '/graphql'].forEach((path, n) => {
    entries.push({
      name: `preflight ${path}`,
      kind: 'api',
      request: {
        ...get(`https://api.example.com${path}`, [
          ['Host', 'api.example.com'],
          ['User-Agent', browserHeaders('x', n)[1]?.[1] ?? ''],
          ['Origin', 'https://www.example.com'],
          ['Access-Control-Request-Method', 'POST'],
          ['Access-Control-Request-Headers', 'authorization,content-type'],
        ]),
        method: 'OPTIONS',
      },
    });
  });
  return entries;
}

const FORMS: [string, Record<string, string>][] = [
  ['/account/login', { email: 'jane.doe@example.com', password: "P@ss'w0rd!#2024", remember: 'on' }],
  ['/account/login', { username: 'obrien', password: 'correct horse battery staple' }],
  [
    '/account/signup',
    {
      name: "Patrick O'Brien",
      email: 'pob@example.org',
      password: 'S3cure&Long-Passphrase',
      terms: 'accepted',
    },
  ],
  [
    '/contact',
    {
      name: 'Mike Smith',
      email: 'mike@example.com',
      subject: 'Order question',
      message: "Hi,\r\nI'd like to order 3 items; please call me back.\r\nThanks -- Mike",
    },
  ],
  [
    '/contact',
    {
      name: 'Anna',
      email: 'anna@example.de',
      message: 'Is the "Pro" plan < 20 EUR per month? I need it for our union (works council).',
    },
  ],
  ['/newsletter', { email: 'reader+news@example.com', topics: 'tech,science' }],
  [
    '/checkout/address',
    {
      full_name: 'Seán Ó Briain',
      line1: "12 O'Connell St",
      line2: 'Apt #4',
      city: 'Dublin',
      postcode: 'D01 F5P2',
      country: 'IE',
    },
  ],
  ['/checkout/payment', { card_name: 'J DOE', token: 'tok_1OxYzA2eZvKYlo2C', save: '1' }],
  [
    '/comments',
    {
      post_id: '812',
      author: 'Chris',
      comment: 'Great write-up! The part about "select ... for update" saved my day :-)',
    },
  ],
  [
    '/comments',
    {
      post_id: '813',
      author: 'Lee',
      comment: 'I think <b>bold</b> text looks better here; also a <i>nice</i> touch.',
    },
  ],
  ['/comments', { post_id: '814', author: 'Sam', comment: 'Agreed 100%. 2 > 1, and 1 < 2, always.' }],
  ['/search', { q: 'union jack flag', category: 'all' }],
  ['/profile/edit', { display_name: 'DJ Drop Table', bio: 'Music & code. Formerly at "Sleep Inc."' }],
  [
    '/support/ticket',
    { priority: 'high', description: 'Error: cannot read property "id" of undefined at line 42 (app.js)' },
  ],
  ['/survey', { q1: 'yes', q2: 'no', q3: "I'd rather not say", q4: '5' }],
  ['/password/reset', { email: 'user@example.net' }],
  [
    '/wp-login.php',
    {
      log: 'editor',
      pwd: 'M0nday-M0rning!',
      'wp-submit': 'Log In',
      redirect_to: 'https://www.example.com/wp-admin/',
      testcookie: '1',
    },
  ],
  [
    '/wp-admin/admin-ajax.php',
    {
      action: 'heartbeat',
      _nonce: '5a3b2c1d0e',
      interval: '60',
      'data[wp-refresh-post-lock][post_id]': '42',
    },
  ],
  ['/cart/add', { product_id: '8812', quantity: '2', 'options[size]': '42', 'options[color]': 'navy blue' }],
  [
    '/booking',
    { date: '2024-06-01', time: '19:30', guests: '4', notes: 'Window seat if possible; one guest is vegan.' },
  ],
];

/** HTML forms posted by browsers. */
function forms(): Entry[] {
  const entries: Entry[] = [];
  FORMS.forEach(([path, fields], i) => {
    for (const round of [0, 1]) {
      const n = i * 2 + round;
      const host = SITES[n % SITES.length] as string;
      const headers = browserHeaders(host, n, [
        ['Origin', `https://${host}`],
        ['Referer', `https://${host}${path}`],
      ]);
      const request = postForm(`https://${host}${path}`, headers, fields);
      entries.push({
        name: `form ${path} (${n})`,
        kind: 'form',
        request:
          round === 1
            ? { ...request, cookies: { session: 'b7e1c9a2f0', csrftoken: 'Zx8Lq2Pw7Rk' } }
            : request,
      });
    }
  });
  return entries;
}

// The first bytes of real files, so that sniffing and binary content look as in production.
const JPEG =
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==';
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PDF = Buffer.from(
  '%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
).toString('base64');
const ZIP = 'UEsDBBQAAAAIAAAAIQDfpNJsWgEAACAFAAATAAgCW0NvbnRlbnRfVHlwZXNdLnhtbCCiBAIooAAC';

const UPLOADS: [
  string,
  { name: string; value?: string; filename?: string; type?: string; base64?: string }[],
][] = [
  ['/profile/avatar', [{ name: 'avatar', filename: 'me.jpg', type: 'image/jpeg', base64: JPEG }]],
  [
    '/profile/avatar',
    [{ name: 'avatar', filename: 'Screenshot 2024-05-01 at 10.15.32.png', type: 'image/png', base64: PNG }],
  ],
  [
    '/careers/apply',
    [
      { name: 'name', value: "Siobhán O'Neill" },
      { name: 'email', value: 'siobhan@example.ie' },
      { name: 'cv', filename: "CV - Siobhán O'Neill.pdf", type: 'application/pdf', base64: PDF },
    ],
  ],
  [
    '/import/contacts',
    [
      { name: 'list', value: 'customers' },
      {
        name: 'file',
        filename: 'contacts.csv',
        type: 'text/csv',
        value:
          'name,email,notes\n"O\'Brien, Pat",pat@example.com,"likes <3 emojis; prefers email"\n"Smith & Co",info@smith.example,"select plan: pro"\n',
      },
    ],
  ],
  [
    '/documents/upload',
    [
      { name: 'folder', value: '/Finance/2024' },
      { name: 'doc', filename: 'Q1 report (final).pdf', type: 'application/pdf', base64: PDF },
    ],
  ],
  [
    '/support/attachments',
    [
      { name: 'ticket', value: '5521' },
      {
        name: 'file',
        filename: 'error-log.txt',
        type: 'text/plain',
        value:
          "2024-05-01 10:00:01 ERROR Could not connect to database 'orders' (timeout after 30s)\n2024-05-01 10:00:02 INFO retrying...\n",
      },
    ],
  ],
  [
    '/gallery/upload',
    [
      { name: 'album', value: 'Summer 2023' },
      { name: 'caption', value: "Sunset at the union pier — can't beat it!" },
      { name: 'photo', filename: 'IMG_2041.JPG', type: 'image/jpeg', base64: JPEG },
    ],
  ],
  ['/themes/upload', [{ name: 'theme', filename: 'my-theme.zip', type: 'application/zip', base64: ZIP }]],
  [
    '/api/v1/files',
    [
      { name: 'metadata', type: 'application/json', value: '{"name":"notes.md","tags":["draft"]}' },
      {
        name: 'file',
        filename: 'notes.md',
        type: 'text/markdown',
        value: '# Notes\n\n- select venue\n- send invites (use <b>bold</b> for names)\n',
      },
    ],
  ],
  [
    '/blog/media',
    [
      { name: 'alt', value: 'A chart: revenue > costs' },
      { name: 'image', filename: 'chart.png', type: 'image/png', base64: PNG },
    ],
  ],
];

/** Multipart uploads from browsers. */
function uploads(): Entry[] {
  const entries: Entry[] = [];
  UPLOADS.forEach(([path, parts], i) => {
    for (const round of [0, 1]) {
      const n = i * 2 + round;
      const host = SITES[n % SITES.length] as string;
      const headers = browserHeaders(host, n, [
        ['Origin', `https://${host}`],
        ['Referer', `https://${host}${path}`],
      ]);
      entries.push({
        name: `upload ${path} (${n})`,
        kind: 'upload',
        request: multipart(`https://${host}${path}`, headers, parts),
      });
    }
  });
  return entries;
}

const BROWSER_FOR_REPORTS = browserHeaders('www.example.com', 0)[1]?.[1] ?? '';

/** Other everyday requests: crawlers, feeds, health checks, HEAD, conditional and range requests. */
function misc(): Entry[] {
  const entries: [string, SampleRequestJson][] = [
    [
      'Googlebot',
      get('https://www.example.com/blog', [
        ['Host', 'www.example.com'],
        ['User-Agent', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
        ['Accept', 'text/html'],
        ['From', 'googlebot(at)googlebot.com'],
      ]),
    ],
    [
      'Bingbot',
      get('https://www.example.com/sitemap.xml', [
        ['Host', 'www.example.com'],
        ['User-Agent', 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'],
        ['Accept', '*/*'],
      ]),
    ],
    [
      'feed reader',
      get('https://news.example.org/feed.rss', [
        ['Host', 'news.example.org'],
        ['User-Agent', 'Feedly/1.0 (+http://www.feedly.com/fetcher.html; 5 subscribers)'],
        ['Accept', 'application/rss+xml'],
        ['If-Modified-Since', 'Wed, 01 May 2024 10:00:00 GMT'],
      ]),
    ],
    [
      'uptime check',
      {
        ...get('https://www.example.com/health', [
          ['Host', 'www.example.com'],
          ['User-Agent', 'UptimeRobot/2.0'],
          ['Accept', '*/*'],
        ]),
        method: 'HEAD',
      },
    ],
    [
      'video range request',
      get(
        'https://www.example.com/media/intro.mp4',
        browserHeaders('www.example.com', 1, [['Range', 'bytes=0-1048575']]),
      ),
    ],
    [
      'conditional CSS',
      get(
        'https://www.example.com/static/css/main.8f2a1c.css',
        browserHeaders('www.example.com', 2, [['If-None-Match', 'W/"5e15153d-120f"']]),
      ),
    ],
    [
      'Slack unfurl',
      get('https://www.example.com/blog/2024/05/why-we-moved-to-postgres', [
        ['Host', 'www.example.com'],
        ['User-Agent', 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'],
        ['Accept', '*/*'],
      ]),
    ],
    [
      'CSP report',
      sendJson(
        'POST',
        'https://www.example.com/csp-report',
        [
          ['Host', 'www.example.com'],
          ['User-Agent', BROWSER_FOR_REPORTS],
          ['Content-Type', 'application/csp-report'],
        ],
        {
          'csp-report': {
            'document-uri': 'https://www.example.com/',
            'violated-directive': "script-src 'self'",
            'blocked-uri': 'inline',
          },
        },
      ),
    ],
    [
      'HTTP/1.0 client',
      {
        ...get('https://www.example.com/', [
          ['Host', 'www.example.com'],
          ['User-Agent', 'Wget/1.21.4'],
          ['Accept', '*/*'],
        ]),
        version: 'HTTP/1.0',
      },
    ],
    [
      'HTTP/3 page',
      {
        ...get(
          'https://www.example.com/pricing',
          browserHeaders('www.example.com', 3).map(([name, value]): [string, string] => [
            name.toLowerCase(),
            value,
          ]),
        ),
        version: 'HTTP/3',
      },
    ],
    [
      'WebSocket upgrade',
      get(
        'https://www.example.com/ws/updates',
        browserHeaders('www.example.com', 0, [
          ['Connection', 'Upgrade'],
          ['Upgrade', 'websocket'],
          ['Sec-WebSocket-Version', '13'],
          ['Sec-WebSocket-Key', 'dGhlIHNhbXBsZSBub25jZQ=='],
        ]),
      ),
    ],
    [
      'PUT object',
      {
        ...sendJson(
          'PUT',
          'https://files.example.com/buckets/photos/2024/beach.jpg',
          [
            ['Host', 'files.example.com'],
            ['User-Agent', 'aws-sdk-js/3.569.0'],
            ['Content-Type', 'image/jpeg'],
          ],
          null,
        ),
        body: { base64: JPEG },
      },
    ],
  ];
  return entries.map(([name, request]) => ({ name, kind: 'misc', request }));
}

export function benignCorpus(): Entry[] {
  return [...pageLoads(), ...searches(), ...apiCalls(), ...forms(), ...uploads(), ...misc()];
}
