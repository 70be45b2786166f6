import { quotedString, rawString } from '../../inputs.js';
import type { CrsRule } from '../crs.js';
import { ALLOWED_CHARSETS, MEDIA_RANGES } from './920-protocol-enforcement.js';

/**
 * CRS 922: multipart attacks. A multipart body can change the charset its fields are read in — for the
 * whole form (a `_charset_` field, as HTML forms send) or for one part (its own Content-Type) — and carry
 * part headers that parsers disagree on. A field in UTF-7 or UTF-16 reads as harmless bytes to a WAF and as
 * `<script>` to the application.
 */

const TAGS = ['application-multi', 'language-multi', 'platform-multi', 'attack-multipart-header'];

export const MULTIPART_ATTACK_RULES: readonly CrsRule[] = [
  {
    id: 922100,
    description: 'Multipart content type global _charset_ definition is not allowed by policy',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    // Every `_charset_` part must name an allowed charset: one that is not fires, even when another part or
    // the query names an allowed one.
    expression: `any(not waf_transform("lowercase", http.request.body.multipart["_charset_"])[*] in {${ALLOWED_CHARSETS.map(quotedString).join(' ')}})`,
  },
  {
    id: 922110,
    description: 'Illegal MIME Multipart Header content-type: charset parameter',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: [...TAGS, 'attack-protocol'],
    // The Content-Type of every part that has one, read like an Accept header (920600): media types and
    // parameters, a charset only among the allowed ones; case does not matter.
    expression: `any(not http.request.body.multipart.content_types[*][*] matches ${rawString(`(?i)${MEDIA_RANGES}`)})`,
  },
  {
    id: 922120,
    description: 'Content-Transfer-Encoding was deprecated by rfc7578 in 2015 and should not be used',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: [...TAGS, 'attack-deprecated-header'],
    // Browsers never send it; a part encoded in base64 or quoted-printable hides its content from a WAF
    // that does not decode it.
    targets: 'MULTIPART_PART_HEADERS',
    transformations: 'lowercase',
    test: { regex: 'content-transfer-encoding:' },
  },
  {
    id: 922130,
    description: 'Multipart header contains characters outside of valid range',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    // A part header whose name holds a space, a control byte or a byte above ASCII (`\x0eContent-Disposition:`):
    // parsers that skip such a line and parsers that read it see different parts. Only the name, before
    // the first colon, is looked at; values may hold spaces and colons (`filename="C:\photo.jpg"`).
    targets: 'MULTIPART_PART_HEADERS',
    transformations: 'lowercase',
    test: { regex: String.raw`^[^:]*?(?-u:[^\x21-\x7e])[^:]*:` },
  },
];
