import type { Headers } from '../http.js';
import { type CorpusBuilder, forVersion, lengthOf, message } from './build.js';
import {
  APP_AGENTS,
  browserHeaders,
  browserVersion,
  CLI_AGENTS,
  LANGUAGES,
  pickBrowser,
  type Version,
} from './clients.js';
import { cookieHeader, jwt, SOURCES } from './cookies.js';
import { CODE_SNIPPETS, DOCS_SQL, EXPRESSIONS, GRAPHQL, MARKDOWN, RICH_TEXT } from './data/content.js';
import {
  CITIES,
  COMMENTS,
  FIRST_NAMES,
  LAST_NAMES,
  MESSAGES,
  PRODUCTS,
  SEARCHES_EN,
  STREETS,
  TITLES,
} from './data/text.js';
import type { Random } from './random.js';
import { searchText, uriEncode } from './sites.js';

/**
 * API traffic: JSON written by single-page apps, mobile apps and developers' scripts (REST, GraphQL,
 * JSON-RPC), with the bodies real users fill: prose, names, addresses, Markdown with code, HTML from
 * rich-text editors, expressions from settings screens.
 */

export type Caller = 'page' | 'android' | 'ios' | 'cli';

interface Client {
  readonly caller: Caller;
  readonly version: Version;
  readonly ip: string;
  readonly agent: string;
  headers(host: string, body: { type: string; length: string } | undefined, accept?: string): Headers;
}

function person(random: Random) {
  const first = random.pick(FIRST_NAMES);
  const last = random.pick(LAST_NAMES);
  const [city, postcode, country] = random.pick(CITIES);
  const email = `${first}.${last}`
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z.]/g, '')
    .replace(/\.+/g, '.');
  return {
    first,
    last,
    name: `${first} ${last}`,
    email: `${email || 'user'}${random.chance(0.3) ? `+${random.pick(['shop', 'news', '2024'])}` : ''}@${random.pick(['example.com', 'example.org', 'mail.example.net'])}`,
    phone: `+${random.pick(['1 555', '44 20 7946', '49 30 901820', '353 1 555'])} ${random.digits(4)}`,
    address: { line1: random.pick(STREETS), city, postcode, country },
  };
}

export function client(corpus: CorpusBuilder, caller: Caller): Client {
  const { random } = corpus;
  const ip = corpus.ip();
  const token = jwt(random);
  if (caller === 'page') {
    const browser = pickBrowser(random);
    const version = browserVersion(random);
    const language = random.weighted(LANGUAGES);
    const source = random.weighted(SOURCES);
    const cookie = cookieHeader(
      ['express-session', 'segment', 'ga4', ...(random.chance(0.4) ? (['laravel'] as const) : [])],
      random,
      source,
    );
    const bearer = random.chance(0.5);
    const csrf = random.b64url(43);
    return {
      caller,
      version,
      ip,
      agent: browser.userAgent,
      headers: (host, body, accept) => {
        const headers = browserHeaders(host, {
          browser,
          language,
          version,
          dest: 'empty',
          site: host.startsWith('api.') ? 'same-site' : 'same-origin',
          referer: `https://app.example.io/${random.pick(['dashboard', 'projects/812/board', 'settings/profile', 'inbox'])}`,
          ...(host.startsWith('api.') ? { origin: 'https://app.example.io' } : {}),
          cookie: host.startsWith('api.') ? undefined : cookie,
          accept: accept ?? 'application/json, text/plain, */*',
          extra: [
            ...(body ? ([['Content-Type', body.type]] as Headers) : []),
            ...(bearer
              ? ([['Authorization', `Bearer ${token}`]] as Headers)
              : ([['X-CSRF-Token', csrf]] as Headers)),
            ...(random.chance(0.3) ? ([['X-Request-Id', random.uuid()]] as Headers) : []),
          ],
        });
        if (body) headers.push([version === 'HTTP/1.1' ? 'Content-Length' : 'content-length', body.length]);
        return headers;
      },
    };
  }
  if (caller === 'android' || caller === 'ios') {
    const agent = random.pick(APP_AGENTS[caller]);
    const device = caller === 'android' ? random.hex(16) : random.uuid().toUpperCase();
    const language = (random.weighted(LANGUAGES).split(',')[0] as string).replace(
      '-',
      caller === 'ios' ? '-' : '-',
    );
    return {
      caller,
      version: 'HTTP/2',
      ip,
      agent,
      headers: (host, body, accept) =>
        forVersion('HTTP/2', [
          ['host', host],
          ...(caller === 'ios'
            ? ([
                ['accept', accept ?? 'application/json'],
                ...(body ? ([['content-type', body.type]] as Headers) : []),
                ['authorization', `Bearer ${token}`],
                ['x-app-version', '5.2.1'],
                ['x-device-id', device],
                ['accept-language', `${language};q=1.0`],
                ['user-agent', agent],
                ['accept-encoding', 'gzip, deflate, br'],
              ] as Headers)
            : ([
                ['authorization', `Bearer ${token}`],
                ['x-app-version', '5.2.1 (5210)'],
                ['x-platform', 'android'],
                ['x-device-id', device],
                ['accept-language', language],
                ['accept', accept ?? 'application/json'],
                ...(body ? ([['content-type', body.type]] as Headers) : []),
                ['accept-encoding', 'gzip'],
                ['user-agent', agent],
              ] as Headers)),
          ...(body ? ([['content-length', body.length]] as Headers) : []),
        ]),
    };
  }
  const agent = random.weighted(CLI_AGENTS);
  const auth: [string, string] = random.pick([
    ['Authorization', `Bearer ${random.pick(['sk_live_', 'sk_test_', 'pat_', 'ghp_'])}${random.alnum(40)}`],
    ['Authorization', `Token ${random.hex(40)}`],
    ['Authorization', `Basic ${Buffer.from(`api:${random.alnum(24)}`).toString('base64')}`],
    ['X-API-Key', random.alnum(32)],
  ] as [string, string][]);
  return {
    caller,
    version: agent.startsWith('Go-http') ? 'HTTP/2' : 'HTTP/1.1',
    ip,
    agent,
    headers: (host, body, accept) => {
      const h: Headers = [['Host', host]];
      if (agent.startsWith('HTTPie')) {
        h.push(
          ['User-Agent', agent],
          ['Accept-Encoding', 'gzip, deflate, br'],
          ['Accept', accept ?? 'application/json, */*;q=0.5'],
          ['Connection', 'keep-alive'],
        );
      } else if (agent.startsWith('python-requests')) {
        h.push(
          ['User-Agent', agent],
          ['Accept-Encoding', 'gzip, deflate'],
          ['Accept', accept ?? '*/*'],
          ['Connection', 'keep-alive'],
        );
      } else if (agent.startsWith('Postman')) {
        h.push(
          ['User-Agent', agent],
          ['Accept', accept ?? '*/*'],
          ['Cache-Control', 'no-cache'],
          ['Postman-Token', random.uuid()],
          ['Accept-Encoding', 'gzip, deflate, br'],
          ['Connection', 'keep-alive'],
        );
      } else if (agent.startsWith('curl') || agent.startsWith('Wget')) {
        h.push(['User-Agent', agent], ['Accept', accept ?? '*/*']);
      } else {
        h.push(['User-Agent', agent], ['Accept', accept ?? 'application/json'], ['Accept-Encoding', 'gzip']);
      }
      h.push(auth);
      if (body) h.push(['Content-Type', body.type], ['Content-Length', body.length]);
      return forVersion(agent.startsWith('Go-http') ? 'HTTP/2' : 'HTTP/1.1', h);
    },
  };
}

const CALLERS: readonly (readonly [number, Caller])[] = [
  [60, 'page'],
  [14, 'android'],
  [14, 'ios'],
  [6, 'cli'],
];

function sendJson(
  corpus: CorpusBuilder,
  kind: string,
  c: Client,
  method: string,
  host: string,
  target: string,
  json: unknown,
  label: string,
): void {
  const body = json === undefined ? undefined : JSON.stringify(json);
  const headers = c.headers(
    host,
    body === undefined
      ? undefined
      : {
          type: random(corpus).pick([
            'application/json',
            'application/json',
            'application/json; charset=utf-8',
          ]),
          length: lengthOf(body),
        },
  );
  corpus.add(
    kind,
    `${method} ${host}${target.split('?')[0]} ${label} (${c.caller}: ${c.agent.slice(0, 30)})`,
    message({
      method,
      host,
      target,
      version: c.version,
      headers,
      clientIp: c.ip,
      ...(body === undefined ? {} : { body }),
    }),
  );
}

const random = (corpus: CorpusBuilder) => corpus.random;

interface Write {
  readonly kind: 'api-write' | 'api-code';
  readonly method: string;
  readonly path: string;
  readonly json: unknown;
  readonly label: string;
}

/** The writes an app's users make, each with a realistic body. */
function writes(r: Random): (() => Write)[] {
  const p = person(r);
  const product = r.pick(PRODUCTS);
  const id = r.int(1000, 99999);
  const when = new Date(r.time() * 1000).toISOString();
  return [
    () => ({
      kind: 'api-write',
      method: 'POST',
      path: '/api/v1/orders',
      json: {
        items: [
          { sku: `${r.alnum(2).toUpperCase()}-${r.int(100, 9999)}`, qty: r.int(1, 3), name: product.name },
          ...(r.chance(0.5)
            ? [
                {
                  sku: `GC-${r.int(10, 99)}`,
                  qty: 1,
                  giftMessage: r.pick([
                    'Happy birthday, Mum! Love, J & K',
                    'Congrats on the new job 🎉',
                    "For O'Brien's retirement",
                  ]),
                },
              ]
            : []),
        ],
        shipping: { name: p.name, ...p.address, phone: p.phone },
        note: r.pick([
          "Leave at O'Brien's door, ring twice",
          'Please deliver after 5pm -- nobody home before',
          'Gate code: #4521*',
          '',
          'Fragile: glass & ceramics!',
        ]),
        coupon: r.pick([null, 'SPRING-2024', 'WELCOME10']),
      },
      label: 'new order',
    }),
    () => ({
      kind: 'api-write',
      method: r.pick(['PUT', 'PATCH']),
      path: `/api/v1/users/${id}`,
      json: {
        firstName: p.first,
        lastName: p.last,
        email: p.email,
        phone: p.phone,
        address: p.address,
        bio: r.pick([
          'I love <3 coding & design. Previously @ Acme; now freelancing.',
          'Dad, runner, C++ & Rust dev.',
          'Rock & roll, select vintage vinyl, union rep.',
          '',
        ]),
      },
      label: `profile of ${p.name}`,
    }),
    () => ({
      kind: 'api-write',
      method: 'POST',
      path: '/api/v1/tickets',
      json: {
        subject: r.pick(['Order question', 'Refund', 'Bug report', 'Where is my order?', 'Billing']),
        message: r.pick(MESSAGES),
        email: p.email,
        priority: r.pick(['low', 'normal', 'high']),
        orderId: r.chance(0.5) ? `#${r.int(100000, 109999)}` : null,
      },
      label: 'support ticket',
    }),
    () => ({
      kind: 'api-write',
      method: 'POST',
      path: `/api/v1/posts/${id}/comments`,
      json: { body: r.pick(COMMENTS), parentId: r.chance(0.3) ? r.int(1, 9999) : null },
      label: 'comment',
    }),
    () => ({
      kind: 'api-write',
      method: 'POST',
      path: '/api/v1/products',
      json: {
        title: product.name,
        descriptionHtml: `<p>${product.description.replace(/&(?!amp;)/g, '&amp;')}</p>`,
        price: (r.int(500, 99999) / 100).toFixed(2),
        tags: r.some(['sale', 'new', 'outdoor', 'gift', 'eco'], 2),
        status: 'draft',
      },
      label: 'product (admin)',
    }),
    () => ({
      kind: 'api-write',
      method: r.pick(['PUT', 'PATCH']),
      path: `/api/v1/documents/${id}`,
      json: {
        title: r.pick(TITLES),
        content: r.some(RICH_TEXT, r.int(1, 4)).join(''),
        updatedAt: when,
        version: r.int(1, 80),
      },
      label: 'rich-text document',
    }),
    () => ({
      kind: 'api-write',
      method: 'POST',
      path: '/api/v1/messages',
      json: { conversationId: r.uuid(), text: r.pick([...COMMENTS, ...MESSAGES]), attachments: [] },
      label: 'chat message',
    }),
    () => ({
      kind: 'api-write',
      method: 'POST',
      path: '/api/v1/events',
      json: {
        batch: Array.from({ length: r.int(1, 4) }, () => ({
          event: r.pick(['Product Viewed', 'Order Completed', 'Signed Up', 'Search Performed']),
          properties: {
            query: r.pick(SEARCHES_EN),
            url: `https://shop.example.com/products/${r.int(1, 999)}`,
            referrer: 'https://www.google.com/',
            price: r.int(1, 300),
          },
          timestamp: when,
          anonymousId: r.uuid(),
        })),
        sentAt: when,
      },
      label: 'analytics batch',
    }),
    () => ({
      kind: 'api-write',
      method: 'PATCH',
      path: `/api/v1/settings`,
      json: {
        theme: r.pick(['dark', 'light']),
        timezone: r.pick(['Europe/Berlin', 'America/New_York', 'Asia/Kolkata']),
        notifications: { email: r.chance(0.5), push: true, digest: r.pick(['daily', 'weekly', 'never']) },
        signature: `-- \n${p.name}\n${r.pick(['Acme Corp.', 'Smith & Sons Ltd', "O'Reilly Media"])}`,
      },
      label: 'settings',
    }),
    () => ({
      kind: 'api-write',
      method: 'PATCH',
      path: `/api/v1/articles/${id}`,
      json: [
        { op: 'replace', path: '/title', value: r.pick(TITLES) },
        { op: 'add', path: '/tags/-', value: r.pick(['sql', 'c++', 'rock & roll', 'union']) },
        { op: 'remove', path: '/draft' },
      ],
      label: 'JSON Patch',
    }),
    () => ({
      kind: 'api-write',
      method: 'POST',
      path: '/api/v1/calendar/events',
      json: {
        title: r.pick([
          '1:1 Jane / Omar',
          'Sprint review (Q2)',
          "Lunch @ O'Malley's",
          'Union meeting – room 4B',
        ]),
        start: when,
        end: new Date((r.time() + 3600) * 1000).toISOString(),
        attendees: [p.email, 'team@example.com'],
        description:
          'Agenda:\n1) status\n2) blockers\n3) AOB\n\nJoin: https://meet.example.com/abc-defg-hij?pwd=Xy7',
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10'],
      },
      label: 'calendar event',
    }),
    () => ({
      kind: 'api-write',
      method: 'POST',
      path: '/api/v1/avatars',
      json: {
        image: `data:image/${r.pick(['png', 'jpeg', 'webp'])};base64,${r.base64(r.int(3000, 24000))}`,
        crop: { x: 0, y: 0, w: 256, h: 256 },
      },
      label: 'avatar as base64',
    }),
    () => ({
      kind: 'api-write',
      method: 'POST',
      path: '/api/v1/devices',
      json: {
        platform: r.pick(['android', 'ios']),
        pushToken: `${r.b64url(22)}:APA91b${r.b64url(134)}`,
        appVersion: '5.2.1',
        locale: 'en_US',
        timezone: 'Europe/Dublin',
      },
      label: 'push token',
    }),
    () => ({
      kind: 'api-write',
      method: 'PUT',
      path: `/api/v1/carts/${r.uuid()}`,
      json: {
        lines: [
          {
            variantId: r.digits(14),
            quantity: r.int(1, 4),
            properties: { engraving: r.pick(['J & K 4ever', "Seán's", 'Love, Mum <3', '']) },
          },
        ],
        note: '',
      },
      label: 'cart',
    }),
    () => ({
      kind: 'api-write',
      method: 'POST',
      path: '/api/v1/reviews',
      json: {
        productId: r.int(1, 999),
        rating: r.int(1, 5),
        title: r.pick(['Great!', 'Not what I expected', 'Runs small -- order 1/2 size up', '5 stars!!!']),
        body: r.pick(COMMENTS),
        author: p.first,
      },
      label: 'review',
    }),
    () => ({
      kind: 'api-write',
      method: 'POST',
      path: '/api/v1/search',
      json: {
        query: searchText(r),
        filters: {
          category: r.pick(['shoes', 'jackets', 'all']),
          price: { gte: 10, lte: 200 },
          inStock: true,
        },
        sort: [{ field: 'price', order: 'asc' }],
        page: r.int(1, 5),
      },
      label: 'search',
    }),
    () => ({
      kind: 'api-write',
      method: 'POST',
      path: '/api/v1/translations',
      json: {
        key: 'cart.items',
        en: '{count, plural, one {# item} other {# items}} in your cart',
        de: '{count, plural, one {# Artikel} other {# Artikel}} im Warenkorb',
        fr: "{count, plural, one {# article} other {# articles}} dans votre panier d'achat",
      },
      label: 'ICU message',
    }),
    () => ({
      kind: 'api-code',
      method: 'POST',
      path: '/api/v1/posts',
      json: {
        title: r.pick(TITLES),
        body: r.pick(MARKDOWN),
        tags: r.some(['docker', 'sql', 'javascript', 'devops', 'python'], 2),
        draft: r.chance(0.3),
      },
      label: 'Markdown post with code',
    }),
    () => ({
      kind: 'api-code',
      method: 'POST',
      path: '/api/v1/snippets',
      json: (() => {
        const snippet = r.pick(CODE_SNIPPETS);
        return {
          title: `${snippet.language} snippet`,
          language: snippet.language,
          code: snippet.code,
          visibility: 'private',
        };
      })(),
      label: 'code snippet',
    }),
    () => ({
      kind: 'api-code',
      method: r.pick(['POST', 'PUT']),
      path: `/api/v1/rules${r.chance(0.5) ? `/${r.hex(32)}` : ''}`,
      json: {
        description: r.pick([
          'Block admin from outside the office',
          'Alert on error rate',
          'Open high-priority issues',
          'Adults in Germany',
        ]),
        expression: r.pick(EXPRESSIONS),
        action: r.pick(['block', 'log', 'notify']),
        enabled: true,
      },
      label: 'rule expression',
    }),
    () => ({
      kind: 'api-code',
      method: 'PUT',
      path: `/api/v1/docs/pages/${r.pick(['select-queries', 'joins-and-unions', 'indexes', 'maintenance'])}`,
      json: {
        title: 'SQL examples',
        blocks: [
          { type: 'paragraph', text: 'Run this in the console:' },
          { type: 'code', language: 'sql', text: r.pick(DOCS_SQL) },
        ],
        publishedAt: when,
      },
      label: 'docs CMS page with SQL',
    }),
    () => ({
      kind: 'api-code',
      method: 'PUT',
      path: `/api/v1/email-templates/${r.pick(['order-confirmation', 'welcome', 'shipping'])}`,
      json: {
        subject: r.pick(['Your order {{ order.name }} is confirmed', 'Welcome, {{ customer.first_name }}!']),
        html: r.pick([
          '<p>Hi {{ customer.first_name }},</p>{% if order.shipping_address %}<p>Shipping to {{ order.shipping_address.city }}</p>{% endif %}',
          '<p>Hello {{#if user.name}}{{user.name}}{{else}}there{{/if}},</p><p>Thanks for joining!</p>',
          '<h1>Thanks for your order</h1>{% for line in order.line_items %}<p>{{ line.quantity }} × {{ line.title }}</p>{% endfor %}',
        ]),
      },
      label: 'mail template',
    }),
  ];
}

/** REST calls: writes with bodies, and deletes. */
export function restWrite(corpus: CorpusBuilder): void {
  const r = corpus.random;
  const caller = r.weighted(CALLERS);
  const c = client(corpus, caller);
  const host = caller === 'page' ? r.pick(['app.example.io', 'api.example.com']) : 'api.example.com';
  if (r.chance(0.08)) {
    const target = r.pick([
      `/api/v1/cart/items/${r.int(1, 999)}`,
      `/api/v1/sessions/current`,
      `/api/v1/projects/${r.digits(6)}/members/${r.int(1, 99)}`,
      `/api/v1/notifications/${r.uuid()}`,
    ]);
    sendJson(corpus, 'api-write', c, 'DELETE', host, target, undefined, 'delete');
    return;
  }
  const write = r.pick(writes(r))();
  sendJson(corpus, write.kind, c, write.method, host, write.path, write.json, write.label);
}

/** GETs of an app's JSON API (mobile apps and scripts; pages' fetches are in the visits). */
export function restRead(corpus: CorpusBuilder): void {
  const r = corpus.random;
  const caller = r.weighted([
    [40, 'android'],
    [40, 'ios'],
    [20, 'cli'],
  ] as const);
  const c = client(corpus, caller);
  const target = r.weighted([
    [5, `/v1/feed?cursor=${r.b64url(24)}&limit=20`],
    [
      4,
      `/v1/products?category=${r.int(1, 40)}&sort=${r.pick(['price_asc', '-created_at', 'popular'])}&page=${r.int(1, 9)}&per_page=20&q=${uriEncode(searchText(r))}`,
    ],
    [3, `/v1/orders/${r.int(100000, 999999)}?expand[]=customer&expand[]=line_items`],
    [3, '/v1/me'],
    [
      2,
      `/v1/stores/nearby?lat=${(r.next() * 180 - 90).toFixed(4)}&lng=${(r.next() * 360 - 180).toFixed(4)}&radius=10km`,
    ],
    [2, `/v1/customers?email=${uriEncode(person(r).email)}&limit=1`],
    [2, `/v1/config?platform=${caller}&app_version=5.2.1&build=5210&locale=en_US`],
    [2, `/v1/notifications?since=${uriEncode(new Date(r.time() * 1000).toISOString())}&unread_only=true`],
    [1, `/v1/charges?created[gte]=${r.time()}&limit=100&starting_after=ch_${r.alnum(24)}`],
    [
      1,
      `/v1/articles?fields=id,title,excerpt&include=author&filter[tag]=${uriEncode(r.pick(['c++', 'rock & roll', 'union', "o'reilly"]))}`,
    ],
  ]);
  sendJson(
    corpus,
    caller === 'cli' ? 'cli' : 'mobile-app',
    c,
    'GET',
    'api.example.com',
    target,
    undefined,
    'read',
  );
}

/** Mobile apps' writes: the same API, from the apps. */
export function mobileWrite(corpus: CorpusBuilder): void {
  const r = corpus.random;
  const c = client(corpus, r.pick(['android', 'ios'] as const));
  const write = r.pick(writes(r).slice(0, 17))();
  sendJson(
    corpus,
    'mobile-app',
    c,
    write.method,
    'api.example.com',
    write.path.replace('/api', ''),
    write.json,
    write.label,
  );
}

/** A developer calling their own API from a terminal or a script. */
export function cliCall(corpus: CorpusBuilder): void {
  const r = corpus.random;
  const c = client(corpus, 'cli');
  const write = r.pick(writes(r))();
  if (r.chance(0.5))
    sendJson(
      corpus,
      'cli',
      c,
      write.method,
      'api.example.com',
      write.path.replace('/api', ''),
      write.json,
      write.label,
    );
  else
    sendJson(
      corpus,
      'cli',
      c,
      r.pick(['GET', 'HEAD']),
      'api.example.com',
      r.pick([
        '/v1/health',
        '/v1/me',
        `/v1/orders?status=open&limit=${r.int(1, 100)}`,
        `/v1/exports/${r.uuid()}/status`,
      ]),
      undefined,
      'read',
    );
}

/** GraphQL from web and mobile clients, as POSTs and as persisted-query GETs. */
export function graphql(corpus: CorpusBuilder): void {
  const r = corpus.random;
  const caller = r.weighted([
    [60, 'page'],
    [20, 'ios'],
    [20, 'android'],
  ] as const);
  const c = client(corpus, caller);
  const doc = r.pick(GRAPHQL);
  const variables =
    doc.operationName === 'SearchProducts' ? { ...doc.variables, query: searchText(r) } : doc.variables;
  if (r.chance(0.25) && !doc.query.startsWith('mutation')) {
    const extensions = { persistedQuery: { version: 1, sha256Hash: r.hex(64) } };
    const target = `/graphql?operationName=${doc.operationName}&variables=${uriEncode(JSON.stringify(variables))}&extensions=${uriEncode(JSON.stringify(extensions))}`;
    sendJson(
      corpus,
      'graphql',
      c,
      'GET',
      'api.example.com',
      target,
      undefined,
      `${doc.operationName} (persisted query)`,
    );
    return;
  }
  sendJson(
    corpus,
    'graphql',
    c,
    'POST',
    caller === 'page' ? 'app.example.io' : 'api.example.com',
    '/graphql',
    { operationName: doc.operationName, query: doc.query, variables },
    doc.operationName,
  );
}

/** JSON-RPC: a wallet talking to a node, an ERP's web client, a generic RPC service. */
export function jsonRpc(corpus: CorpusBuilder): void {
  const r = corpus.random;
  const c = client(corpus, r.pick(['page', 'cli'] as const));
  const address = `0x${r.hex(40)}`;
  const call = r.weighted([
    [
      3,
      {
        path: '/rpc',
        json: { jsonrpc: '2.0', id: r.int(1, 999), method: 'eth_getBalance', params: [address, 'latest'] },
      },
    ],
    [
      2,
      {
        path: '/rpc',
        json: {
          jsonrpc: '2.0',
          id: r.int(1, 999),
          method: 'eth_call',
          params: [{ to: address, data: `0x70a08231000000000000000000000000${r.hex(40)}` }, 'latest'],
        },
      },
    ],
    [1, { path: '/rpc', json: { jsonrpc: '2.0', id: r.int(1, 999), method: 'eth_blockNumber', params: [] } }],
    [
      2,
      {
        path: '/web/dataset/call_kw/res.partner/search_read',
        json: {
          jsonrpc: '2.0',
          method: 'call',
          id: r.int(1, 999),
          params: {
            model: 'res.partner',
            method: 'search_read',
            args: [
              [
                ['is_company', '=', true],
                ['name', 'ilike', r.pick(["O'Brien", 'Smith & Sons', 'Müller'])],
              ],
            ],
            kwargs: {
              fields: ['name', 'email', 'phone'],
              limit: 80,
              order: 'name asc',
              context: { lang: 'en_US', tz: 'Europe/Brussels' },
            },
          },
        },
      },
    ],
    [
      1,
      {
        path: '/api/rpc',
        json: {
          jsonrpc: '2.0',
          id: r.uuid(),
          method: 'tasks.create',
          params: { title: r.pick(TITLES), notes: r.pick(MESSAGES), due: '2024-05-31' },
        },
      },
    ],
    [
      1,
      {
        path: '/api/rpc',
        json: [
          { jsonrpc: '2.0', id: 1, method: 'user.get', params: { id: r.int(1, 999) } },
          { jsonrpc: '2.0', id: 2, method: 'user.permissions', params: { id: r.int(1, 999) } },
        ],
      },
    ],
  ]);
  sendJson(
    corpus,
    'json-rpc',
    c,
    'POST',
    'api.example.com',
    call.path,
    call.json,
    Array.isArray(call.json)
      ? 'batch'
      : String(
          (call.json as { method: string; params: { method?: string } }).params?.method ??
            (call.json as { method: string }).method,
        ),
  );
}
