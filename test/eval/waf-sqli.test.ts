import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectSqli, sqliFingerprints } from '../../src/eval/functions/waf/sqli.js';

/**
 * Our own SQL-injection cases for the libinjection-style detector, each with the fingerprint we expect (the
 * first reading that decides: as is, then after a `'`, then after a `"`), and our own benign values, none of
 * which may be detected. Neither list comes from another project's tests.
 */

const ATTACKS: readonly (readonly [input: string, fingerprint: string])[] = [
  // tautologies in a number
  ['1 or 1=1', '1&1'],
  ['1 OR 1=1--', '1&1c'],
  ['1234 OR 1=1', '1&1'],
  ['-1 or 2>1', '1&1'],
  ['1 and 1=2', '1&1'],
  ['1) or (1=1', '1)&(1'],
  ['1)) or ((1=1', '1)&(1'],
  ['1 and 1 between 0 and 2', '1&1'],
  ['1 or 1 like 1--', '1&1c'],
  ['1 and 1=1 limit 1', '1&1k1'],
  ["1 or 1=1 into outfile '/tmp/x'", '1&1ks'],
  ['1 and 0x41=0x41', '1&1'],
  ["1 and x'41'=x'41'", '1&1'],
  ['1 && 1=1', '1&1'],
  ['1 || 1=1', '1&1'],
  ['1 AnD 1=1', '1&1'],
  ['1/**/and/**/1=1', '1&1'],
  ['1 and 1<=>1', '1&1'],
  ["1 and 'a'='a", '1&sos'],
  // tautologies in a string
  ["1' or '1'='1", 's&sos'],
  ["' or ''='", 's&sos'],
  ["' or 'a'='a", 's&sos'],
  ["x' or 1=1--", 's&1c'],
  ["' or 1=1#", 's&1c'],
  ["' or 1=1/*", 's&1c'],
  ["' or true--", 's&1c'],
  ["x' or true", 's&1'],
  ["' or 'x", 's&s'],
  ["'='", 'sos'],
  ["' || '1'='1", 's&sos'],
  ["' && '1'='1", 's&sos'],
  ["1'/**/or/**/'1'='1", 's&sos'],
  ["') or ('1'='1", 's)&(s'],
  ["')) or (('x'='x", 's)&(s'],
  ['" or "a"="a', 's&sos'],
  ['" or 1=1--', 's&1c'],
  ['") or ("1"="1', 's)&(s'],
  ["x' and 1=1 and 'x'='x", 's&sos'],
  ["'or'1'='1", 's&sos'],
  ["' or username is not null--", 's&nc'],
  ["' or 'a' like 'a", 's&sos'],
  ["x' or email notnull--", 's&noc'],
  ["' and email = all (select email)--", 's&nof'],
  ["' or 1=1 -- /* /* */", 's&1c'],
  // comments cutting the statement off
  ["admin'--", 'sc'],
  ["admin' --", 'sc'],
  ["admin')--", 's)c'],
  ['admin"--', 'sc'],
  ["admin'/*", 'sc'],
  ["' collate utf8_bin--", 'sAnc'],
  ["1' where 1=1--", 'sk1c'],
  // UNION SELECT
  ['1 union select 1,2,3', '1UE1'],
  ['1 UNION ALL SELECT NULL,NULL,NULL--', '1UE1c'],
  ['-1 union select username,password from users--', '1UEnk'],
  ["' union select null--", 'sUE1c'],
  ["' UNION SELECT @@version--", 'sUEvc'],
  ["') union all select table_name from information_schema.tables#", 's)UEn'],
  ['1/**/union/**/select/**/1,2', '1UE1'],
  ['1 /*!50000union*/ /*!50000select*/ 1,2,3', '1UE1'],
  ['1 /*!UNION*/ /*!SELECT*/ 1', '1UE1'],
  ['1 UnIoN SeLeCt 1', '1UE1'],
  ['1 union distinct select 1', '1UE1'],
  ["' union (select 1)--", 'sU(E1'],
  ['1 except values(1)', '1Uf(1'],
  // stacked statements
  ['1; drop table users', '1;En'],
  ['1; DROP TABLE users--', '1;Enc'],
  ["'; drop table users--", 's;Enc'],
  ['"; DELETE FROM users WHERE 1=1--', 's;Enk'],
  ["'; update users set password='x' where user='admin'--", 's;Enk'],
  ["1; exec xp_cmdshell('dir')", '1;Tn('],
  ["'; exec master..xp_cmdshell 'ping 10.0.0.1'--", 's;Tns'],
  ["'; EXEC sp_executesql N'select 1'--", 's;Tns'],
  ['1; shutdown--', '1;Tc'],
  ["'; shutdown with nowait--", 's;Tkn'],
  ["1; declare @x varchar(99); set @x='a'--", '1;Tv('],
  ["'; if (1=1) waitfor delay '0:0:5'--", 's;T(1'],
  // time-based
  ['1 and sleep(5)', '1&f(1'],
  ["1' and sleep(5)#", 's&f(1'],
  ["1' AND SLEEP(5) AND '1'='1", 's&f(1'],
  ["' or sleep(5)='", 's&f(1'],
  ['1 and benchmark(10000000,md5(1))', '1&f(1'],
  ["'; waitfor delay '0:0:5'--", 's;Tsc'],
  ["1 waitfor delay '0:0:10'", '1Ts'],
  ["1); waitfor delay '0:0:5'--", '1);Ts'],
  ["' and pg_sleep(5)--", 's&f(1'],
  ["'; select pg_sleep(5)--", 's;Ef('],
  ["'||pg_sleep(5)||'", 's&f(1'],
  ["1 AND 1=dbms_pipe.receive_message('a',5)", '1&1of'],
  ["1' and if(1=1,sleep(5),0)#", 's&f(1'],
  ["' and case when 1=1 then sleep(5) else 0 end--", 's&kk1'],
  ["' and randomblob(500000000)--", 's&f(1'],
  ['1-sleep(5)', '1of(1'],
  ["'-sleep(5)-'", 'sof(1'],
  ["'+sleep(5)+'", 'sof(1'],
  ["x'*2--", 'so1c'],
  ["' xor sleep(5)--", 's&f(1'],
  // a value that is a call
  ['sleep(5)', 'f(1)'],
  ['SLEEP(10)', 'f(1)'],
  ['benchmark(1000000,md5(1))', 'f(1,f'],
  ['pg_sleep(10)', 'f(1)'],
  ['version()', 'f()'],
  ['user()', 'f()'],
  ["load_file('/etc/passwd')", 'f(s)'],
  ['concat(0x7e,version())', 'f(1,f'],
  // error-based and blind
  ["' and extractvalue(1,concat(0x7e,version()))--", 's&f(1'],
  ['1 and updatexml(1,concat(0x7e,(select user())),1)', '1&f(1'],
  ["' and 1=convert(int,@@version)--", 's&1of'],
  ["' and 1=cast((select @@version) as int)--", 's&1of'],
  [
    "' AND (SELECT 1 FROM (SELECT COUNT(*),CONCAT(version(),FLOOR(RAND(0)*2))x FROM information_schema.tables GROUP BY x)a)--",
    's&(E1',
  ],
  ["' and 1=utl_inaddr.get_host_address((select user from dual))--", 's&1of'],
  ['1 and gtid_subset(concat(0x7e,version()),1)', '1&f(f'],
  ["' and row(1,1)>(select count(*),concat(version(),floor(rand(0)*2))x from users group by x)--", 's&f(1'],
  ['1 and ascii(substring((select database()),1,1))>64', '1&f(f'],
  ["' and substring(@@version,1,1)='5", 's&f(v'],
  ['1 and (select count(*) from users) > 0', '1&(Ef'],
  ['1 rlike (select (case when (1=1) then 1 else 0x28 end))', '1o(E('],
  ["' or 1 in (select @@version)--", 's&1o('],
  ["' or exists(select 1)--", 's&f(E'],
  ['1 and not exists(select 1 from users)', '1&f(E'],
  ['1 or @@version>0', '1&v'],
  ["' or @@datadir like '%'--", 's&vos'],
  // character building
  ["' + char(65) + '", 'sof(1'],
  ['1 and char(49)=char(49)', '1&f(1'],
  ["' || chr(65) || '", 's&f(1'],
  // ORDER BY, GROUP BY, PROCEDURE, INTO OUTFILE
  ["1' order by 1--", 'sB1c'],
  ["1' ORDER BY 10#", 'sB1o'],
  ['1 order by 3', '1B1'],
  ["1' group by 1,2 having 1=1--", 'sB1B1'],
  ["' having 1=1--", 'sB1c'],
  ['1 procedure analyse(extractvalue(rand(),concat(0x3a,version())),1)', '1kf(f'],
  ["' into outfile '/var/www/shell.php'--", 'sksc'],
  // a value that is a statement
  ['select * from users', 'Eokn'],
  ['SELECT * FROM users WHERE id=1', 'Eoknk'],
  ['select @@version', 'Ev'],
  ["select load_file('/etc/passwd')", 'Ef(s)'],
  ['select name from users', 'Enkn'],
  ['(select 1)', 'E1)'],
  ['drop table users', 'En'],
  ["waitfor delay '0:0:5'", 'Ts'],
  ["exec xp_cmdshell 'dir'", 'Tns'],
  ['declare @q varchar(99)', 'Tv(1)'],
  // comments no reading agrees on
  ['1 /* a /* nested */ comment */ or 1=1', 'X'],
  // breaking out and back into the string
  ["file:/init.ini'.sleep(12).'", 's.f(1'],
  ["2010-01-01'+sleep(20.to_i)+'", 'sof(1'],
  ['unittests@coreruleset.org" sleep(10.to_i) "', 'sf(1n'],
  ['" | type %SystemDrive%\\config.ini | "', 'sonos'],
];

/** Benign values written for this project: prose with apostrophes and SQL words, data, code, markup. */
const BENIGN = readFileSync(new URL('../fixtures/waf-sqli/benign.txt', import.meta.url), 'latin1')
  .split('\n')
  .filter((line) => line !== '');

describe('detectSqli: injections', () => {
  it.each(ATTACKS)('%s → %s', (input, fingerprint) => {
    expect(detectSqli(input)).toEqual({ fingerprint });
  });

  it('reads a value after a URL decoding as the rule gives it (a binary string, one char per byte)', () => {
    const utf8 = Buffer.from("é' or 'a'='a", 'utf8').toString('latin1');
    expect(detectSqli(utf8)?.fingerprint).toBe('s&sos');
    expect(detectSqli("\xff\xfe' union select 1--")?.fingerprint).toBe('sUE1c');
  });
});

describe('detectSqli: benign values', () => {
  it('has a benign fixture of at least 300 values', () => {
    expect(BENIGN.length).toBeGreaterThanOrEqual(300);
  });

  it('detects none of the benign fixture', () => {
    const detected = BENIGN.filter((input) => detectSqli(input) !== undefined).map(
      (input) => `${input}  (${sqliFingerprints(input).join(' ')})`,
    );
    expect(detected).toEqual([]);
  });

  it.each([
    '',
    ' ',
    '1',
    "'",
    '"',
    '--',
    '#',
    '/*',
    'select',
    'union',
    '@@version',
    // MySQL's `#` ends too many values (`x'#`, `item #`) to count on its own, as libinjection decides too.
    "admin'#",
    // Arithmetic and logic between constants, without a comparison to make a tautology.
    '1 or 2',
    '1 or true',
    '1 xor 1',
    '2 + 2 = 4',
    '1 < 2 and 3 > 2',
    // A call of a function that does not probe the server is a formula.
    'max(1, 2)',
    'year (2020)',
    'x = max(a, b)',
    'console.log("x")',
    // A path, a format or a glob between quotes is not an expression.
    '<a href="/home">Home</a>',
    "GetIntrinsic('%Array.prototype.push%')",
    'src/*.js',
    // Possessives and quoted words.
    "users' and authors' rights",
    'the word "and" is a conjunction',
  ])('%j is not an injection', (input) => {
    expect(detectSqli(input), sqliFingerprints(input).join(' ')).toBeUndefined();
  });
});

describe('detectSqli: readings', () => {
  it('reads the value as is, after a single quote, after a double quote', () => {
    expect(sqliFingerprints("x' or 1=1--")).toEqual([
      'none:1',
      'none/mysql:1',
      'single:s&1c!',
      'single/mysql:s&1c!',
      'double/mysql:s',
    ]);
  });

  it('reads `#` and `--x` the MySQL way too', () => {
    // Standard SQL: `#` is an operator; MySQL: a comment.
    expect(sqliFingerprints('1 or 1=1#')).toContain('none/mysql:1&1c!');
    // Standard SQL: `--1` is a comment; MySQL: two minus signs.
    expect(sqliFingerprints('1 --1 union select 1')).toEqual(
      expect.arrayContaining(['none:1c', 'none/mysql:1UE1!']),
    );
  });

  it('ends a string at a backslashed quote the standard way, and not the MySQL way', () => {
    expect(detectSqli("x\\' or 1=1--")?.fingerprint).toBe('s&1c');
    expect(sqliFingerprints("x\\' or 1=1--")).toContain('single/mysql:s');
  });

  it('reads the text of MySQL executable comments as SQL', () => {
    expect(detectSqli('1 /*!50000union*/ /*!50000select*/ 1')?.fingerprint).toBe('1UE1');
    expect(detectSqli('1 /*union*/ /*select*/ 1')).toBeUndefined();
  });

  it('gives X alone for a comment nested in a comment', () => {
    expect(detectSqli('/* /* */ union select 1 -- */')?.fingerprint).toBe('X');
  });

  it('folds phrases, lists, comparisons, qualified names and casts', () => {
    expect(detectSqli('1 UNION ALL SELECT 1,2,3,4,5,6,7,8,9--')?.fingerprint).toBe('1UE1c');
    expect(detectSqli('1 and 1=1 and 2=2 and 3=3')?.fingerprint).toBe('1&1');
    expect(detectSqli('1 and information_schema.tables.x=1 or sleep(1)')?.fingerprint).toBe('1&f(1');
    expect(detectSqli("' and binary 'a'='a")?.fingerprint).toBe('s&sos');
    expect(detectSqli("' or 'a'::text='a")?.fingerprint).toBe('s&sos');
  });

  it('reads no further than the fingerprint needs', () => {
    const long = `1 union select ${'a'.repeat(1 << 20)}`;
    expect(detectSqli(long)?.fingerprint).toBe('1UEn');
  });
});
