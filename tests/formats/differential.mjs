// Elicit's format rules against Ajv's (ajv-formats, full and fast mode): every string Ajv
// accepts and elicit refuses must fall under a pinned RFC rule (guide chapter 2), and the
// committed table's Ajv columns must be what Ajv says. Run by scripts/formats-differential.
//
//   node tests/formats/differential.mjs <generated.json>
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

const require = createRequire(process.env.AJV_MODULES + "/");
const Ajv = require("ajv");
const addFormats = require("ajv-formats");

const ajv = {};
for (const mode of ["full", "fast"]) {
  const a = new Ajv();
  addFormats(a, { mode });
  ajv[mode] = (format, value) => a.validate({ type: "string", format }, value);
}

// Each pinned difference: the RFC rule, and whether a string breaks it.
const daysIn = (y, m) => [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
const badDay = (s) => {
  const m = /^(\d{4})-(\d\d)-(\d\d)/.exec(s);
  return m && (+m[2] < 1 || +m[2] > 12 || +m[3] < 1 || +m[3] > daysIn(+m[1], +m[2]));
};
const PINNED = {
  email: [
    ["RFC 5322 §3.4.1 dot-atom: no leading, trailing or doubled dot in the local part",
      (s) => { const local = s.slice(0, s.lastIndexOf("@")); return local.startsWith(".") || local.endsWith(".") || local.includes(".."); }],
    ["RFC 5321 §4.5.3.1: at most 64 octets before the '@', 254 in all",
      (s) => Buffer.byteLength(s.slice(0, s.lastIndexOf("@"))) > 64 || Buffer.byteLength(s) > 254],
  ],
  uri: [
    ["RFC 3986 §2: a URI is ASCII, without space, '<' '>' '\"' '{' '}' '|' '\\' '^' '`'",
      (s) => /[^\x21-\x7e]|[<>"{}|\\^`]/.test(s)],
    ["RFC 3986 §2.1: '%' starts two hex digits", (s) => /%(?![0-9a-f]{2})/i.test(s)],
    ["RFC 3986 §3.5: a fragment has no '#'", (s) => (s.match(/#/g) || []).length > 1],
  ],
  date: [["RFC 3339 §5.6/§5.7: a month 01 to 12 and a day that exists in it", badDay]],
  "date-time": [
    ["RFC 3339 §5.6/§5.7: a month 01 to 12 and a day that exists in it", badDay],
    ["RFC 3339 §5.6 time-numoffset: '+HH:MM'", (s) => /[+-]\d\d(\d\d)?$/.test(s)],
    ["RFC 3339 §5.6: hours 00 to 23 and minutes 00 to 59, in the time and in the offset",
      (s) => { const m = /^.{11}(\d\d):(\d\d).*?(?:[+-](\d\d):?(\d\d))?$/i.exec(s); return m && (+m[1] > 23 || +m[2] > 59 || +(m[3] ?? 0) > 23 || +(m[4] ?? 0) > 59); }],
  ],
};

let failures = 0;
const table = JSON.parse(readFileSync(new URL("./cases.json", import.meta.url))).cases;
for (const c of table) {
  const full = ajv.full(c.format, c.value), fast = ajv.fast(c.format, c.value);
  if (full !== c.ajv || fast !== c.ajvFast) {
    failures++;
    console.log(`table: ${c.format} ${JSON.stringify(c.value)}: Ajv says full ${full}, fast ${fast}`);
  }
}

const generated = JSON.parse(readFileSync(process.argv[2]));
const counts = {};
for (const g of generated) {
  const n = (counts[g.format] ??= { strings: 0, ajvAccepts: 0, pinned: {}, elicitOnly: 0 });
  n.strings++;
  const accepted = ajv.full(g.format, g.value) || ajv.fast(g.format, g.value);
  if (accepted) n.ajvAccepts++;
  if (!accepted && g.elicit) n.elicitOnly++;
  if (!accepted || g.elicit) continue;
  const rule = PINNED[g.format].find(([, breaks]) => breaks(g.value));
  if (rule) {
    n.pinned[rule[0]] = (n.pinned[rule[0]] ?? 0) + 1;
  } else {
    failures++;
    if (failures <= 40) console.log(`unpinned: Ajv accepts ${g.format} ${JSON.stringify(g.value)}, elicit refuses`);
  }
}
console.log(JSON.stringify(counts, null, 1));
if (failures) {
  console.log(`${failures} disagreement(s)`);
  process.exit(1);
}
console.log("formats: every string Ajv accepts, elicit accepts or refuses by a pinned rule");
