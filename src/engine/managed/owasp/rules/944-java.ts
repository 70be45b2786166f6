import { type CrsRule, crsExpression } from '../crs.js';

/**
 * CRS 944: attacks on Java applications. Three kinds of payload:
 *
 * - code that reaches the process-spawning classes (`java.lang.Runtime`, `ProcessBuilder`) through an
 *   expression language (OGNL, SpEL, EL) or a deserialiser, and other classes of the platform and of
 *   well-known libraries that such payloads load (944100–944130, 944250, 944260);
 * - serialised Java objects, raw or base64-encoded, and the "gadget" classes of Apache Commons Collections
 *   whose chains turn deserialisation into command execution (944120, 944200, 944210, 944240, 944300);
 * - Log4Shell lookups, `${jndi:…}` and their nested, encoded spellings (944150–944152);
 *
 * and JSP files uploaded to be run (944140).
 */

const TAGS_RCE = ['application-multi', 'language-java', 'platform-multi', 'attack-rce', 'PCI/6.5.2'];
const TAGS_INJECTION = ['application-multi', 'language-java', 'platform-multi', 'attack-injection-java'];

/** What most 944 rules inspect: arguments, cookies, headers, the unparsed body and XML values. */
const JAVA_TARGETS =
  'ARGS|ARGS_NAMES|REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|REQUEST_COOKIES_NAMES|REQUEST_BODY|REQUEST_HEADERS|XML:/*|XML://@*';
/** The Log4Shell rules add the request line and keep analytics cookies (a lookup is dangerous anywhere). */
const LOG4J_TARGETS =
  'REQUEST_LINE|ARGS|ARGS_NAMES|REQUEST_COOKIES|REQUEST_COOKIES_NAMES|REQUEST_HEADERS|XML:/*|XML://@*';

/** The two ways Java starts a process. */
const PROCESS_SPAWN = 'runtime|processbuilder';

/**
 * Apache Commons Collections functors and other classes that deserialisation gadget chains are built from
 * (CVE-2015-4852 and its kin), with `getProperty`, `FileWriter` and `XMLDecoder` that such chains call;
 * lower case, for lower-cased values.
 */
const GADGET_CLASSES = [
  'invokertransformer',
  'instantiatetransformer',
  'clonetransformer',
  'chainedtransformer',
  'constanttransformer',
  'instantiatefactory',
  'prototypeclonefactory',
  'prototypeserializationfactory',
  'forclosure',
  'whileclosure',
  'getproperty',
  'filewriter',
  'xmldecoder',
].join('|');

/**
 * The class names 944300 looks for in base64 data: as Java writes them in a serialised stream, and in
 * lower case.
 */
const BASE64_KEYWORDS = [
  'Runtime',
  'ProcessBuilder',
  'InvokerTransformer',
  'InstantiateTransformer',
  'CloneTransformer',
  'ChainedTransformer',
  'ConstantTransformer',
  'InstantiateFactory',
  'PrototypeCloneFactory',
  'PrototypeSerializationFactory',
  'ForClosure',
  'WhileClosure',
];

// ——— Base64 ———

const BASE64_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** A digit, in a regex class: the URL-safe alphabet writes 62 and 63 as `-` and `_`. */
const base64Digit = (value: number) =>
  value === 62 ? String.raw`+\-` : value === 63 ? '/_' : (BASE64_DIGITS[value] as string);

/**
 * A regex for `text` (bytes) base64-encoded inside a larger base64 string, whatever comes before and after
 * it: one alternative for each of the three positions it can start at within a 3-byte group. A digit made
 * only of the text's bits is written as it is; a digit shared with a neighbouring byte (the first or the
 * last), whose other bits can be anything, as the class of the digits it can be — or, without `edges`, is
 * left out. So `runtime` at offset 0 is `cnVudGltZ[Q-f]`: the same whether the string ends after it
 * (`cnVudGltZQ`) or goes on.
 */
function base64Forms(text: string, edges = true): string[] {
  const bit = (position: number) => (text.charCodeAt(position >> 3) >> (7 - (position & 7))) & 1;
  const forms: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const start = offset * 8;
    const end = start + text.length * 8;
    let form = '';
    for (let first = Math.floor(start / 6) * 6; first < end; first += 6) {
      const values: number[] = [];
      for (let value = 0; value < 64; value++) {
        let fits = true;
        for (let k = 0; k < 6 && fits; k++) {
          const position = first + k;
          if (position >= start && position < end) fits = ((value >> (5 - k)) & 1) === bit(position - start);
        }
        if (fits) values.push(value);
      }
      const digits = values.map(base64Digit).join('');
      if (values.length === 1 && digits.length === 1) form += digits;
      else if (values.length === 1 || edges) form += `[${digits}]`;
    }
    forms.push(form);
  }
  return forms;
}

/** A chain link as CRS writes one: a regex over the values of targets, untransformed. */
const chainLink = (targets: string, regex: string): string =>
  crsExpression({
    id: 0,
    description: '',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: [],
    targets,
    test: { regex },
  });

/** `${` as Log4j reads it, and as it survives decoding: `$` or `&dollar;`, `{` or `&lbrace;` / `&lcub;`. */
const LOOKUP = String.raw`(?:\$|&dollar;?)(?:\{|&l(?:brace|cub);?)`;

/** 944151: as 944150, with a nested lookup at any distance inside the outer one. */
const LOG4J_NESTED: CrsRule = {
  id: 944151,
  description: 'Potential Remote Command Execution: Log4j / Log4shell',
  paranoiaLevel: 2,
  severity: 'critical',
  tags: TAGS_RCE,
  targets: LOG4J_TARGETS,
  transformations: 'none,urlDecodeUni,jsDecode,htmlEntityDecode',
  test: { regex: `(?i)${LOOKUP}(?:jndi|ctx|[^}]*${LOOKUP})` },
};

/** 944152: any lookup at all. */
const LOG4J_ANY: CrsRule = {
  ...LOG4J_NESTED,
  id: 944152,
  paranoiaLevel: 4,
  test: { regex: `(?i)${LOOKUP}` },
};

export const JAVA_RULES: readonly CrsRule[] = [
  {
    id: 944100,
    description: 'Remote Command Execution: Suspicious Java class detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS_RCE,
    targets: JAVA_TARGETS,
    transformations: 'none,lowercase',
    // The fully qualified names of the process-spawning classes, as OGNL and EL payloads write them
    // (@java.lang.Runtime@getRuntime(), new java.lang.ProcessBuilder(…)).
    test: { regex: String.raw`java\.lang\.(?:${PROCESS_SPAWN})` },
  },
  {
    id: 944110,
    description: 'Remote Command Execution: Java process spawn (CVE-2017-9805)',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS_RCE,
    targets: JAVA_TARGETS,
    transformations: 'none,lowercase',
    // A process-spawning class named anywhere, in a request that also carries a Java package name or
    // the marks of an XStream payload (CVE-2017-9805: an `unmarshaller` and a `base64Data` element) —
    // the two need not be in the same value.
    test: { regex: PROCESS_SPAWN },
    and: chainLink(JAVA_TARGETS, String.raw`unmarshaller|base64data|java\.`),
  },
  {
    id: 944120,
    description: 'Remote Command Execution: Java serialization (CVE-2015-4852)',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS_RCE,
    targets: JAVA_TARGETS,
    transformations: 'none,lowercase',
    // A gadget class and a process-spawning class in the same value, in either order.
    test: {
      regex: `(?s)(?:${GADGET_CLASSES}).*(?:${PROCESS_SPAWN})|(?:${PROCESS_SPAWN}).*(?:${GADGET_CLASSES})`,
    },
  },
  {
    id: 944130,
    description: 'Suspicious Java class detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS_RCE,
    targets:
      'ARGS|ARGS_NAMES|REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|REQUEST_COOKIES_NAMES|REQUEST_BODY|REQUEST_FILENAME|REQUEST_HEADERS|XML:/*|XML://@*',
    transformations: 'none',
    // Packages and classes that run commands, read and write files, load classes or reach JNDI, and the
    // libraries whose classes serve as gadgets (src/scheme/waf-phrase-lists/java-classes.json).
    test: { phrases: 'java-classes' },
  },
  {
    id: 944140,
    description: 'Java Injection Attack: Java Script File Upload Found',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS_INJECTION,
    targets:
      'FILES|REQUEST_HEADERS:X-Filename|REQUEST_HEADERS:X_Filename|REQUEST_HEADERS:X.Filename|REQUEST_HEADERS:X-File-Name',
    transformations: 'none,lowercase',
    // A JSP page or document (.jsp, .jspx, and the .jspf fragment), with the trailing dots and spaces
    // that Windows drops when it saves the file.
    test: { regex: String.raw`\.jsp[xf]?[.\s]*$` },
  },
  {
    id: 944150,
    description: 'Potential Remote Command Execution: Log4j / Log4shell',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS_RCE,
    targets: LOG4J_TARGETS,
    transformations: 'none,urlDecodeUni,jsDecode,htmlEntityDecode',
    // A `${jndi:` or `${ctx:` lookup, or a lookup nested close inside another (`${${::-j}ndi:`,
    // `${${lower:J}${lower:N}di:`), which is how the word jndi is hidden.
    test: { regex: `(?i)${LOOKUP}(?:jndi|ctx|[^}]{0,15}${LOOKUP})` },
  },
  LOG4J_NESTED,
  // CRS 4's development number of 944151 (its tests kept in step): a nested lookup at any distance.
  { ...LOG4J_NESTED, id: 944141 },
  // CRS 4's development number of 944152: any lookup at all.
  { ...LOG4J_ANY, id: 944142 },
  {
    id: 944200,
    description: 'Magic bytes Detected, probable java serialization in use',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS_RCE,
    targets: JAVA_TARGETS,
    // The stream header of Java object serialisation: magic AC ED, version 00 05.
    test: { regex: String.raw`\xac\xed\x00\x05` },
  },
  {
    id: 944210,
    description: 'Magic bytes Detected Base64 Encoded, probable java serialization in use',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS_RCE,
    targets: JAVA_TARGETS,
    // The same header base64-encoded (`rO0AB…` when it starts the string).
    test: { regex: base64Forms('\xac\xed\x00\x05').join('|') },
  },
  {
    id: 944240,
    description: 'Remote Command Execution: Java serialization (CVE-2015-4852)',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS_RCE,
    targets: JAVA_TARGETS,
    transformations: 'none,lowercase',
    // A gadget class alone.
    test: { regex: GADGET_CLASSES },
  },
  {
    id: 944250,
    description: 'Remote Command Execution: Suspicious Java method detected',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS_RCE,
    targets: JAVA_TARGETS,
    transformations: 'lowercase',
    // A Java package path (java. or the JVM's java/), then a process-spawning class later on the same
    // line: java.lang.Runtime is 944100's, this takes any path to it (java.lang.reflect…getRuntime,
    // Ljava/lang/Runtime;) — but not the words "Java Runtime Environment".
    test: { regex: `java[./].*?(?:${PROCESS_SPAWN})` },
  },
  {
    id: 944260,
    description: 'Remote Command Execution: Malicious class-loading payload',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS_RCE,
    targets: JAVA_TARGETS,
    transformations: 'urlDecodeUni',
    // Spring4Shell (CVE-2022-22965) reaches Tomcat's class loader through data binding; Spring's XML
    // application contexts load bean definitions, and so code, from a URL the attacker names.
    test: {
      regex: String.raw`class\.module\.classLoader\.|springframework\.context\.support\.(?:FileSystem|ClassPath)XmlApplicationContext`,
    },
  },
  {
    id: 944300,
    description: 'Base64 encoded string matched suspicious keyword',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: TAGS_RCE,
    targets: JAVA_TARGETS,
    transformations: 'none',
    // The process-spawning and Commons Collections gadget class names inside base64 data, at any of the
    // three alignments. The names are long enough for the digits they alone make (eight or more) to tell
    // them apart from other data, so the regex is a plain list of literals.
    test: {
      regex: [
        ...new Set(
          BASE64_KEYWORDS.flatMap((name) => [name, name.toLowerCase()]).flatMap((name) =>
            base64Forms(name, false),
          ),
        ),
      ].join('|'),
    },
  },
  LOG4J_ANY,
];
