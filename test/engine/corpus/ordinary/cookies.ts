import type { Random } from './random.js';

/**
 * Cookie jars as real sites set them: analytics (Google Analytics 4 and Universal Analytics, Matomo,
 * Hotjar, Clarity, HubSpot, Segment), ad pixels (Facebook, Google Ads, Bing), consent managers (OneTrust,
 * Cookiebot, CookieYes, cookieconsent's JSON), and the session and CSRF cookies of common frameworks.
 * Values are written the way each tool writes them, encodings included.
 */

export type CookieStyle =
  | 'ga4'
  | 'universal-analytics'
  | 'matomo'
  | 'facebook'
  | 'google-ads'
  | 'bing-ads'
  | 'hotjar'
  | 'clarity'
  | 'hubspot'
  | 'segment'
  | 'onetrust'
  | 'cookiebot'
  | 'cookieyes'
  | 'cookieconsent-json'
  | 'consent-base64'
  | 'express-session'
  | 'php-session'
  | 'laravel'
  | 'django'
  | 'rails'
  | 'aspnet'
  | 'java'
  | 'jwt'
  | 'wordpress-visitor'
  | 'woocommerce'
  | 'preferences'
  | 'cloudflare';

/** Where a visitor came from, as Universal Analytics and Matomo remember it. */
export interface Source {
  readonly referer: string | undefined;
  readonly utmz: string;
}

export const SOURCES: readonly (readonly [number, Source])[] = [
  [
    40,
    {
      referer: 'https://www.google.com/',
      utmz: 'utmcsr=google|utmccn=(organic)|utmcmd=organic|utmctr=(not%20provided)',
    },
  ],
  [20, { referer: undefined, utmz: 'utmcsr=(direct)|utmccn=(direct)|utmcmd=(none)' }],
  [
    6,
    {
      referer: 'https://www.bing.com/',
      utmz: 'utmcsr=bing|utmccn=(organic)|utmcmd=organic|utmctr=(not%20provided)',
    },
  ],
  [
    3,
    {
      referer: 'https://duckduckgo.com/',
      utmz: 'utmcsr=duckduckgo.com|utmccn=(referral)|utmcmd=referral|utmcct=/',
    },
  ],
  [
    4,
    {
      referer: 'https://l.facebook.com/',
      utmz: 'utmcsr=l.facebook.com|utmccn=(referral)|utmcmd=referral|utmcct=/',
    },
  ],
  [3, { referer: 'https://t.co/', utmz: 'utmcsr=t.co|utmccn=(referral)|utmcmd=referral|utmcct=/Xb2kq9LmPz' }],
  [
    2,
    {
      referer: 'https://www.reddit.com/',
      utmz: 'utmcsr=reddit.com|utmccn=(referral)|utmcmd=referral|utmcct=/r/webdev/comments/1cgx0q2/',
    },
  ],
  [
    2,
    {
      referer: 'https://news.ycombinator.com/',
      utmz: 'utmcsr=news.ycombinator.com|utmccn=(referral)|utmcmd=referral|utmcct=/item',
    },
  ],
  [
    2,
    {
      referer: 'android-app://com.google.android.gm/',
      utmz: 'utmcsr=com.google.android.gm|utmccn=(referral)|utmcmd=referral|utmcct=/',
    },
  ],
  [
    6,
    {
      referer: 'https://www.google.com/',
      utmz: 'utmcsr=google|utmccn=spring_sale_2024|utmcmd=cpc|utmctr=running%20shoes%20women|utmgclid=Cj0KCQjw8J6wBhDXARIsAPo7QA8',
    },
  ],
  [
    3,
    {
      referer: 'https://www.linkedin.com/',
      utmz: 'utmcsr=linkedin.com|utmccn=(referral)|utmcmd=referral|utmcct=/',
    },
  ],
  [
    2,
    {
      referer: 'https://search.yahoo.com/',
      utmz: 'utmcsr=yahoo|utmccn=(organic)|utmcmd=organic|utmctr=(not%20provided)',
    },
  ],
  [
    2,
    {
      referer: 'https://yandex.ru/',
      utmz: 'utmcsr=yandex|utmccn=(organic)|utmcmd=organic|utmctr=(not%20provided)',
    },
  ],
];

const base64 = (text: string) => Buffer.from(text).toString('base64');
const base64url = (text: string) => Buffer.from(text).toString('base64url');

/** A JSON Web Token with a realistic header and claims (the signature is random). */
export function jwt(random: Random, claims: Record<string, unknown> = {}): string {
  const iat = random.time();
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: random.hex(16) }));
  const payload = base64url(
    JSON.stringify({
      iss: 'https://auth.example.com/',
      sub: `auth0|${random.hex(24)}`,
      aud: ['https://api.example.com', 'https://example.eu.auth0.com/userinfo'],
      iat,
      exp: iat + 86400,
      azp: random.alnum(32),
      scope: 'openid profile email offline_access',
      ...claims,
    }),
  );
  return `${header}.${payload}.${random.b64url(342)}`;
}

/** Laravel's encrypted cookie: base64 of a JSON object holding iv, value, mac and tag. */
function laravelValue(random: Random): string {
  return encodeURIComponent(
    base64(JSON.stringify({ iv: random.base64(16), value: random.base64(96), mac: random.hex(64), tag: '' })),
  );
}

/** The cookies of one style, as name → value. */
export function cookiesOf(style: CookieStyle, random: Random, source: Source): [string, string][] {
  const t = random.time();
  const id = random.digits(10);
  switch (style) {
    case 'ga4': {
      const stream = random.pick(['9ZQ1KX4T7B', 'ABC123XYZ9', 'LM4Q8R2WPK']);
      return [
        ['_ga', `GA1.1.${id}.${t - random.int(0, 9e6)}`],
        [
          `_ga_${stream}`,
          random.chance(0.5)
            ? `GS1.1.${t}.${random.int(1, 40)}.1.${t + random.int(10, 900)}.0.0.0`
            : `GS2.1.s${t}$o${random.int(1, 40)}$g1$t${t + random.int(10, 900)}$j${random.int(0, 60)}$l0$h0`,
        ],
      ];
    }
    case 'universal-analytics': {
      const domain = random.digits(9);
      return [
        ['__utma', `${domain}.${id}.${t - 86400 * 30}.${t - 86400}.${t}.${random.int(2, 30)}`],
        ['__utmc', domain],
        ['__utmz', `${domain}.${t - 86400 * 30}.${random.int(1, 9)}.${random.int(1, 3)}.${source.utmz}`],
        ['__utmb', `${domain}.${random.int(1, 12)}.10.${t}`],
      ];
    }
    case 'matomo': {
      const site = random.pick(['1', '3']);
      const key = random.hex(4);
      const ref = JSON.stringify(['', '', t, source.referer ?? '']);
      return [
        [`_pk_id.${site}.${key}`, `${random.hex(16)}.${t - 86400 * 3}.`],
        [`_pk_ses.${site}.${key}`, '1'],
        ...(source.referer
          ? ([[`_pk_ref.${site}.${key}`, encodeURIComponent(ref)]] as [string, string][])
          : []),
      ];
    }
    case 'facebook':
      return [
        ['_fbp', `fb.1.${t}${random.digits(3)}.${random.digits(10)}`],
        ...(random.chance(0.3)
          ? ([['_fbc', `fb.1.${t}${random.digits(3)}.IwAR${random.b64url(60)}`]] as [string, string][])
          : []),
      ];
    case 'google-ads':
      return [['_gcl_au', `1.1.${random.digits(10)}.${t}`]];
    case 'bing-ads':
      return [
        ['_uetsid', `${random.hex(32)}`],
        ['_uetvid', `${random.hex(32)}`],
        ['MUID', random.hex(32).toUpperCase()],
      ];
    case 'hotjar': {
      const site = random.digits(7);
      return [
        [
          `_hjSessionUser_${site}`,
          base64(JSON.stringify({ id: random.uuid(), created: t * 1000, existing: true })),
        ],
        [
          `_hjSession_${site}`,
          base64(
            JSON.stringify({ id: random.uuid(), c: t * 1000, s: 0, r: 0, sb: 0, sr: 0, se: 0, fs: 0, sp: 1 }),
          ),
        ],
      ];
    }
    case 'clarity':
      return [
        [
          '_clck',
          `${random.alnum(6).toLowerCase()}%7C2%7Cfl${random.alnum(1).toLowerCase()}%7C0%7C${random.int(1500, 1700)}`,
        ],
        [
          '_clsk',
          `${random.alnum(7).toLowerCase()}%7C${t}${random.digits(3)}%7C${random.int(1, 9)}%7C1%7Cz.clarity.ms%2Fcollect`,
        ],
      ];
    case 'hubspot':
      return [
        ['hubspotutk', random.hex(32)],
        [
          '__hstc',
          `${random.digits(9)}.${random.hex(32)}.${t}${random.digits(3)}.${t}${random.digits(3)}.${t}${random.digits(3)}.${random.int(1, 9)}`,
        ],
        ['__hssrc', '1'],
        ['__hssc', `${random.digits(9)}.${random.int(1, 9)}.${t}${random.digits(3)}`],
      ];
    case 'segment':
      return [
        ['ajs_anonymous_id', encodeURIComponent(`"${random.uuid()}"`)],
        ...(random.chance(0.5)
          ? ([['ajs_user_id', encodeURIComponent(`"usr_${random.alnum(14)}"`)]] as [string, string][])
          : []),
      ];
    case 'onetrust': {
      const date = new Date(t * 1000);
      const stamp = `${date.toUTCString().replace(/,/g, '').split(' ').slice(0, 4).join(' ')} ${date.toISOString().slice(11, 19)} GMT+0200 (Central European Summer Time)`;
      const consent = new URLSearchParams({
        isGpcEnabled: '0',
        datestamp: stamp,
        version: '202403.1.0',
        browserGpcFlag: '0',
        isIABGlobal: 'false',
        hosts: '',
        consentId: random.uuid(),
        interactionCount: '1',
        isAnonUser: '1',
        landingPath: 'NotLandingPage',
        groups: `C0001:1,C0002:${random.int(0, 1)},C0003:1,C0004:${random.int(0, 1)}`,
        AwaitingReconsent: 'false',
      }).toString();
      return [
        ['OptanonConsent', consent],
        ['OptanonAlertBoxClosed', new Date((t - 3600) * 1000).toISOString()],
      ];
    }
    case 'cookiebot': {
      const yes = random.chance(0.6);
      const value = `{stamp:'${random.b64url(48)}==',necessary:true,preferences:${yes},statistics:${yes},marketing:${random.chance(0.4)},method:'explicit',ver:1,utc:${t}${random.digits(3)},region:'${random.pick(['de', 'fr', 'gb', 'us-06', 'nl'])}'}`;
      // Cookiebot encodes quotes and commas only.
      return [['CookieConsent', value.replace(/'/g, '%27').replace(/,/g, '%2C')]];
    }
    case 'cookieyes':
      return [
        [
          'cookieyes-consent',
          `consentid:${random.b64url(32)},consent:yes,action:yes,necessary:yes,functional:yes,analytics:${random.pick(['yes', 'no'])},performance:no,advertisement:no,other:no`,
        ],
      ];
    case 'cookieconsent-json': {
      const categories = random.chance(0.5) ? ['necessary', 'analytics'] : ['necessary'];
      return [
        [
          'cc_cookie',
          JSON.stringify({
            categories,
            revision: 0,
            data: null,
            consentTimestamp: new Date(t * 1000).toISOString(),
            consentId: random.uuid(),
            services: { necessary: [], analytics: categories.length > 1 ? ['ga'] : [] },
            lastConsentTimestamp: new Date(t * 1000).toISOString(),
          }),
        ],
      ];
    }
    case 'consent-base64':
      return [
        [
          'consent',
          base64(
            JSON.stringify({
              v: 2,
              ts: t,
              purposes: { essential: true, analytics: random.chance(0.5), ads: false },
              region: 'EU',
            }),
          ),
        ],
        ['euconsent-v2', `CP${random.b64url(10)}.YAAAAAAAAAAA`],
      ];
    case 'express-session':
      return [['connect.sid', `s%3A${random.b64url(32)}.${random.b64url(43).replace(/[-_]/g, 'x')}`]];
    case 'php-session':
      return [['PHPSESSID', random.alnum(26).toLowerCase()]];
    case 'laravel':
      return [
        ['XSRF-TOKEN', laravelValue(random)],
        ['laravel_session', laravelValue(random)],
      ];
    case 'django':
      return [
        ['csrftoken', random.alnum(32)],
        ['sessionid', random.alnum(32).toLowerCase()],
      ];
    case 'rails':
      return [
        [
          '_shop_session',
          `${random.b64url(120).replace(/[-_]/g, 'A')}--${random.b64url(24)}--${random.b64url(22)}%3D%3D`,
        ],
      ];
    case 'aspnet':
      return [
        ['ASP.NET_SessionId', random.alnum(24).toLowerCase()],
        [`.AspNetCore.Antiforgery.${random.b64url(11)}`, `CfDJ8${random.b64url(150)}`],
        ['ARRAffinity', random.hex(64)],
      ];
    case 'java':
      return [['JSESSIONID', `${random.hex(32).toUpperCase()}.node0`]];
    case 'jwt':
      return [
        ['access_token', jwt(random)],
        ['refresh_token', random.b64url(64)],
      ];
    case 'wordpress-visitor':
      return [
        [
          `comment_author_${random.hex(32)}`,
          encodeURIComponent(random.pick(["Mike O'Neil", 'Anna K.', 'Jürgen', 'Lee'])),
        ],
        [`comment_author_email_${random.hex(32)}`, encodeURIComponent('reader@example.com')],
        ['wp-settings-time-1', `${t}`],
        ['wp-settings-1', 'libraryContent%3Dbrowse%26editor%3Dtinymce%26mfold%3Do'],
      ];
    case 'woocommerce':
      return [
        ['woocommerce_items_in_cart', '1'],
        ['woocommerce_cart_hash', random.hex(32)],
        [
          `wp_woocommerce_session_${random.hex(32)}`,
          `t_${random.hex(30)}%7C%7C${t + 172800}%7C%7C${t + 169200}%7C%7C${random.hex(32)}`,
        ],
        [
          'sbjs_current',
          encodeURIComponent(
            `typ=organic|||src=google|||mdm=organic|||cmp=(none)|||cnt=(none)|||trm=(none)|||id=(none)|||plt=(none)|||fmt=(none)|||tct=(none)`,
          ),
        ],
        [
          'sbjs_udata',
          encodeURIComponent(`vst=1|||uip=(none)|||uag=${'Mozilla/5.0 (Windows NT 10.0; Win64; x64)'}`),
        ],
      ];
    case 'preferences':
      return [
        ['theme', random.pick(['dark', 'light', 'system'])],
        ['locale', random.pick(['en-US', 'de-DE', 'fr', 'pt_BR'])],
        [
          'tz',
          encodeURIComponent(
            random.pick(['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'America/Sao_Paulo']),
          ),
        ],
        ['currency', random.pick(['EUR', 'USD', 'GBP'])],
        ['recently_viewed', encodeURIComponent(JSON.stringify([random.int(100, 999), random.int(100, 999)]))],
      ];
    case 'cloudflare':
      return [
        ['__cf_bm', `${random.b64url(43)}-${t}-1.0.1.1-${random.b64url(86)}`],
        ...(random.chance(0.2)
          ? ([['cf_clearance', `${random.b64url(43)}-${t}-1.2.1.1-${random.b64url(150)}`]] as [
              string,
              string,
            ][])
          : []),
      ];
  }
}

/** A whole jar: the styles' cookies joined as a Cookie header (`; `-separated), or undefined when empty. */
export function cookieHeader(
  styles: readonly CookieStyle[],
  random: Random,
  source: Source,
): string | undefined {
  const pairs = styles.flatMap((style) => cookiesOf(style, random, source));
  return pairs.length === 0 ? undefined : pairs.map(([name, value]) => `${name}=${value}`).join('; ');
}
