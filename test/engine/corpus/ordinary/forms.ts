import { type CorpusBuilder, lengthOf, message } from './build.js';
import { browserHeaders, browserVersion, LANGUAGES, pickBrowser } from './clients.js';
import { type CookieStyle, cookieHeader, SOURCES } from './cookies.js';
import { BORDERLINE_POSTS, MARKDOWN } from './data/content.js';
import { CITIES, COMMENTS, FIRST_NAMES, LAST_NAMES, MESSAGES, STREETS } from './data/text.js';
import type { Random } from './random.js';

/**
 * HTML forms as browsers post them (urlencoded, spaces as `+`, line breaks as CRLF) on the frameworks that
 * serve them, hidden fields included, and multipart uploads of real file types.
 */

interface Post {
  readonly host: string;
  readonly path: string;
  readonly from: string;
  readonly cookies: readonly CookieStyle[];
  readonly contentType: string;
  readonly body: string | Buffer;
  readonly label: string;
}

function submit(corpus: CorpusBuilder, kind: string, post: Post): void {
  const r = corpus.random;
  const browser = pickBrowser(r);
  const version = browserVersion(r);
  const source = r.weighted(SOURCES);
  const bytes = typeof post.body === 'string' ? Buffer.from(post.body) : post.body;
  const headers = browserHeaders(post.host, {
    browser,
    language: r.weighted(LANGUAGES),
    version,
    dest: 'document',
    site: 'same-origin',
    origin: `https://${post.host}`,
    referer: `https://${post.host}${post.from}`,
    cookie: cookieHeader(post.cookies, r, source),
    reload: true,
    extra: [['Content-Type', post.contentType]],
  });
  headers.push([version === 'HTTP/1.1' ? 'Content-Length' : 'content-length', String(bytes.length)]);
  corpus.add(
    kind,
    `POST ${post.host}${post.path} ${post.label} (${browser.family})`,
    message({
      method: 'POST',
      host: post.host,
      target: post.path,
      version,
      headers,
      clientIp: corpus.ip(),
      body: { base64: bytes.toString('base64') },
    }),
  );
}

const form = (fields: [string, string][]) => new URLSearchParams(fields).toString();
const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');

function person(r: Random) {
  const first = r.pick(FIRST_NAMES);
  const last = r.pick(LAST_NAMES);
  const email =
    `${first}.${last}`
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z.]/g, '') || 'user';
  return { first, last, email: `${email}@example.${r.pick(['com', 'org', 'net'])}` };
}

const PASSWORDS = [
  "P@ss'w0rd!#2024",
  'correct horse battery staple',
  'S3cure&Long-Passphrase',
  'hunter2hunter2',
  'Tr0ub4dor&3',
  'my "secret" pass',
  'ÄpfelBäume!99',
  '1q2w3e4r5t',
  "O'Reilly-2024!",
  '<MyP4ss>',
];

/** Forms of the common frameworks. */
export function formPost(corpus: CorpusBuilder): void {
  const r = corpus.random;
  const p = person(r);
  const [city, postcode, country] = r.pick(CITIES);
  const posts: [number, () => Post][] = [
    [
      8,
      () => ({
        host: 'shop.example.com',
        path: '/account/login',
        from: '/account/login',
        cookies: ['ga4', 'onetrust', 'rails'],
        contentType: 'application/x-www-form-urlencoded',
        body: form([
          ['form_type', 'customer_login'],
          ['utf8', '✓'],
          ['customer[email]', p.email],
          ['customer[password]', r.pick(PASSWORDS)],
          ['return_url', '/account'],
        ]),
        label: 'login (Shopify-style)',
      }),
    ],
    [
      6,
      () => ({
        host: 'community.example.net',
        path: '/users/sign_in',
        from: '/users/sign_in',
        cookies: ['rails'],
        contentType: 'application/x-www-form-urlencoded',
        body: form([
          ['authenticity_token', `${r.b64url(86)}==`],
          ['user[email]', p.email],
          ['user[password]', r.pick(PASSWORDS)],
          ['user[remember_me]', r.pick(['0', '1'])],
          ['commit', 'Log in'],
        ]),
        label: 'login (Rails)',
      }),
    ],
    [
      5,
      () => ({
        host: 'app.example.io',
        path: '/accounts/signup/',
        from: '/accounts/signup/',
        cookies: ['django'],
        contentType: 'application/x-www-form-urlencoded',
        body: form([
          ['csrfmiddlewaretoken', r.alnum(64)],
          ['first_name', p.first],
          ['last_name', p.last],
          ['email', p.email],
          ['password1', r.pick(PASSWORDS)],
          ['password2', r.pick(PASSWORDS)],
          ['company', r.pick(["O'Reilly Media", 'Smith & Sons', 'Acme, Inc.', 'AT&T', ''])],
          ['terms', 'on'],
        ]),
        label: 'signup (Django)',
      }),
    ],
    [
      8,
      () => ({
        host: 'www.example.com',
        path: '/contact',
        from: '/contact',
        cookies: ['hubspot', 'cookiebot'],
        contentType: 'application/x-www-form-urlencoded',
        body: form([
          ['_token', r.alnum(40)],
          ['name', `${p.first} ${p.last}`],
          ['email', p.email],
          ['phone', r.pick(['+1 (555) 010-9999', '+44 20 7946 0958', '030 901820-0', ''])],
          ['subject', r.pick(['Sales', 'Support', 'Press', 'Partnership'])],
          ['message', crlf(r.pick(MESSAGES))],
          ['consent', '1'],
        ]),
        label: 'contact (Laravel)',
      }),
    ],
    [
      6,
      () => ({
        host: 'news.example.org',
        path: '/wp-comments-post.php',
        from: `/2024/05/${r.int(10, 28)}/${r.pick(['why-we-moved', 'union-vs-union-all', 'rock-roll-playlist'])}/`,
        cookies: ['universal-analytics', 'cookieconsent-json'],
        contentType: 'application/x-www-form-urlencoded',
        body: form([
          ['comment', crlf(r.pick([...COMMENTS, ...MESSAGES.slice(0, 6)]))],
          ['author', `${p.first} ${p.last}`],
          ['email', p.email],
          ['url', r.pick(['', 'https://jane.example.net/', 'http://www.example.org/~sam'])],
          ['wp-comment-cookies-consent', 'yes'],
          ['submit', 'Post Comment'],
          ['comment_post_ID', String(r.int(100, 9999))],
          ['comment_parent', r.pick(['0', String(r.int(1, 999))])],
          ['akismet_comment_nonce', r.hex(10)],
          ['ak_js', String(r.time() * 1000)],
        ]),
        label: 'comment (WordPress)',
      }),
    ],
    [
      6,
      () => ({
        host: 'shop.example.com',
        path: '/checkout/',
        from: '/checkout/',
        cookies: ['woocommerce', 'ga4', 'facebook'],
        contentType: 'application/x-www-form-urlencoded; charset=UTF-8',
        body: form([
          ['billing_first_name', p.first],
          ['billing_last_name', p.last],
          ['billing_company', r.pick(['', 'Smith & Sons Ltd', "O'Neil's Pub"])],
          ['billing_country', country],
          ['billing_address_1', r.pick(STREETS)],
          ['billing_address_2', r.pick(['', 'Apt #4', 'c/o Reception', '2nd floor (use side door)'])],
          ['billing_city', city],
          ['billing_postcode', postcode],
          ['billing_phone', r.pick(['+353 1 555 0100', '(555) 010-9999'])],
          ['billing_email', p.email],
          [
            'order_comments',
            crlf(
              r.pick([
                '',
                'Please ring the bell twice.\nIf nobody answers, leave with neighbour (No. 12).',
                "Gift -- don't include the invoice!",
              ]),
            ),
          ],
          ['payment_method', r.pick(['stripe', 'paypal', 'cod'])],
          ['woocommerce-process-checkout-nonce', r.hex(10)],
          ['_wp_http_referer', '/?wc-ajax=update_order_review'],
        ]),
        label: 'checkout (WooCommerce)',
      }),
    ],
    [
      4,
      () => ({
        host: 'portal.example.org',
        path: '/Account/Login.aspx?ReturnUrl=%2fPortal%2fDefault.aspx',
        from: '/Account/Login.aspx?ReturnUrl=%2fPortal%2fDefault.aspx',
        cookies: ['aspnet'],
        contentType: 'application/x-www-form-urlencoded',
        body: form([
          ['__EVENTTARGET', ''],
          ['__EVENTARGUMENT', ''],
          ['__VIEWSTATE', `/wEPDwUK${r.base64(r.int(600, 3000))}`],
          ['__VIEWSTATEGENERATOR', r.hex(8).toUpperCase()],
          ['__EVENTVALIDATION', `/wEdAA${r.base64(r.int(100, 300))}`],
          ['ctl00$MainContent$txtUserName', p.email],
          ['ctl00$MainContent$txtPassword', r.pick(PASSWORDS)],
          ['ctl00$MainContent$chkRememberMe', 'on'],
          ['ctl00$MainContent$btnLogin', 'Log in'],
        ]),
        label: 'login (ASP.NET WebForms)',
      }),
    ],
    [
      4,
      () => ({
        host: 'portal.example.org',
        path: '/Reports/View.aspx?id=812',
        from: '/Reports/View.aspx?id=812',
        cookies: ['aspnet'],
        contentType: 'application/x-www-form-urlencoded',
        body: form([
          ['ctl00$ScriptManager1', 'ctl00$MainContent$UpdatePanel1|ctl00$MainContent$ddlPeriod'],
          ['__EVENTTARGET', 'ctl00$MainContent$ddlPeriod'],
          ['__EVENTARGUMENT', ''],
          ['__LASTFOCUS', ''],
          ['__VIEWSTATE', `/wEPDwUKLTM${r.base64(r.int(2000, 8000))}`],
          ['__VIEWSTATEGENERATOR', r.hex(8).toUpperCase()],
          ['ctl00$MainContent$ddlPeriod', r.pick(['Last 7 days', 'This month', 'Q1 2024'])],
          ['ctl00$MainContent$txtFilter', r.pick(["O'Brien", 'Smith & Sons', ''])],
          ['__ASYNCPOST', 'true'],
        ]),
        label: 'postback (ASP.NET)',
      }),
    ],
    [
      4,
      () => ({
        host: 'www.example.com',
        path: '/newsletter/subscribe',
        from: r.pick(['/', '/blog/why-we-moved', '/pricing']),
        cookies: ['hubspot'],
        contentType: 'application/x-www-form-urlencoded',
        body: form([
          ['email', p.email.replace('@', `+news@`)],
          ['topics[]', 'product'],
          ['topics[]', r.pick(['engineering', 'events'])],
          ['source', 'footer'],
        ]),
        label: 'newsletter',
      }),
    ],
    [
      3,
      () => ({
        host: 'app.example.io',
        path: '/password/reset',
        from: '/password/forgot',
        cookies: ['express-session'],
        contentType: 'application/x-www-form-urlencoded',
        body: form([
          ['token', r.hex(64)],
          ['email', p.email],
          ['password', r.pick(PASSWORDS)],
          ['password_confirmation', r.pick(PASSWORDS)],
        ]),
        label: 'password reset',
      }),
    ],
    [
      3,
      () => ({
        host: 'www.example.com',
        path: '/user/login?destination=/node/12%23comment-form',
        from: '/user/login',
        cookies: ['ga4'],
        contentType: 'application/x-www-form-urlencoded',
        body: form([
          ['name', p.email],
          ['pass', r.pick(PASSWORDS)],
          ['form_build_id', `form-${r.b64url(43)}`],
          ['form_id', 'user_login_form'],
          ['op', 'Log in'],
        ]),
        label: 'login (Drupal)',
      }),
    ],
    [
      3,
      () => ({
        host: 'shop.example.com',
        path: '/cart',
        from: '/cart',
        cookies: ['ga4', 'rails'],
        contentType: 'application/x-www-form-urlencoded',
        body: form([
          ['updates[]', String(r.int(1, 3))],
          ['updates[]', String(r.int(0, 2))],
          ['note', r.pick(['', 'Gift wrap please 🎁', "It's a surprise -- don't ring!"])],
          ['attributes[Delivery date]', '2024-05-24'],
          ['checkout', ''],
        ]),
        label: 'cart update',
      }),
    ],
    [
      3,
      () => ({
        host: 'www.example.com',
        path: '/survey/submit',
        from: '/survey',
        cookies: ['hubspot'],
        contentType: 'application/x-www-form-urlencoded',
        body: form([
          ['q1', r.pick(['Very satisfied', 'Satisfied', 'Neutral'])],
          ['q2[]', 'Price'],
          ['q2[]', 'Quality & durability'],
          ['q3', r.pick(['10', '9', '7'])],
          [
            'q4',
            crlf(
              r.pick([
                "Faster delivery would be great.\nAlso: the 'select all' box is hard to find.",
                'Nothing -- keep it up!',
                'Support (esp. Maria) was excellent <3',
              ]),
            ),
          ],
        ]),
        label: 'survey',
      }),
    ],
    [
      4,
      () => ({
        host: 'community.example.net',
        path: '/posts',
        from: `/t/${r.pick(['union-vs-join-performance', 'where-is-my-order', 'announcing-v2-4'])}/${r.int(100, 9999)}`,
        cookies: ['rails', 'ga4'],
        contentType: 'application/x-www-form-urlencoded; charset=UTF-8',
        body: form([
          ['raw', r.chance(0.5) ? r.pick(MARKDOWN) : r.pick(COMMENTS)],
          ['unlist_topic', 'false'],
          ['topic_id', String(r.int(100, 9999))],
          ['category', String(r.int(1, 30))],
          ['is_warning', 'false'],
          ['archetype', 'regular'],
          ['typing_duration_msecs', String(r.int(1000, 90000))],
          ['composer_open_duration_msecs', String(r.int(1000, 120000))],
          ['nested_post', 'true'],
        ]),
        label: 'forum reply (Markdown)',
      }),
    ],
    [
      3,
      () => ({
        host: 'news.example.org',
        path: '/wp-admin/admin-ajax.php',
        from: '/',
        cookies: ['universal-analytics'],
        contentType: 'application/x-www-form-urlencoded; charset=UTF-8',
        body: form([
          ['action', r.pick(['load_more_posts', 'newsletter_signup', 'poll_vote'])],
          ['page', String(r.int(2, 9))],
          ['nonce', r.hex(10)],
          ['query', JSON.stringify({ category_name: 'tech', posts_per_page: 10, post_status: 'publish' })],
        ]),
        label: 'admin-ajax (WordPress theme)',
      }),
    ],
  ];
  const make = r.weighted(posts);
  submit(corpus, 'form', make());
}

const BOUNDARY_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Bytes that start like real files of each type. */
function fileBytes(r: Random, type: string): Buffer {
  const filler = Buffer.from(Array.from({ length: r.int(200, 2000) }, () => r.int(0, 255)));
  switch (type) {
    case 'image/jpeg':
      return Buffer.concat([
        Buffer.from('ffd8ffe000104a46494600010101004800480000ffdb004300', 'hex'),
        filler,
        Buffer.from('ffd9', 'hex'),
      ]);
    case 'image/png':
      return Buffer.concat([
        Buffer.from('89504e470d0a1a0a0000000d49484452000001000000010008060000005c72a866', 'hex'),
        filler,
      ]);
    case 'application/pdf':
      return Buffer.concat([
        Buffer.from(
          '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n4 0 obj\n<< /Length 512 /Filter /FlateDecode >>\nstream\n',
          'latin1',
        ),
        filler,
        Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n'),
      ]);
    case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
      return Buffer.concat([
        Buffer.from('504b0304140006000800000021', 'hex'),
        Buffer.from('[Content_Types].xml'),
        filler,
      ]);
    default:
      return filler;
  }
}

const CSV_FILES = [
  'id,name,email,city,notes\n1,"Smith, John",john@example.com,"London, UK","said ""hi"" at the fair"\n2,Mary O\'Brien,mary@example.org,Dublin,\n3,"Müller, Jürgen",j.mueller@example.de,Düsseldorf,"VIP; call before 5pm"\n',
  'date,description,amount,currency\n2024-05-01,"Coffee & cake",7.50,EUR\n2024-05-02,"Train: Union Station → Newark",12.25,USD\n2024-05-03,"Books (O\'Reilly)",49.99,USD\n',
  'sku;title;price;stock\nAB-1;"Select Comfort Pillow";39,90;12\nAB-2;"Drop Leaf Table 120×80";249,00;3\nAB-3;"Rock & Roll Vinyl Box";89,00;0\n',
  'First Name,Last Name,Email,Tags\nZoë,D\'Angelo,zoe@example.com,"newsletter,vip"\nSeán,Ó Briain,sean@example.ie,customer\n',
];

/** Multipart uploads: photos, documents, spreadsheets, with the form fields around them. */
export function upload(corpus: CorpusBuilder): void {
  const r = corpus.random;
  const boundary = r.pick([
    `----WebKitFormBoundary${Array.from({ length: 16 }, () => r.pick([...BOUNDARY_CHARS])).join('')}`,
    `---------------------------${r.digits(29)}`,
    `----geckoformboundary${r.hex(32)}`,
  ]);
  const file = r.weighted([
    [
      5,
      {
        name: r.pick([
          'IMG_2024.jpg',
          'photo (1).jpg',
          'Screenshot 2024-05-01 at 10.12.33.jpeg',
          'DSC_0042.JPG',
          'avatar.jpg',
        ]),
        type: 'image/jpeg',
      },
    ],
    [
      3,
      { name: r.pick(['Screenshot 2024-05-01 101233.png', 'logo@2x.png', 'chart.png']), type: 'image/png' },
    ],
    [
      3,
      {
        name: r.pick([
          'Invoice_100234.pdf',
          'Résumé - Jane Doe.pdf',
          'contract (signed).pdf',
          "O'Brien_CV_2024.pdf",
        ]),
        type: 'application/pdf',
      },
    ],
    [
      3,
      {
        name: r.pick(['contacts.csv', 'export 2024-05.csv', 'products;prices.csv'.replace(';', '_')]),
        type: 'text/csv',
      },
    ],
    [
      1,
      {
        name: 'Cover letter.docx',
        type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      },
    ],
    [1, { name: 'notes.txt', type: 'text/plain' }],
  ]);
  const content =
    file.type === 'text/csv'
      ? Buffer.from(r.pick(CSV_FILES))
      : file.type === 'text/plain'
        ? Buffer.from(
            crlf(
              `Meeting notes ${r.pick(['2024-05-01', '1 May'])}\n- Select vendor (A or B?)\n- Drop the legacy export\n- Next: union negotiations, budget & hiring\n`,
            ),
          )
        : fileBytes(r, file.type);
  const target = r.weighted([
    [
      4,
      {
        host: 'app.example.io',
        path: '/api/v1/attachments',
        fields: [
          ['issue_id', String(r.int(1, 4000))],
          [
            'description',
            r.pick(['Screenshot of the error', 'Signed contract', "Here's the export you asked for"]),
          ],
        ],
      },
    ],
    [
      3,
      {
        host: 'www.example.com',
        path: '/careers/apply',
        fields: [
          ['name', `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`],
          ['email', 'applicant@example.com'],
          ['cover_letter', crlf(r.pick(MESSAGES))],
          ['job_id', r.digits(7)],
        ],
      },
    ],
    [
      3,
      {
        host: 'news.example.org',
        path: '/wp-admin/async-upload.php',
        fields: [
          ['name', file.name],
          ['action', 'upload-attachment'],
          ['_wpnonce', r.hex(10)],
          ['post_id', String(r.int(100, 9999))],
        ],
      },
    ],
    [
      2,
      {
        host: 'shop.example.com',
        path: '/admin/products/import',
        fields: [
          ['overwrite', 'false'],
          ['authenticity_token', `${r.b64url(86)}==`],
        ],
      },
    ],
    [
      2,
      {
        host: 'www.example.com',
        path: '/wp-json/contact-form-7/v1/contact-forms/123/feedback',
        fields: [
          ['_wpcf7', '123'],
          ['_wpcf7_version', '5.9.3'],
          ['_wpcf7_locale', 'en_US'],
          ['your-name', r.pick(FIRST_NAMES)],
          ['your-email', 'sender@example.com'],
          ['your-message', crlf(r.pick(MESSAGES))],
        ],
      },
    ],
    [2, { host: 'app.example.io', path: '/api/v1/me/avatar', fields: [] as string[][] }],
  ]);
  const fileField = target.path.includes('async-upload')
    ? 'async-upload'
    : target.path.includes('import')
      ? 'csv'
      : 'file';
  const parts: Buffer[] = [];
  for (const [name, value] of target.fields)
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  const body = Buffer.concat(parts);
  submit(corpus, 'upload', {
    host: target.host,
    path: target.path,
    from: '/',
    cookies: target.host === 'app.example.io' ? ['express-session'] : ['ga4'],
    contentType: `multipart/form-data; boundary=${boundary}`,
    body,
    label: `${file.name} (${file.type})`,
  });
}

/** A Q&A or forum post a developer writes about security or destructive commands (kind says so). */
export function borderlinePost(corpus: CorpusBuilder, index: number): void {
  const r = corpus.random;
  const post = BORDERLINE_POSTS[index % BORDERLINE_POSTS.length] as (typeof BORDERLINE_POSTS)[number];
  if (r.chance(0.5)) {
    submit(corpus, post.kind, {
      host: 'community.example.net',
      path: '/posts',
      from: '/new-topic',
      cookies: ['rails'],
      contentType: 'application/x-www-form-urlencoded; charset=UTF-8',
      body: form([
        ['raw', post.body],
        ['title', post.title],
        ['category', String(r.int(1, 30))],
        ['archetype', 'regular'],
        ['typing_duration_msecs', String(r.int(5000, 300000))],
      ]),
      label: post.title,
    });
    return;
  }
  const browser = pickBrowser(r, false);
  const version = browserVersion(r);
  const body = JSON.stringify({ title: post.title, body: post.body, tags: ['security', 'help'] });
  const headers = browserHeaders('app.example.io', {
    browser,
    language: r.weighted(LANGUAGES),
    version,
    dest: 'empty',
    site: 'same-origin',
    origin: 'https://app.example.io',
    referer: 'https://app.example.io/questions/ask',
    cookie: cookieHeader(['express-session'], r, r.weighted(SOURCES)),
    accept: 'application/json',
    extra: [
      ['Content-Type', 'application/json'],
      ['X-CSRF-Token', r.b64url(43)],
    ],
  });
  headers.push([version === 'HTTP/1.1' ? 'Content-Length' : 'content-length', lengthOf(body)]);
  corpus.add(
    post.kind,
    `POST app.example.io/api/v1/questions ${post.title}`,
    message({
      method: 'POST',
      host: 'app.example.io',
      target: '/api/v1/questions',
      version,
      headers,
      clientIp: corpus.ip(),
      body,
    }),
  );
}
