import type { Headers } from '../http.js';
import { type CorpusBuilder, lengthOf, message } from './build.js';
import { MARKDOWN } from './data/content.js';
import { COMMENTS, MESSAGES, TITLES } from './data/text.js';
import type { Random } from './random.js';

/**
 * Webhooks a site receives from the services it uses, with their headers, signatures and payloads (URLs,
 * commit messages, diffs, Markdown, form-encoded JSON).
 */

const repo = (r: Random) => {
  const name = r.pick(['web', 'api', 'infra', 'docs', 'mobile-app']);
  return {
    id: r.int(100000000, 799999999),
    node_id: `R_kgDO${r.b64url(6)}`,
    name,
    full_name: `example-org/${name}`,
    private: true,
    html_url: `https://github.com/example-org/${name}`,
    url: `https://api.github.com/repos/example-org/${name}`,
    default_branch: 'main',
  };
};

const user = (r: Random) => {
  const login = r.pick(['jane-doe', 'obrien', 'dangelo-m', 'dependabot[bot]', 'renovate[bot]', 'sam-k']);
  return {
    login,
    id: r.int(1000, 99999999),
    type: login.endsWith('[bot]') ? 'Bot' : 'User',
    html_url: `https://github.com/${login}`,
  };
};

const COMMIT_MESSAGES = [
  'Fix typo in README',
  'Merge pull request #812 from example-org/fix/checkout\n\nFix checkout when cart has > 10 items',
  'chore(deps): bump express from 4.18.2 to 4.19.2',
  'feat: add "select all" to the orders table',
  'Revert "Drop the legacy export"\n\nThis reverts commit 3f9a1c2.',
  'refactor: use UNION ALL instead of UNION in the report query',
  'docs: explain `rm -rf dist` in the release guide',
  "fix(auth): handle O'Brien-style names in the signup form",
  'WIP',
  'Update .github/workflows/ci.yml',
];

const DIFF_HUNKS = [
  '@@ -12,7 +12,9 @@ export function total(items: Item[]): number {\n-  return items.reduce((a, b) => a + b.price, 0);\n+  return items\n+    .filter((item) => item.qty > 0)\n+    .reduce((a, b) => a + b.price * b.qty, 0);',
  '@@ -40,6 +40,6 @@ def report(cursor):\n-    cursor.execute("SELECT name FROM a UNION SELECT name FROM b")\n+    cursor.execute("SELECT name FROM a UNION ALL SELECT name FROM b")',
  '@@ -1,4 +1,4 @@\n-FROM node:18-alpine\n+FROM node:20-alpine\n WORKDIR /app\n COPY . .',
  '@@ -8,3 +8,5 @@ jobs:\n       - uses: actions/checkout@v4\n-      - run: npm test\n+      - run: npm ci\n+      - run: npm test -- --coverage',
];

interface Hook {
  readonly service: string;
  readonly path: string;
  readonly headers: Headers;
  readonly contentType: string;
  readonly body: string;
  readonly label: string;
}

function github(r: Random): Hook {
  const event = r.weighted([
    [4, 'push'],
    [3, 'pull_request'],
    [2, 'issue_comment'],
    [2, 'pull_request_review_comment'],
    [1, 'workflow_run'],
  ] as const);
  const repository = repo(r);
  const sender = user(r);
  let payload: Record<string, unknown>;
  if (event === 'push') {
    const before = r.hex(40);
    const after = r.hex(40);
    const commits = Array.from({ length: r.int(1, 3) }, () => ({
      id: r.hex(40),
      message: r.pick(COMMIT_MESSAGES),
      timestamp: '2024-05-01T10:12:33+02:00',
      url: `${repository.html_url}/commit/${r.hex(40)}`,
      author: {
        name: r.pick(["Jane O'Brien", 'Sam K.', 'dependabot[bot]']),
        email: 'dev@example.com',
        username: sender.login,
      },
      added: r.some(['src/report.sql', 'docs/select.md', 'scripts/cleanup.sh'], r.int(0, 2)),
      removed: [],
      modified: r.some(['package.json', 'src/app.ts', 'README.md', '.github/workflows/ci.yml'], r.int(1, 3)),
    }));
    payload = {
      ref: 'refs/heads/main',
      before,
      after,
      repository,
      pusher: { name: sender.login, email: 'dev@example.com' },
      sender,
      created: false,
      deleted: false,
      forced: false,
      compare: `${repository.html_url}/compare/${before.slice(0, 12)}...${after.slice(0, 12)}`,
      commits,
      head_commit: commits[0],
    };
  } else if (event === 'pull_request') {
    payload = {
      action: r.pick(['opened', 'synchronize', 'closed', 'labeled']),
      number: r.int(1, 2000),
      pull_request: {
        url: `${repository.url}/pulls/812`,
        html_url: `${repository.html_url}/pull/812`,
        diff_url: `${repository.html_url}/pull/812.diff`,
        title: r.pick(COMMIT_MESSAGES).split('\n')[0],
        body: r.pick(MARKDOWN),
        user: sender,
        head: { ref: r.pick(['fix/checkout', 'feat/select-all', 'deps/express-4.19.2']), sha: r.hex(40) },
        base: { ref: 'main', sha: r.hex(40) },
        additions: r.int(1, 500),
        deletions: r.int(0, 300),
        changed_files: r.int(1, 20),
      },
      repository,
      sender,
    };
  } else if (event === 'issue_comment') {
    payload = {
      action: 'created',
      issue: {
        number: r.int(1, 2000),
        title: r.pick(TITLES),
        html_url: `${repository.html_url}/issues/${r.int(1, 2000)}`,
        labels: [{ name: 'bug' }],
      },
      comment: {
        id: r.int(1e8, 2e9),
        body: r.chance(0.5) ? r.pick(MARKDOWN) : r.pick(COMMENTS),
        user: sender,
        html_url: `${repository.html_url}/issues/1#issuecomment-${r.int(1e8, 2e9)}`,
      },
      repository,
      sender,
    };
  } else if (event === 'pull_request_review_comment') {
    payload = {
      action: 'created',
      comment: {
        path: r.pick(['src/total.ts', 'report.py', 'Dockerfile', '.github/workflows/ci.yml']),
        diff_hunk: r.pick(DIFF_HUNKS),
        body: r.pick([
          'nit: can we name this `subtotal`?',
          'Why `UNION ALL` here? Duplicates are possible.',
          'LGTM 👍',
          '```suggestion\nreturn items.reduce((a, b) => a + b.price * b.qty, 0);\n```',
        ]),
        commit_id: r.hex(40),
        user: sender,
        line: r.int(1, 80),
      },
      pull_request: { number: r.int(1, 2000), title: r.pick(COMMIT_MESSAGES).split('\n')[0] },
      repository,
      sender,
    };
  } else {
    payload = {
      action: 'completed',
      workflow_run: {
        id: r.int(1e9, 9e9),
        name: 'CI',
        head_branch: 'main',
        head_sha: r.hex(40),
        conclusion: r.pick(['success', 'failure']),
        html_url: `${repository.html_url}/actions/runs/${r.int(1e9, 9e9)}`,
        display_title: r.pick(COMMIT_MESSAGES).split('\n')[0],
      },
      repository,
      sender,
    };
  }
  const body = JSON.stringify(payload);
  return {
    service: 'GitHub',
    path: '/webhooks/github',
    contentType: 'application/json',
    headers: [
      ['Accept', '*/*'],
      ['User-Agent', `GitHub-Hookshot/${r.hex(7)}`],
      ['X-GitHub-Delivery', r.uuid()],
      ['X-GitHub-Event', event],
      ['X-GitHub-Hook-ID', r.digits(9)],
      ['X-GitHub-Hook-Installation-Target-ID', r.digits(9)],
      ['X-GitHub-Hook-Installation-Target-Type', 'repository'],
      ['X-Hub-Signature', `sha1=${r.hex(40)}`],
      ['X-Hub-Signature-256', `sha256=${r.hex(64)}`],
    ],
    body,
    label: event,
  };
}

function stripe(r: Random): Hook {
  const type = r.pick([
    'payment_intent.succeeded',
    'checkout.session.completed',
    'invoice.paid',
    'customer.subscription.updated',
    'charge.refunded',
  ]);
  const t = r.time();
  const body = JSON.stringify({
    id: `evt_${r.alnum(24)}`,
    object: 'event',
    api_version: '2024-04-10',
    created: t,
    data: {
      object: {
        id: `${type.startsWith('checkout') ? 'cs_live_' : type.startsWith('invoice') ? 'in_' : 'pi_'}${r.alnum(24)}`,
        object: type.split('.')[0],
        amount: r.int(100, 99999),
        currency: r.pick(['usd', 'eur', 'gbp']),
        customer: `cus_${r.alnum(14)}`,
        description: r.pick([
          "Order #100234 – Levi's 501 (x2)",
          'Pro plan (annual)',
          'Gift card: "Happy birthday!"',
          null,
        ]),
        metadata: {
          order_id: String(r.int(100000, 109999)),
          note: r.pick(['', "Ship to O'Brien", 'rock & roll merch']),
        },
        receipt_email: 'customer@example.com',
        status: 'succeeded',
        shipping: {
          name: "Seán O'Connor",
          address: { line1: "12 O'Connell St", city: 'Dublin', postal_code: 'D01 F5P2', country: 'IE' },
        },
      },
    },
    livemode: true,
    pending_webhooks: 1,
    request: { id: `req_${r.alnum(14)}`, idempotency_key: r.uuid() },
    type,
  });
  return {
    service: 'Stripe',
    path: '/webhooks/stripe',
    contentType: 'application/json; charset=utf-8',
    headers: [
      ['User-Agent', 'Stripe/1.0 (+https://stripe.com/docs/webhooks)'],
      ['Accept', '*/*; q=0.5, application/xml'],
      ['Cache-Control', 'no-cache'],
      ['Stripe-Signature', `t=${t},v1=${r.hex(64)},v0=${r.hex(64)}`],
    ],
    body,
    label: type,
  };
}

function slack(r: Random): Hook {
  const style = r.pick(['event', 'command', 'interactive'] as const);
  const common: Headers = [
    ['User-Agent', 'Slackbot 1.0 (+https://api.slack.com/robots)'],
    ['Accept-Encoding', 'gzip,deflate'],
    ['Accept', 'application/json,*/*'],
    ['X-Slack-Signature', `v0=${r.hex(64)}`],
    ['X-Slack-Request-Timestamp', String(r.time())],
  ];
  if (style === 'event') {
    const body = JSON.stringify({
      token: r.alnum(24),
      team_id: `T${r.alnum(8).toUpperCase()}`,
      api_app_id: `A${r.alnum(8).toUpperCase()}`,
      event: {
        type: 'message',
        user: `U${r.alnum(8).toUpperCase()}`,
        text: r.pick([
          'Deploy <https://ci.example.com/builds/812|#812> finished :white_check_mark:',
          'Can someone check why `SELECT count(*) FROM orders` takes 30s? :thinking_face:',
          '<@U024BE7LH> the union meeting moved to 3pm',
          'PR: <https://github.com/example-org/web/pull/812|Fix checkout> — please review & merge',
          "I'll drop the old table after the backup ```pg_dump -Fc shop > shop.dump```",
        ]),
        ts: `${r.time()}.${r.digits(6)}`,
        channel: `C${r.alnum(8).toUpperCase()}`,
        event_ts: `${r.time()}.${r.digits(6)}`,
        channel_type: 'channel',
      },
      type: 'event_callback',
      event_id: `Ev${r.alnum(9).toUpperCase()}`,
      event_time: r.time(),
    });
    return {
      service: 'Slack',
      path: '/slack/events',
      contentType: 'application/json',
      headers: common,
      body,
      label: 'event',
    };
  }
  if (style === 'command') {
    const body = new URLSearchParams({
      token: r.alnum(24),
      team_id: `T${r.alnum(8).toUpperCase()}`,
      team_domain: 'example-org',
      channel_id: `C${r.alnum(8).toUpperCase()}`,
      channel_name: r.pick(['deploys', 'general', 'support']),
      user_id: `U${r.alnum(8).toUpperCase()}`,
      user_name: r.pick(['jane', 'obrien', 'sam']),
      command: r.pick(['/deploy', '/oncall', '/ticket']),
      text: r.pick([
        'api production',
        "web staging --branch fix/o'brien-names",
        'who',
        'new "Checkout fails > 10 items" priority:high',
      ]),
      api_app_id: `A${r.alnum(8).toUpperCase()}`,
      is_enterprise_install: 'false',
      response_url: `https://hooks.slack.com/commands/T${r.alnum(8).toUpperCase()}/${r.digits(13)}/${r.alnum(24)}`,
      trigger_id: `${r.digits(13)}.${r.digits(12)}.${r.hex(32)}`,
    }).toString();
    return {
      service: 'Slack',
      path: '/slack/commands',
      contentType: 'application/x-www-form-urlencoded',
      headers: common,
      body,
      label: 'slash command',
    };
  }
  const payload = JSON.stringify({
    type: 'block_actions',
    user: { id: `U${r.alnum(8).toUpperCase()}`, username: 'jane', name: 'jane' },
    api_app_id: `A${r.alnum(8).toUpperCase()}`,
    container: {
      type: 'message',
      message_ts: `${r.time()}.${r.digits(6)}`,
      channel_id: `C${r.alnum(8).toUpperCase()}`,
    },
    trigger_id: `${r.digits(13)}.${r.digits(12)}.${r.hex(32)}`,
    actions: [
      {
        action_id: 'approve',
        block_id: 'deploy',
        text: { type: 'plain_text', text: 'Approve & deploy' },
        value: 'deploy_812',
        type: 'button',
        action_ts: `${r.time()}.${r.digits(6)}`,
      },
    ],
    response_url: `https://hooks.slack.com/actions/T${r.alnum(8).toUpperCase()}/${r.digits(13)}/${r.alnum(24)}`,
  });
  return {
    service: 'Slack',
    path: '/slack/interactive',
    contentType: 'application/x-www-form-urlencoded',
    headers: common,
    body: new URLSearchParams({ payload }).toString(),
    label: 'interactive (form-encoded JSON)',
  };
}

function shopify(r: Random): Hook {
  const body = JSON.stringify({
    id: r.int(1e12, 9e12),
    email: 'customer@example.com',
    name: `#${r.int(1000, 9999)}`,
    note: r.pick([
      '',
      "Please gift-wrap. It's for my mother-in-law :)",
      'Deliver to the back door (code #1234)',
    ]),
    total_price: (r.int(1000, 50000) / 100).toFixed(2),
    currency: 'EUR',
    line_items: [
      {
        title: r.pick(["Levi's® 501®", 'Rock & Roll Vinyl Box Set', 'Chef’s Knife 8" (20 cm)']),
        quantity: r.int(1, 3),
        price: '49.90',
        properties: [{ name: 'Engraving', value: 'J & K' }],
      },
    ],
    shipping_address: {
      first_name: 'Seán',
      last_name: "O'Connor",
      address1: "12 O'Connell St",
      city: 'Dublin',
      zip: 'D01 F5P2',
      country_code: 'IE',
    },
    landing_site: '/products/trail-runner-2?utm_source=google&utm_medium=cpc',
    referring_site: 'https://www.google.com/',
  });
  return {
    service: 'Shopify',
    path: '/webhooks/shopify/orders-create',
    contentType: 'application/json',
    headers: [
      ['User-Agent', 'Shopify-Captain-Hook'],
      ['Accept', '*/*'],
      ['X-Shopify-Topic', 'orders/create'],
      ['X-Shopify-Hmac-Sha256', r.base64(32)],
      ['X-Shopify-Shop-Domain', 'example-shop.myshopify.com'],
      ['X-Shopify-Webhook-Id', r.uuid()],
      ['X-Shopify-API-Version', '2024-04'],
    ],
    body,
    label: 'orders/create',
  };
}

function twilio(r: Random): Hook {
  const body = new URLSearchParams({
    ToCountry: 'US',
    SmsMessageSid: `SM${r.hex(32)}`,
    NumMedia: '0',
    SmsSid: `SM${r.hex(32)}`,
    SmsStatus: 'received',
    Body: r.pick([
      'STOP',
      'Yes, confirm my appointment for 3pm',
      "Where's my order?? #100234",
      'Running 5 min late, sorry!',
      'Can I reschedule to Tue (or Wed)?',
    ]),
    To: '+15550100123',
    NumSegments: '1',
    MessageSid: `SM${r.hex(32)}`,
    AccountSid: `AC${r.hex(32)}`,
    From: `+1555${r.digits(7)}`,
    ApiVersion: '2010-04-01',
  }).toString();
  return {
    service: 'Twilio',
    path: '/webhooks/sms',
    contentType: 'application/x-www-form-urlencoded',
    headers: [
      ['User-Agent', 'TwilioProxy/1.1'],
      ['Accept', '*/*'],
      ['X-Twilio-Signature', r.base64(20)],
      ['I-Twilio-Idempotency-Token', r.uuid()],
    ],
    body,
    label: 'incoming SMS',
  };
}

function sendgridInbound(r: Random): Hook {
  const boundary = `xYzZY`;
  const fields: [string, string][] = [
    [
      'headers',
      `Received: by mx0047p1mdw1.sendgrid.net\nFrom: "Jane O'Brien" <jane@example.org>\nTo: support@example.com\nSubject: Re: Your order #100234\nDate: Wed, 1 May 2024 10:12:33 +0200\nContent-Type: multipart/alternative; boundary="000000000000a1b2c3"`,
    ],
    ['from', `"Jane O'Brien" <jane@example.org>`],
    ['to', 'support@example.com'],
    ['subject', 'Re: Your order #100234'],
    [
      'text',
      `${r.pick(MESSAGES)}\n\nOn Tue, 30 Apr 2024 at 09:00, Shop <support@example.com> wrote:\n> Thanks for your order!\n> We'll let you know when it ships.`,
    ],
    [
      'html',
      `<div dir="ltr">${r.pick(MESSAGES).replace(/\n/g, '<br>')}</div><br><div class="gmail_quote"><blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">Thanks for your order!</blockquote></div>`,
    ],
    ['sender_ip', '203.0.113.9'],
    ['SPF', 'pass'],
    ['dkim', '{@example.org : pass}'],
    ['envelope', JSON.stringify({ to: ['support@example.com'], from: 'jane@example.org' })],
    [
      'charsets',
      JSON.stringify({ to: 'UTF-8', html: 'UTF-8', subject: 'UTF-8', from: 'UTF-8', text: 'UTF-8' }),
    ],
  ];
  const body = `${fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('')}--${boundary}--\r\n`;
  return {
    service: 'SendGrid',
    path: '/webhooks/inbound-email',
    contentType: `multipart/form-data; boundary=${boundary}`,
    headers: [
      ['User-Agent', 'Sendlib/1.0 mx.sendgrid.net'],
      ['Accept-Encoding', 'gzip'],
    ],
    body,
    label: 'inbound parse',
  };
}

function jira(r: Random): Hook {
  const body = JSON.stringify({
    timestamp: r.time() * 1000,
    webhookEvent: 'jira:issue_updated',
    issue_event_type_name: 'issue_generic',
    user: { displayName: "Jane O'Brien", accountId: r.hex(24) },
    issue: {
      key: `WEB-${r.int(1, 4000)}`,
      fields: {
        summary: r.pick([
          'Checkout fails when cart has > 10 items',
          "Names with apostrophes (O'Brien) rejected",
          'Report query: UNION returns duplicates',
        ]),
        description:
          'h3. Steps\n# Add 11 items\n# Click *Pay*\n\n{code:sql}SELECT * FROM carts WHERE id = 812;{code}\n\n[~jane] can you look?',
        status: { name: 'In Progress' },
        labels: ['checkout', 'p1'],
      },
    },
    changelog: { items: [{ field: 'status', fromString: 'To Do', toString: 'In Progress' }] },
  });
  return {
    service: 'Jira',
    path: '/webhooks/jira',
    contentType: 'application/json; charset=UTF-8',
    headers: [
      ['User-Agent', 'Atlassian Webhook HTTP Client'],
      ['Accept', '*/*'],
      ['X-Atlassian-Webhook-Identifier', r.digits(12)],
    ],
    body,
    label: 'issue_updated',
  };
}

/** One webhook delivery, from a service in proportion to how often such services call. */
export function webhook(corpus: CorpusBuilder): void {
  const r = corpus.random;
  const hook = r.weighted([
    [5, github],
    [5, stripe],
    [3, slack],
    [2, shopify],
    [1, twilio],
    [1, sendgridInbound],
    [1, jira],
  ])(r);
  const host = 'hooks.example.com';
  const headers: Headers = [
    ['Host', host],
    ...hook.headers,
    ['Content-Type', hook.contentType],
    ['Content-Length', lengthOf(hook.body)],
  ];
  corpus.add(
    'webhook',
    `POST ${host}${hook.path} ${hook.service} ${hook.label}`,
    message({
      method: 'POST',
      host,
      target: hook.path,
      version: 'HTTP/1.1',
      headers,
      clientIp: corpus.ip(),
      body: hook.body,
    }),
  );
}
