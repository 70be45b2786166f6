// Run by scripts/library-cache.mjs in a fresh `node` with the directory of a new dist/: loads the library
// as dist/index.js does, runs what a typical user of the library runs (an expression parsed, checked,
// formatted, compiled and evaluated; a zone deploying both managed rulesets compiled and asked about an
// attack and an ordinary request), writes V8's code cache for the script, and prints the library's export
// names. It checks the answers, so that a workload that did not do its work fails the build.
'use strict';

const assert = require('node:assert/strict');
const { loadLibrary } = require('../bin/load-library.js');
const { writeCacheFile } = require('../bin/code-cache.js');

const dist = process.argv[2];
const { library: lib, script, cacheFile } = loadLibrary(dist);
assert.ok(cacheFile, 'dist/library.cjs has no header naming its cache file');

const expression =
  'http.request.uri.path contains "/admin" and ip.src in {192.0.2.0/24} and lower(http.user_agent) matches "bot"';
assert.ok(lib.parse(expression).ast, 'the warm-up expression does not parse');
lib.format(expression);
const checked = lib.validate(expression);
assert.ok(checked.ok, 'the warm-up expression does not validate');

// A zone deploying both managed rulesets by their public ids (src/engine/managed/constants.ts).
const compiled = lib.compileZone(require('./managed-zone.json'));
assert.ok(compiled.ok, 'the warm-up zone does not compile');
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0';
const request = (url, userAgent = BROWSER, clientIp = '203.0.113.24') => {
  const read = lib.readSampleRequest({
    method: 'GET',
    url,
    headers: [
      ['Host', 'shop.example.com'],
      ['User-Agent', userAgent],
      ['Accept', 'text/html'],
    ],
    clientIp,
  });
  assert.ok(read.ok, `the warm-up request ${url} does not read`);
  return read.request;
};
const bot = request('https://shop.example.com/admin/users', 'ExampleBot/1.0', '192.0.2.7');
assert.equal(lib.evaluate(expression, bot), true, 'the warm-up expression does not match');
const attack = compiled.zone.simulate(request("https://shop.example.com/search?q=1'%20OR%20'1'%3D'1"));
assert.equal(attack.action, 'block', 'the warm-up attack is not blocked');
const ordinary = compiled.zone.simulate(request('https://shop.example.com/products?page=2&sort=price'));
assert.notEqual(ordinary.action, 'block', 'the warm-up ordinary request is blocked');

const error = writeCacheFile(cacheFile, script.createCachedData());
if (error) throw error;
process.stdout.write(JSON.stringify(Object.keys(lib)));
