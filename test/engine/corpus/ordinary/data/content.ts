/**
 * Content that users and editors send through APIs: Markdown with code, HTML from rich-text editors, code
 * snippets, expressions and queries written in settings screens. Written for this corpus.
 */

/** Markdown posts, READMEs and answers: code fences, shell snippets, links, tables. */
export const MARKDOWN: readonly string[] = [
  '## Setup\n\nRun:\n\n```bash\nnpm install\nnpm run dev\n```\n\nThen open http://localhost:3000.',
  '### Install\n\n```sh\ncurl -fsSL https://get.example.dev/install.sh | sh\nexport PATH="$HOME/.example/bin:$PATH"\n```\n\n> **Note:** on Windows use `winget install example`.',
  'To deploy:\n\n```\ndocker compose pull\ndocker compose up -d\ndocker compose logs -f web\n```\n\nIf it hangs, check `docker ps -a`.',
  '```python\nimport requests\n\nresp = requests.get("https://api.example.com/v1/orders", headers={"Authorization": f"Bearer {token}"})\nresp.raise_for_status()\nprint(resp.json()["data"])\n```',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: code users write, sent as text
  '```js\nconst res = await fetch(`/api/v1/items?page=${page}`);\nif (!res.ok) throw new Error(`HTTP ${res.status}`);\nconst { items } = await res.json();\n```',
  '| Plan | Price | Seats |\n|---|---|---|\n| Free | $0 | 1 |\n| Pro | $12/mo | 5 |\n| Team | $49/mo | 25 |\n\n*Prices exclude VAT.*',
  '- [x] write tests\n- [ ] update docs\n- [ ] bump version to **2.4.0**\n\ncc @jane @omar',
  'Fixed in #812 :tada:\n\n```diff\n- if (user.role = "admin") {\n+ if (user.role === "admin") {\n```',
  '```yaml\nservices:\n  web:\n    image: nginx:1.25\n    ports:\n      - "8080:80"\n    volumes:\n      - ./site:/usr/share/nginx/html:ro\n```',
  '```go\nfunc main() {\n\thttp.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {\n\t\tw.WriteHeader(http.StatusOK)\n\t})\n\tlog.Fatal(http.ListenAndServe(":8080", nil))\n}\n```',
  "```sql\nSELECT o.id, o.total, c.name\nFROM orders o\nJOIN customers c ON c.id = o.customer_id\nWHERE o.created_at >= now() - interval '7 days'\nORDER BY o.total DESC\nLIMIT 20;\n```",
  'Use `git rebase -i HEAD~3` to squash, then `git push --force-with-lease`.',
  '1. Go to **Settings → API keys**\n2. Click *Create key*\n3. Copy it — you won\'t see it again!\n\n![screenshot](https://cdn.example.com/docs/api-keys.png "API keys page")',
  '```powershell\nGet-ChildItem -Path C:\\Logs -Filter *.log | Where-Object { $_.LastWriteTime -lt (Get-Date).AddDays(-30) }\n```',
  'The config lives in `~/.config/example/config.toml`:\n\n```toml\n[server]\nhost = "0.0.0.0"\nport = 8080\n```',
  '```css\n.btn-primary:hover {\n  background: rgb(0 112 243 / 90%);\n}\n@media (max-width: 640px) { .nav { display: none; } }\n```',
  'Quick benchmark (lower is better):\n\n```\nwrk -t4 -c100 -d30s http://localhost:8080/\nLatency   12.31ms    4.02ms  98.20ms\n```',
  '```html\n<button class="btn" onclick="save()">Save</button>\n<script src="/static/js/app.js" defer></script>\n```\nWhy does `save()` run twice?',
  'Kubernetes tip: `kubectl get pods -n prod -o wide | grep -v Running`',
  'TIL: `SELECT DISTINCT ON (user_id) *` in Postgres returns one row per user. Handy!',
];

/** HTML fragments as rich-text editors (TinyMCE, Quill, CKEditor, ProseMirror) send them. */
export const RICH_TEXT: readonly string[] = [
  '<p><strong>Hi</strong></p>',
  '<p>Hello <em>everyone</em>,</p><p>the meeting moved to <strong>3 pm</strong>.</p>',
  '<p>See <a href="https://docs.example.dev/guides/setup" target="_blank" rel="noopener noreferrer">the setup guide</a>.</p>',
  '<ul><li>Milk</li><li>Eggs &amp; flour</li><li>Sugar (½ cup)</li></ul>',
  '<p><span style="color: rgb(230, 0, 0);">Important:</span> offices closed on Monday.</p>',
  '<h2>Q2 goals</h2><ol><li>Ship v2</li><li>Hire 3 engineers</li></ol>',
  '<blockquote><p>Simplicity is prerequisite for reliability.</p></blockquote><p>— Dijkstra</p>',
  '<p><img src="https://cdn.example.com/uploads/2024/05/team.jpg" alt="Our team at the offsite" width="640"></p>',
  '<pre><code class="language-js">const total = items.reduce((a, b) =&gt; a + b.price, 0);</code></pre>',
  '<p>Price: <s>$49</s> <strong>$39</strong> — this week only!</p>',
  '<table><tbody><tr><td>Size</td><td>EU 42</td></tr><tr><td>Colour</td><td>Navy</td></tr></tbody></table>',
  '<p>Dear customer,<br>thank you for your order.<br><br>Kind regards,<br>The Shop Team</p>',
  '<div class="ql-align-center"><p class="ql-align-center">Centered text</p></div>',
  '<p data-pm-slice="1 1 []">Pasted from Notion: <code>select * from tasks</code></p>',
  '<p>Call us at <a href="tel:+15550100">+1 555 0100</a> or <a href="mailto:help@example.com">email</a>.</p>',
  '<figure class="image"><img src="/media/chart.png"><figcaption>Revenue 2023–2024</figcaption></figure>',
  '<p>I &lt;3 this product &amp; the team!</p>',
  '<p style="text-align: justify;">Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>',
  '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" width="560" height="315" frameborder="0" allowfullscreen></iframe>',
  '<p>Step 1: open <kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>P</kbd></p>',
];

/** Snippets users paste into code-sharing, CI or support tools (ordinary developer code). */
export const CODE_SNIPPETS: readonly { language: string; code: string }[] = [
  { language: 'python', code: 'for row in rows:\n    print(row["name"], row.get("email", ""))' },
  // biome-ignore lint/suspicious/noTemplateCurlyInString: code users write, sent as text
  { language: 'javascript', code: "document.querySelector('#total').textContent = `${sum.toFixed(2)} €`;" },
  { language: 'typescript', code: 'export const isAdmin = (u: User): boolean => u.roles.includes("admin");' },
  { language: 'bash', code: 'for f in *.jpg; do convert "$f" -resize 50% "small_$f"; done' },
  {
    language: 'sql',
    code: "SELECT name, COUNT(*) AS n FROM orders WHERE status = 'shipped' GROUP BY name HAVING COUNT(*) > 1;",
  },
  { language: 'sql', code: 'UPDATE users SET last_login = NOW() WHERE id = 42;' },
  {
    language: 'java',
    code: 'List<String> names = users.stream().map(User::getName).collect(Collectors.toList());',
  },
  {
    language: 'php',
    code: '<?php\n$total = array_sum(array_column($items, "price"));\necho number_format($total, 2);',
  },
  { language: 'ruby', code: 'users.select { |u| u.active? }.map(&:email).join(", ")' },
  { language: 'go', code: 'if err != nil {\n\treturn fmt.Errorf("load config: %w", err)\n}' },
  { language: 'rust', code: 'let total: u32 = items.iter().map(|i| i.qty).sum();' },
  { language: 'csharp', code: 'var adults = people.Where(p => p.Age >= 18).OrderBy(p => p.Name).ToList();' },
  {
    language: 'yaml',
    code: 'on:\n  push:\n    branches: [main]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci && npm test',
  },
  {
    language: 'dockerfile',
    code: 'FROM node:20-alpine\nWORKDIR /app\nCOPY package*.json ./\nRUN npm ci --omit=dev\nCOPY . .\nCMD ["node", "server.js"]',
  },
  {
    language: 'nginx',
    code: 'location /api/ {\n    proxy_pass http://127.0.0.1:8080/;\n    proxy_set_header Host $host;\n}',
  },
  { language: 'json', code: '{"compilerOptions": {"strict": true, "target": "ES2022"}}' },
];

/**
 * Expressions people write in settings screens: firewall rules, search queries, spreadsheet formulas,
 * alert conditions, Jira JQL.
 */
export const EXPRESSIONS: readonly string[] = [
  'http.host eq "example.com" and not ip.src in {10.0.0.0/8}',
  '(http.request.uri.path contains "/admin" and not ip.src in $office_ips) or cf.threat_score gt 30',
  'http.request.uri.path matches "^/api/v[0-9]+/" and http.request.method in {"POST" "PUT"}',
  'ip.src.country in {"CN" "RU"} and not cf.client.bot',
  'status:open AND assignee:me ORDER BY updated DESC',
  'project = WEB AND status in ("In Progress", "Code Review") AND assignee = currentUser() ORDER BY priority DESC',
  'priority = High OR labels = urgent',
  'avg(last_5m):avg:system.cpu.user{env:prod} by {host} > 90',
  'sum(rate(http_requests_total{status=~"5.."}[5m])) / sum(rate(http_requests_total[5m])) > 0.01',
  '=IF(AND(B2>0, C2<100), "ok", "check")',
  '=VLOOKUP(A2, Sheet2!A:C, 3, FALSE)',
  'name:"John Smith" AND (city:Boston OR city:"New York")',
  'price:[10 TO 20] AND category:shoes',
  'created_at >= "2024-01-01" && status != "archived"',
  'user.age > 18 && user.country == "DE"',
  '$.store.book[?(@.price < 10)].title',
  "event.type == 'purchase' && event.value > 100",
];

/** SQL and code a documentation CMS or a data tool stores as content. */
export const DOCS_SQL: readonly string[] = [
  "SELECT id, email FROM users WHERE created_at > now() - interval '30 days' ORDER BY id;",
  'CREATE INDEX CONCURRENTLY idx_orders_customer ON orders (customer_id);',
  'SELECT product_id, SUM(qty) FROM order_items GROUP BY product_id ORDER BY 2 DESC LIMIT 10;',
  "ALTER TABLE accounts ADD COLUMN plan text NOT NULL DEFAULT 'free';",
  "WITH recent AS (SELECT * FROM events WHERE ts > now() - interval '1 day') SELECT type, count(*) FROM recent GROUP BY type;",
  "SELECT * FROM pg_stat_activity WHERE state = 'active';",
  'DELETE FROM sessions WHERE expires_at < now();',
  "INSERT INTO tags (name) VALUES ('sale'), ('new') ON CONFLICT DO NOTHING;",
  'SELECT a.name, b.name FROM teams a UNION SELECT c.name, d.name FROM leagues c JOIN divisions d ON d.league_id = c.id;',
  "EXPLAIN ANALYZE SELECT * FROM orders WHERE status = 'open';",
];

/** GraphQL documents a web or mobile client sends. */
export const GRAPHQL: readonly {
  operationName: string;
  query: string;
  variables: Record<string, unknown>;
}[] = [
  {
    operationName: 'GetProduct',
    query:
      'query GetProduct($handle: String!, $country: CountryCode) @inContext(country: $country) {\n  product(handle: $handle) {\n    id\n    title\n    descriptionHtml\n    variants(first: 10) { nodes { id title price { amount currencyCode } availableForSale } }\n  }\n}',
    variables: { handle: 'trail-runner-2', country: 'DE' },
  },
  {
    operationName: 'SearchProducts',
    query:
      'query SearchProducts($query: String!, $first: Int = 20, $after: String) {\n  search(query: $query, first: $first, after: $after, types: PRODUCT) {\n    pageInfo { hasNextPage endCursor }\n    nodes { ... on Product { id title handle } }\n  }\n}',
    variables: { query: "men's shoes", first: 24, after: null },
  },
  {
    operationName: 'AddToCart',
    query:
      'mutation AddToCart($cartId: ID!, $lines: [CartLineInput!]!) {\n  cartLinesAdd(cartId: $cartId, lines: $lines) {\n    cart { id totalQuantity }\n    userErrors { field message }\n  }\n}',
    variables: {
      cartId: 'gid://shop/Cart/c1-7f3a9b',
      lines: [{ merchandiseId: 'gid://shop/ProductVariant/4412', quantity: 2 }],
    },
  },
  {
    operationName: 'Viewer',
    query:
      'query Viewer {\n  viewer {\n    login\n    name\n    avatarUrl(size: 64)\n    organizations(first: 5) { nodes { login } }\n  }\n}',
    variables: {},
  },
  {
    operationName: 'CreateIssue',
    query:
      'mutation CreateIssue($input: IssueCreateInput!) {\n  issueCreate(input: $input) { success issue { id identifier url } }\n}',
    variables: {
      input: {
        teamId: 'c1f4e1d2',
        title: 'Checkout fails when cart has > 10 items',
        description:
          'Steps:\n1. Add 11 items\n2. Click **Pay**\n\nExpected: payment page\nActual: `500 Internal Server Error`',
        priority: 2,
      },
    },
  },
  {
    operationName: 'UpdateProfile',
    query:
      'mutation UpdateProfile($input: ProfileInput!) {\n  updateProfile(input: $input) { profile { id displayName bio } errors { message } }\n}',
    variables: { input: { displayName: "Seán O'Connor", bio: 'Dev @ Acme • coffee & code ☕' } },
  },
  {
    operationName: 'Feed',
    query:
      'query Feed($first: Int!, $after: String) {\n  feed(first: $first, after: $after) {\n    edges { cursor node { id ...PostFields author { ...UserFields } } }\n  }\n}\nfragment PostFields on Post { title excerpt publishedAt commentCount }\nfragment UserFields on User { id name avatar }',
    variables: { first: 10, after: 'YXJyYXljb25uZWN0aW9uOjk=' },
  },
  {
    operationName: 'OrderHistory',
    query:
      'query OrderHistory($first: Int, $filter: OrderFilter) {\n  orders(first: $first, filter: $filter, sortKey: PROCESSED_AT, reverse: true) {\n    nodes { id name processedAt totalPrice { amount } fulfillmentStatus }\n  }\n}',
    variables: { first: 20, filter: { status: ['OPEN', 'CLOSED'], createdAfter: '2024-01-01T00:00:00Z' } },
  },
  {
    operationName: 'AddComment',
    query:
      'mutation AddComment($postId: ID!, $body: String!) {\n  addComment(postId: $postId, body: $body) { comment { id createdAt } }\n}',
    variables: {
      postId: 'UG9zdDo4MTI=',
      body: "Great post! Minor nit: it's `SELECT ... FOR UPDATE`, not `FOR LOCK`.",
    },
  },
];

/** What a Q&A site, a forum or an issue tracker for developers receives from its users. */
export const BORDERLINE_POSTS: readonly { kind: string; title: string; body: string }[] = [
  {
    kind: 'borderline-security-question',
    title: 'How do I prevent SQL injection in PHP?',
    body: "I build my query like this:\n\n```php\n$sql = \"SELECT * FROM users WHERE name = '\" . $_GET['name'] . \"'\";\n```\n\nSomeone said it's vulnerable to SQL injection. How do I fix it? Is `mysqli_real_escape_string` enough or should I use prepared statements?",
  },
  {
    kind: 'borderline-security-question',
    title: 'Is my login form safe from XSS?',
    body: 'I echo the username back on error:\n\n```php\necho "Unknown user: " . $_POST["user"];\n```\n\nShould I use `htmlspecialchars()` here? What would an attacker type?',
  },
  {
    kind: 'borderline-security-question',
    title: "Why does ' OR 1=1 -- log me in?",
    body: "Our security course has a lab where typing `' OR 1=1 --` as the password logs you in. I understand it's SQL injection but not *why* the `--` is needed. Can someone explain?",
  },
  {
    kind: 'borderline-code',
    title: 'rm -rf node_modules does not free disk space',
    body: 'After `rm -rf node_modules && npm ci` my disk is still full. `du -sh ~/.npm` says 12G. Is it safe to run `npm cache clean --force`?',
  },
  {
    kind: 'borderline-code',
    title: 'Cleanup script for old releases',
    body: '```bash\n#!/usr/bin/env bash\nset -euo pipefail\ncd /var/www/releases\nls -1t | tail -n +6 | xargs -r rm -rf --\n```\nKeeps the five newest releases. Any problem with spaces in names?',
  },
  {
    kind: 'borderline-code',
    title: 'Content Security Policy blocks my inline script',
    body: 'Console says:\n\n> Refused to execute inline script because it violates the following Content Security Policy directive: "script-src \'self\'".\n\nThe script is:\n\n```html\n<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);}</script>\n```\n\nDo I need a nonce?',
  },
  {
    kind: 'borderline-code',
    title: 'Reading /etc/passwd in Python',
    body: "For a user-management tool I read local accounts:\n\n```python\nwith open('/etc/passwd') as f:\n    users = [line.split(':')[0] for line in f]\n```\n\nIs there a better API than parsing the file?",
  },
  {
    kind: 'borderline-code',
    title: 'UNION query returns wrong column count',
    body: 'Error: `The used SELECT statements have a different number of columns`.\n\n```sql\nSELECT id, name FROM customers\nUNION ALL\nSELECT id, name, email FROM leads;\n```',
  },
  {
    kind: 'borderline-code',
    title: 'Escaping quotes in a bash one-liner',
    body: 'This fails:\n\n```\nssh prod \'grep -r "api_key" /srv/app/config | cut -d: -f1\'\n```\n\nbecause of the nested quotes. How do I escape them properly?',
  },
  {
    kind: 'borderline-security-question',
    title: 'What does <script>alert(1)</script> in a pentest report mean?',
    body: 'Our pentest report lists `<script>alert(1)</script>` reflected in the `q` parameter of our search page. Is that a real risk or just a proof of concept? How do we fix it in React?',
  },
  {
    kind: 'borderline-code',
    title: 'Windows: delete a folder with long paths',
    body: '`rmdir /s /q C:\\build\\out` fails with "path too long". `robocopy empty C:\\build\\out /mir` worked. Why?',
  },
  {
    kind: 'borderline-security-question',
    title: 'Log4Shell: are we affected?',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: code users write, sent as text
    body: 'We run Elasticsearch 7.10 and a Spring Boot app on log4j-core 2.14. I read that a string like `${jndi:ldap://...}` in a header triggers it. Which versions are patched, and is setting `log4j2.formatMsgNoLookups=true` enough?',
  },
];
