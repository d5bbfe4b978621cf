// Interop tests: the real TypeScript MCP SDK v2 client (`@modelcontextprotocol/client`, pinned
// in package.json) against the demo server, over stdio, in both eras: the 2025-11-25 handshake
// (`versionNegotiation: { mode: 'legacy' }`) and 2026-07-28 MRTR (`{ mode: { pin: '2026-07-28' } }`).
//
//   node tests/interop/ts/run.mjs [-k SUBSTRING]... [--keep]
//
// Run by scripts/interop, which installs the client into the git-ignored .tools/ts-client
// ($TS_CLIENT_DIR) and builds the server ($DEMO_SERVER). The client keeps its shipped defaults
// (inputRequired.maxRounds 10, 60 s request timeout). Each scenario spawns the server behind
// tests/interop/tee.py, asserts the tool's result text and a few things on the captured wire,
// and prints one `ok`/`FAIL` line. Exits 1 if any chosen scenario fails; with -k matching
// nothing, prints so and exits 0 (the Python scenarios may have matched).

import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../../..');
const SERVER = process.env.DEMO_SERVER ?? join(ROOT, 'target/debug/demo-server');
const CLIENT_DIR = process.env.TS_CLIENT_DIR ?? join(ROOT, '.tools/ts-client');
const TEE = join(ROOT, 'tests/interop/tee.py');
const PYTHON = process.env.PYTHON ?? 'python3';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const PV_KEY = 'io.modelcontextprotocol/protocolVersion';
const PERSON_DELAY_MS = 3000; // the person opens the link this long after the client accepted
const SCENARIO_TIMEOUT_MS = 75_000; // above the client's own 60 s request timeout

const CONNECT_TEXT = 'accept: connected github as demo-user@github';
// What elicit-axum records when the person presses Cancel on the page (route.rs CANCELLED),
// as connect_account reports a failed page outcome (examples/src/demo/server.rs).
const PAGE_CANCELLED_TEXT = 'accept: connecting github failed: the user cancelled on the confirmation page';
const BOOKING = {
    date: '2026-12-24', time: '20:00', guests: 4, seating: 'terrace',
    extras: ['high_chair', 'birthday_cake'], email: 'ada@example.com',
};
const BOOKING_TEXT =
    'accept: table for 4 at Chez Rust on 2026-12-24 at 20:00, seating terrace, ' +
    'extras high_chair + birthday_cake, confirmation to ada@example.com';

// The installed client's ESM entry points, as its package.json `exports` name them (it lives
// in .tools/ts-client, not beside this file, so a bare import would not find it).
async function clientModule(subpath) {
    const pkgDir = join(CLIENT_DIR, 'node_modules/@modelcontextprotocol/client');
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    return { version: pkg.version, ...(await import(pathToFileURL(join(pkgDir, pkg.exports[subpath].import.default)))) };
}
const { Client, version: CLIENT_VERSION } = await clientModule('.');
const { StdioClientTransport } = await clientModule('./stdio');

function assert(cond, message) {
    if (!cond) throw new Error(message);
}
const json = v => JSON.stringify(v);

// --- the captured wire ---------------------------------------------------------------------

// One tee log: `C->S {json}` / `S->C {json}` lines. On 2026-07-28 the client first runs a
// disposable probe process (server/discover only), then the session process: both append here.
function readWire(path) {
    let text = '';
    try { text = readFileSync(path, 'utf8'); } catch { return []; }
    return text.split('\n').filter(Boolean).map(line => {
        const [dir, ...rest] = line.split(' ');
        return { dir, msg: JSON.parse(rest.join(' ')), raw: rest.join(' ') };
    });
}
const requests = (wire, dir, method) =>
    wire.filter(e => e.dir === dir && 'id' in e.msg && e.msg.method !== undefined && (!method || e.msg.method === method));
const notifications = (wire, dir, method) =>
    wire.filter(e => e.dir === dir && !('id' in e.msg) && e.msg.method === method);
function responseTo(wire, req) {
    const back = req.dir === 'C->S' ? 'S->C' : 'C->S';
    const after = wire.indexOf(req);
    const found = wire.filter((e, i) => i > after && e.dir === back && e.msg.method === undefined && e.msg.id === req.msg.id);
    assert(found.length >= 1, `no response to ${req.raw.slice(0, 200)}`);
    return found[0].msg;
}
// The tools/call requests for `name`, each with its response.
const toolCalls = (wire, name) =>
    requests(wire, 'C->S', 'tools/call').filter(e => e.msg.params.name === name).map(e => ({ req: e.msg, resp: responseTo(wire, e) }));

// Splits off the probe of a 2026 run (its first two lines); checks the session is 2026 only.
function modernSession(wire) {
    const [probe, answer, ...session] = wire;
    assert(probe?.dir === 'C->S' && probe.msg.method === 'server/discover', `first line is not the server/discover probe: ${probe?.raw}`);
    assert(answer?.dir === 'S->C' && answer.msg.id === probe.msg.id && answer.msg.result?.supportedVersions?.includes(MODERN),
        `probe answered ${answer?.raw}`);
    assert(!requests(session, 'C->S', 'initialize').length, 'initialize on a 2026-07-28 session');
    for (const e of requests(session, 'C->S')) {
        assert(e.msg.params?._meta?.[PV_KEY] === MODERN, `request without the 2026 envelope: ${e.raw.slice(0, 200)}`);
    }
    assert(!requests(session, 'S->C').length, 'server->client request on a 2026 session');
    return { probeId: probe.msg.id, session };
}

// Checks a 2025-11-25 session: initialize first, no MRTR vocabulary anywhere.
function legacySession(wire) {
    const first = wire[0];
    assert(first?.dir === 'C->S' && first.msg.method === 'initialize', `first line is not initialize: ${first?.raw}`);
    assert(first.msg.params.protocolVersion === LEGACY, `initialize asks for ${first.msg.params.protocolVersion}`);
    assert(responseTo(wire, first).result?.protocolVersion === LEGACY, 'initialize not answered with 2025-11-25');
    for (const e of wire) {
        assert(!e.raw.includes('"input_required"') && !e.raw.includes('"inputRequests"'), `MRTR on legacy: ${e.raw.slice(0, 200)}`);
    }
    return wire;
}

// --- the person ----------------------------------------------------------------------------

// Opens the link as a person's browser would: GET shows the confirmation page (a form with a
// hidden CSRF token and two buttons named `decision`); pressing a button posts the form back
// to the same URL from the page's own origin. Returns the two HTTP statuses.
async function personOpens(url, decision) {
    const page = await fetch(url);
    const html = await page.text();
    const token = html.match(/name="token" value="([^"]*)"/)?.[1];
    if (page.status !== 200 || token === undefined) return { get: page.status, post: null };
    const posted = await fetch(url, {
        method: 'POST',
        headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            Origin: new URL(url).origin,
            'Sec-Fetch-Site': 'same-origin',
        },
        body: new URLSearchParams({ token, decision }).toString(),
    });
    await posted.text();
    return { get: page.status, post: posted.status };
}

// The elicitation callback. URL mode: accept at once (the client would show the link), and the
// person opens it PERSON_DELAY_MS later in the background, pressing `decision`. Form mode:
// fill in the booking.
function user(decision = 'confirm') {
    const u = { asked: [], visits: [] };
    u.handler = async request => {
        const params = request.params;
        u.asked.push(params);
        if (params.mode === 'url') {
            u.visits.push(new Promise(done => setTimeout(done, PERSON_DELAY_MS)).then(() => personOpens(params.url, decision)));
            return { action: 'accept' };
        }
        return { action: 'accept', content: BOOKING };
    };
    return u;
}

// --- running a client ----------------------------------------------------------------------

// Runs `body(client)` against a fresh server behind the tee; returns its value and the wire.
async function withClient(dir, era, handler, body) {
    const log = join(dir, `${era}.log`);
    const transport = new StdioClientTransport({
        command: PYTHON, args: [TEE, log, '--', SERVER], cwd: ROOT, stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', d => { stderr += d; });
    const client = new Client({ name: 'elicit-interop-ts', version: '0' }, {
        capabilities: { elicitation: { form: {}, url: {} } },
        versionNegotiation: { mode: era === 'legacy' ? 'legacy' : { pin: MODERN } },
    });
    client.setRequestHandler('elicitation/create', handler);
    const ctx = { log, stderr: () => stderr };
    try {
        await client.connect(transport);
        const want = era === 'legacy' ? LEGACY : MODERN;
        assert(client.getNegotiatedProtocolVersion() === want, `negotiated ${client.getNegotiatedProtocolVersion()}, wanted ${want}`);
        const value = await body(client);
        return { value, wire: readWire(log) };
    } catch (e) {
        e.ctx = ctx;
        throw e;
    } finally {
        await client.close().catch(() => {});
    }
}

function textOf(result) {
    assert(result.content?.[0]?.type === 'text', `no text content: ${json(result)}`);
    return result.content[0].text;
}

// --- scenarios -----------------------------------------------------------------------------

const SCENARIOS = [];
const scenario = (name, fn) => SCENARIOS.push({ name, fn });

for (const era of ['legacy', MODERN]) {
    const label = era === 'legacy' ? 'legacy' : '2026';

    // connect_account: the client accepts the link at once; the person opens it 3 s later and
    // presses Confirm (or Cancel) on the page. Legacy: the tools/call waits, and the server
    // sends notifications/elicitation/complete. 2026: the retry carrying the accept is held
    // by the server until the page recorded the outcome.
    for (const [decision, expect] of [['confirm', CONNECT_TEXT], ['cancel', PAGE_CANCELLED_TEXT]]) {
        scenario(`ts ${label}: connect_account accept, person presses ${decision} on the page 3 s later`, async (dir, notes) => {
            const u = user(decision);
            const t0 = Date.now();
            const { value: result, wire } = await withClient(dir, era, u.handler,
                client => client.callTool({ name: 'connect_account', arguments: { service: 'github' } }));
            const took = Date.now() - t0;
            const visits = await Promise.all(u.visits);
            assert(textOf(result) === expect, `text ${json(textOf(result))}, expected ${json(expect)}`);
            assert(!result.isError, 'isError set');
            assert(u.asked.length === 1 && u.asked[0].mode === 'url', `callback asked ${json(u.asked)}`);
            assert(u.asked[0].url.startsWith('http://127.0.0.1:'), `link ${u.asked[0].url}`);
            assert(json(visits) === json([{ get: 200, post: 200 }]), `landing page answered ${json(visits)}`);
            assert(took >= PERSON_DELAY_MS, `finished in ${took} ms, before the person opened the page`);
            const calls = toolCalls(wire, 'connect_account');
            if (era === 'legacy') {
                legacySession(wire);
                assert(calls.length === 1, `${calls.length} tools/call`);
                const elic = requests(wire, 'S->C', 'elicitation/create');
                assert(elic.length === 1, `${elic.length} elicitation/create`);
                const eid = elic[0].msg.params.elicitationId;
                assert(elic[0].msg.params.mode === 'url' && eid, `elicitation/create params ${json(elic[0].msg.params)}`);
                assert(json(responseTo(wire, elic[0]).result) === json({ action: 'accept' }), 'client did not answer accept');
                const done = notifications(wire, 'S->C', 'notifications/elicitation/complete').map(n => n.msg.params.elicitationId);
                assert(json(done) === json([eid]), `elicitation/complete for ${json(done)}, expected [${eid}]`);
                notes.push(`${took} ms, initialize id ${json(wire[0].msg.id)}`);
            } else {
                const { probeId, session } = modernSession(wire);
                // The link, then ONE retry with the accept, held until the page recorded.
                assert(calls.length === 2, `${calls.length} tools/call (expected the link and one held retry)`);
                const [link, retry] = calls;
                const first = link.resp.result;
                assert(first?.resultType === 'input_required', `first result ${json(link.resp)}`);
                const [key, ...more] = Object.keys(first.inputRequests);
                assert(!more.length && first.inputRequests[key].params.mode === 'url', `inputRequests ${json(first.inputRequests)}`);
                assert(!('elicitationId' in first.inputRequests[key].params), 'elicitationId on 2026');
                assert(json(retry.req.params.inputResponses) === json({ [key]: { action: 'accept' } }),
                    `retry inputResponses ${json(retry.req.params.inputResponses)}`);
                assert(retry.req.params.requestState === first.requestState, 'requestState not echoed');
                assert(retry.req.id !== link.req.id, 'retry reused the JSON-RPC id');
                assert(retry.resp.result?.resultType === 'complete', `retry result ${json(retry.resp)}`);
                notes.push(`${took} ms, ${calls.length} tools/call (1 round), probe id ${json(probeId)}, ` +
                    `session ids ${requests(session, 'C->S').map(e => json(e.msg.id)).join(',')}`);
            }
        });
    }

    // book_table: a plain form, accepted with every field filled in.
    scenario(`ts ${label}: book_table accept (form)`, async (dir, notes) => {
        const u = user();
        const { value: result, wire } = await withClient(dir, era, u.handler,
            client => client.callTool({ name: 'book_table', arguments: { restaurant: 'Chez Rust' } }));
        assert(textOf(result) === BOOKING_TEXT, `text ${json(textOf(result))}`);
        assert(u.asked.length === 1 && u.asked[0].mode === 'form', `callback asked ${json(u.asked)}`);
        assert(u.asked[0].message === 'Book a table at Chez Rust', `message ${json(u.asked[0].message)}`);
        const calls = toolCalls(wire, 'book_table');
        const answer = { action: 'accept', content: BOOKING };
        if (era === 'legacy') {
            legacySession(wire);
            const elic = requests(wire, 'S->C', 'elicitation/create');
            assert(calls.length === 1 && elic.length === 1, `${calls.length} tools/call, ${elic.length} elicitation/create`);
            assert(json(responseTo(wire, elic[0]).result) === json(answer), `answered ${json(responseTo(wire, elic[0]))}`);
        } else {
            modernSession(wire);
            assert(calls.length === 2, `${calls.length} tools/call (expected call + one retry)`);
            assert(calls[0].resp.result?.resultType === 'input_required', `first result ${json(calls[0].resp)}`);
            assert(json(calls[1].req.params.inputResponses) === json({ booking: answer }),
                `retry inputResponses ${json(calls[1].req.params.inputResponses)}`);
            assert(calls[1].resp.result?.resultType === 'complete', `retry result ${json(calls[1].resp)}`);
            notes.push(`${calls.length} tools/call`);
        }
    });
}

// --- main ----------------------------------------------------------------------------------

function withTimeout(promise, ms) {
    let timer;
    const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`timed out after ${ms / 1000} s`)), ms); });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function main() {
    const args = process.argv.slice(2);
    const filters = [];
    let keep = false;
    for (let i = 0; i < args.length; i++) {
        if (args[i] === '-k') filters.push(args[++i] ?? '');
        else if (args[i] === '--keep') keep = true;
        else { console.error(`usage: run.mjs [-k SUBSTRING]... [--keep] (got ${args[i]})`); return 2; }
    }
    const chosen = SCENARIOS.filter(s => !filters.length || filters.some(k => s.name.includes(k)));
    if (!chosen.length) {
        console.log(`ts interop: no scenario matches ${filters.map(k => `-k ${k}`).join(' ')}; skipped`);
        return 0;
    }
    try { accessSync(SERVER, constants.X_OK); } catch {
        console.error(`ts interop: ${SERVER} is missing (cargo build -p elicit-examples --bin demo-server)`);
        return 1;
    }
    console.log(`ts interop: @modelcontextprotocol/client ${CLIENT_VERSION} on Node ${process.version}`);
    const tmp = mkdtempSync(join(tmpdir(), 'elicit-interop-ts-'));
    const t0 = Date.now();
    const failed = [];
    for (const [n, s] of chosen.entries()) {
        const dir = mkdtempSync(join(tmp, `${n}-`));
        const notes = [];
        const t = Date.now();
        try {
            await withTimeout(s.fn(dir, notes), SCENARIO_TIMEOUT_MS);
            const note = notes.length ? `  [${notes.join('; ')}]` : '';
            console.log(`ok    ${s.name}  (${((Date.now() - t) / 1000).toFixed(1)}s)${note}`);
        } catch (e) {
            failed.push(s.name);
            console.log(`FAIL  ${s.name}  (${((Date.now() - t) / 1000).toFixed(1)}s)`);
            console.log(`      ${(e?.stack ?? String(e)).replaceAll('\n', '\n      ')}`);
            if (e?.data !== undefined) console.log(`      data: ${json(e.data)}`);
            for (const entry of readWire(join(dir, 'legacy.log')).concat(readWire(join(dir, `${MODERN}.log`)))) {
                console.log(`  | ${entry.dir} ${entry.raw}`);
            }
            if (e?.ctx?.stderr()) console.log(`  --- server stderr\n${e.ctx.stderr()}`);
        }
    }
    const passed = chosen.length - failed.length;
    console.log(`\nts interop: ${passed} passed, ${failed.length} failed, ${chosen.length} scenarios in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
    for (const name of failed) console.log(`  FAILED: ${name}`);
    if (keep || failed.length) console.log(`logs: ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
    return failed.length ? 1 : 0;
}

process.exitCode = await main();
