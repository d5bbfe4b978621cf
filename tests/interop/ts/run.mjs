// Interop tests: the real TypeScript MCP SDK v2 client (`@modelcontextprotocol/client`, pinned
// in package.json) against the demo server, over stdio, in both eras: the 2025-11-25 handshake
// (`versionNegotiation: { mode: 'legacy' }`) and 2026-07-28 MRTR (`{ mode: { pin: '2026-07-28' } }`).
//
//   node tests/interop/ts/run.mjs [-k SUBSTRING]... [--keep]
//
// Run by scripts/interop, which installs the client into the git-ignored .tools/ts-client
// ($TS_CLIENT_DIR) and builds the server ($DEMO_SERVER). The client keeps its shipped defaults
// (inputRequired.maxRounds 10, 60 s request timeout). Each scenario spawns the server behind
// tests/interop/tee.py (some with a short URL-mode pace through the server's environment:
// ELICIT_URL_HOLD_SECS, ELICIT_STATE_TTL_SECS), asserts the tool's result text and a few things
// on the captured wire, and prints one `ok`/`FAIL` line. Exits 1 if any chosen scenario fails; with -k matching
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
const EXPIRED_TEXT = 'accept: the github link expired before it was used';
// The pace of URL mode for the scenarios that let a hold pass or a link expire (demo-server's
// ELICIT_URL_HOLD_SECS / ELICIT_STATE_TTL_SECS; unset: 30 s hold, 600 s lifetime).
const SHORT_HOLD = { ELICIT_URL_HOLD_SECS: '1' };
const SHORT_LIFE = { ELICIT_URL_HOLD_SECS: '1', ELICIT_STATE_TTL_SECS: '4' };
const CLIENT_MAX_CALLS = 10; // at most this many tools/call in all (the client would allow 11: 1 + maxRounds 10)
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

// The person's browser keeps cookies per origin (the demo's landing page ties each link to the
// browser that opened it first, by a cookie set with one redirect) and follows redirects.
const cookies = new Map();

async function browse(url, init = {}) {
    let target = new URL(url);
    for (let hop = 0; hop < 5; hop++) {
        const headers = { ...(init.headers ?? {}) };
        const kept = cookies.get(target.origin);
        if (kept) headers.Cookie = kept;
        const response = await fetch(target, { ...init, headers, redirect: 'manual' });
        for (const set of response.headers.getSetCookie()) {
            cookies.set(target.origin, set.split(';')[0]);
        }
        const next = response.headers.get('location');
        if (response.status < 300 || response.status >= 400 || !next) return response;
        await response.text();
        target = new URL(next, target);
        init = {};
    }
    throw new Error(`too many redirects from ${url}`);
}

// Opens the link as a person's browser would: GET shows the confirmation page (a form with a
// hidden CSRF token and two buttons named `decision`); pressing a button posts the form back
// to the same URL from the page's own origin. Returns the two HTTP statuses.
async function personOpens(url, decision) {
    const page = await browse(url);
    const html = await page.text();
    const token = html.match(/name="token" value="([^"]*)"/)?.[1];
    if (page.status !== 200 || token === undefined) return { get: page.status, post: null };
    const posted = await browse(url, {
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

// Only looks at a link (GET, which records nothing): its status and whether the page is the
// confirmation form (has the CSRF token).
async function personLooks(url) {
    const page = await browse(url);
    const html = await page.text();
    return { get: page.status, form: /name="token" value="/.test(html) };
}

// Accepts every URL question at once; nobody ever opens a link.
function acceptsOnly() {
    const u = { asked: [], askedAt: [] };
    u.handler = async request => {
        u.asked.push(request.params);
        u.askedAt.push(Date.now());
        return { action: 'accept' };
    };
    return u;
}

// Accepts every URL question at once. The person opens the FIRST link `delayMs` after the
// first accept (and not before the client was asked `askedBefore` times, at most 10 s more: on
// 2026 the hold passing is what is tested, not the timer) and confirms, once. A link asked
// again is only looked at.
function comesAfterHolds(delayMs, askedBefore) {
    const u = { asked: [], askedAt: [], visits: [], laterLooks: [], confirmedAfter: null };
    const person = async (url, acceptedAt) => {
        await new Promise(done => setTimeout(done, delayMs));
        // Timers run on their own clock; Date.now(), which the scenario measures by, can still
        // read a millisecond short of delayMs here: the person comes once it reads delayMs.
        while (Date.now() - acceptedAt < delayMs) await new Promise(done => setTimeout(done, 1));
        const deadline = Date.now() + 10_000;
        while (u.asked.length < askedBefore && Date.now() < deadline) await new Promise(done => setTimeout(done, 50));
        u.confirmedAfter = Date.now() - acceptedAt;
        return personOpens(url, 'confirm');
    };
    u.handler = async request => {
        const params = request.params;
        assert(params.mode === 'url', `not a URL question: ${json(params)}`);
        u.asked.push(params);
        u.askedAt.push(Date.now());
        if (u.asked.length === 1) u.visits.push(person(params.url, u.askedAt[0]));
        else u.laterLooks.push(await personLooks(params.url));
        return { action: 'accept' };
    };
    return u;
}

// When the callback was asked, in seconds after its first asking.
const askedOffsets = u => u.askedAt.map(t => `+${((t - u.askedAt[0]) / 1000).toFixed(1)}`).join(',');

// connect_account on 2026 with the link asked again: every result but the last is an
// input_required round asking the URL question (never a round without inputRequests), each
// retry accepts and echoes the round before's requestState (byte-for-byte), the last of at most
// CLIENT_MAX_CALLS calls is complete, and the callback was asked once per round, each round's link.
function checkUrlRounds(session, u) {
    const entries = requests(session, 'C->S', 'tools/call').filter(e => e.msg.params.name === 'connect_account');
    const calls = entries.map(e => ({ req: e, resp: session.find((r, i) => i > session.indexOf(e) && r.dir === 'S->C'
        && r.msg.method === undefined && r.msg.id === e.msg.id) }));
    assert(calls.length >= 2 && calls.length <= CLIENT_MAX_CALLS, `${calls.length} tools/call (at most ${CLIENT_MAX_CALLS})`);
    assert(calls.every(c => c.resp), 'a tools/call without a response');
    const first = calls[0].req.msg.params;
    assert(!('inputResponses' in first) && !('requestState' in first), `first call carries MRTR fields: ${json(first)}`);
    const states = [];
    calls.slice(0, -1).forEach((c, n) => {
        const res = c.resp.msg.result;
        assert(res?.resultType === 'input_required', `call ${n}: ${c.resp.raw.slice(0, 300)}`);
        const keys = Object.keys(res.inputRequests ?? {});
        assert(keys.length, `call ${n}: an input_required round without inputRequests: ${c.resp.raw.slice(0, 300)}`);
        assert(json(keys) === json(['connect']), `call ${n}: inputRequests ${json(keys)}`);
        const p = res.inputRequests.connect.params;
        assert(res.inputRequests.connect.method === 'elicitation/create' && p.mode === 'url'
            && p.url.startsWith('http://127.0.0.1:') && !('elicitationId' in p), `call ${n}: ${json(res.inputRequests)}`);
        assert(typeof res.requestState === 'string' && res.requestState, `call ${n}: requestState ${json(res.requestState)}`);
        states.push(res.requestState);
    });
    assert(new Set(states).size === states.length, 'a round repeated an earlier requestState');
    const rawState = raw => raw.match(/"requestState":("(?:[^"\\]|\\.)*")/)?.[1];
    for (let n = 1; n < calls.length; n++) {
        const [prev, cur] = [calls[n - 1], calls[n]];
        const rp = cur.req.msg.params;
        assert(cur.req.msg.id !== prev.req.msg.id, `retry ${n} reused the JSON-RPC id`);
        assert(rp.name === first.name && json(rp.arguments) === json(first.arguments), `retry ${n} changed the call`);
        assert(json(rp.inputResponses) === json({ connect: { action: 'accept' } }), `retry ${n}: ${json(rp.inputResponses)}`);
        assert(rp.requestState === prev.resp.msg.result.requestState && rawState(cur.req.raw) === rawState(prev.resp.raw),
            `retry ${n} did not echo the previous round's requestState`);
    }
    const done = calls.at(-1).resp.msg.result;
    assert(done?.resultType === 'complete' && !('inputRequests' in done) && !('requestState' in done),
        `last result ${calls.at(-1).resp.raw.slice(0, 300)}`);
    const urls = calls.slice(0, -1).map(c => c.resp.msg.result.inputRequests.connect.params.url);
    assert(json(u.asked.map(p => p.url)) === json(urls), `callback asked ${u.asked.length} times, each round's link? ${calls.length} calls`);
    return calls;
}

// --- running a client ----------------------------------------------------------------------

// The server's environment for a scenario that sets `extra`: this process's environment
// (PATH, RUST_LOG, ...) without any ELICIT_* of the caller's shell (a scenario's pace is its
// own), plus `extra`; undefined (the transport's default inherited variables) without extra.
// StdioClientTransport merges it over its default environment.
function serverEnv(extra) {
    if (!extra) return undefined;
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ELICIT_')));
    return { ...env, ...extra };
}

// Runs `body(client)` against a fresh server behind the tee; returns its value and the wire.
// `env`: extra environment for the server (e.g. ELICIT_URL_HOLD_SECS).
async function withClient(dir, era, handler, body, env) {
    const log = join(dir, `${era}.log`);
    const transport = new StdioClientTransport({
        command: PYTHON, args: [TEE, log, '--', SERVER], cwd: ROOT, stderr: 'pipe', env: serverEnv(env),
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

    // The person never comes: the client accepts every time it is asked, nobody opens the link.
    // 2026: each held retry passes its 1 s hold and the link is asked again, until the link
    // expires (4 s) and the tool ends with the expired text, within the client's default
    // rounds. Legacy: the call waits until the link expires, and no completion is notified.
    scenario(`ts ${label}: connect_account accept, person never comes: link expires (hold 1 s, life 4 s)`, async (dir, notes) => {
        const u = acceptsOnly();
        let ended = 0;
        const { value: result, wire } = await withClient(dir, era, u.handler, async client => {
            const r = await client.callTool({ name: 'connect_account', arguments: { service: 'github' } });
            ended = Date.now();
            return r;
        }, SHORT_LIFE);
        const took = ended - u.askedAt[0];
        assert(textOf(result) === EXPIRED_TEXT, `text ${json(textOf(result))}, expected ${json(EXPIRED_TEXT)}`);
        assert(!result.isError, 'isError set');
        assert(took >= 2000, `expired ${took} ms after the first asking, the link lives 4 s`);
        if (era === 'legacy') {
            legacySession(wire);
            assert(u.asked.length === 1, `callback asked ${u.asked.length} times`);
            const calls = toolCalls(wire, 'connect_account');
            assert(calls.length === 1, `${calls.length} tools/call`);
            const elic = requests(wire, 'S->C', 'elicitation/create');
            assert(elic.length === 1 && elic[0].msg.params.mode === 'url' && elic[0].msg.params.elicitationId,
                `${elic.length} elicitation/create: ${json(elic.map(e => e.msg.params))}`);
            assert(json(responseTo(wire, elic[0]).result) === json({ action: 'accept' }), 'client did not answer accept');
            const done = notifications(wire, 'S->C', 'notifications/elicitation/complete');
            assert(!done.length, `notifications/elicitation/complete for a link that expired unused: ${json(done.map(d => d.msg))}`);
            const fromServer = wire.filter(e => e.dir === 'S->C' && e.msg.method !== undefined).map(e => e.msg.method);
            assert(json(fromServer) === json(['elicitation/create']), `the server also sent ${json(fromServer)}`);
            notes.push(`1 elicitation/create, expired ${took} ms after the accept`);
        } else {
            const { session } = modernSession(wire);
            const calls = checkUrlRounds(session, u);
            assert(calls.length >= 3, `${calls.length} tools/call: the link was never asked again`);
            notes.push(`${calls.length} tools/call (${calls.length - 2} asked again), asked at ${askedOffsets(u)}, ` +
                `expired ${took} ms after the first asking (${ended - u.askedAt.at(-1)} ms after the last)`);
        }
    });

    // The hold (1 s) passes before the person comes: 2026 asks the same link again (the
    // callback is called again and accepts at once each time); the person opens the FIRST link
    // 2.5 s after the first accept and confirms. Legacy: one wait, then the completion.
    scenario(`ts ${label}: connect_account accept, hold passes (1 s), person confirms 2.5 s later`, async (dir, notes) => {
        const u = comesAfterHolds(2500, era === 'legacy' ? 1 : 3);
        const after = [];
        const { value: result, wire } = await withClient(dir, era, u.handler, async client => {
            const r = await client.callTool({ name: 'connect_account', arguments: { service: 'github' } });
            // While the server still runs: what the first and the last link show now.
            for (const url of [u.asked[0].url, u.asked.at(-1).url]) after.push(await personLooks(url));
            return r;
        }, SHORT_HOLD);
        const visits = await Promise.all(u.visits);
        assert(textOf(result) === CONNECT_TEXT, `text ${json(textOf(result))}, expected ${json(CONNECT_TEXT)}`);
        assert(!result.isError, 'isError set');
        assert(json(visits) === json([{ get: 200, post: 200 }]), `landing page answered ${json(visits)}`);
        assert(u.confirmedAfter >= 2500, `confirmed ${u.confirmedAfter} ms after the accept`);
        // A later link (same flow, asked again) shows the confirmation form too.
        assert(u.laterLooks.every(l => l.get === 200 && l.form), `later links: ${json(u.laterLooks)}`);
        // Once the flow is done, no link shows the form again.
        assert(after.every(l => !l.form), `a link still offers the form after completion: ${json(after)}`);
        if (era === 'legacy') {
            legacySession(wire);
            assert(u.asked.length === 1, `callback asked ${u.asked.length} times`);
            const elic = requests(wire, 'S->C', 'elicitation/create');
            assert(elic.length === 1, `${elic.length} elicitation/create`);
            const eid = elic[0].msg.params.elicitationId;
            const reply = wire.find(e => e.dir === 'C->S' && e.msg.method === undefined && e.msg.id === elic[0].msg.id);
            const done = notifications(wire, 'S->C', 'notifications/elicitation/complete');
            assert(json(done.map(n => n.msg.params.elicitationId)) === json([eid]), `elicitation/complete for ${json(done.map(n => n.msg))}`);
            assert(wire.indexOf(done[0]) > wire.indexOf(reply), 'completion notified before the client accepted');
            notes.push(`confirmed ${u.confirmedAfter} ms after the accept; the link after completion: GET ${after[0].get}`);
        } else {
            const { session } = modernSession(wire);
            const calls = checkUrlRounds(session, u);
            const again = calls.length - 2;
            assert(again >= 2, `the link was asked again ${again} times (expected >= 2)`);
            notes.push(`${calls.length} tools/call (${again} asked again), asked at ${askedOffsets(u)}, confirmed ` +
                `${u.confirmedAfter} ms after the first accept, ${new Set(u.asked.map(p => p.url)).size} distinct URLs; ` +
                `later links GET ${json([...new Set(u.laterLooks.map(l => l.get))])} with the form, ` +
                `first/last GET ${json(after.map(l => l.get))} without it after completion`);
        }
    });

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

    // plan_trip: its two questions are parameters asked before the body runs
    // (`#[elicit_rmcp::asks]`): one round holding both on 2026-07-28, two requests on 2025-11-25.
    scenario(`ts ${label}: plan_trip accept (two asked parameters, one round)`, async (dir, notes) => {
        const asked = [];
        const handler = async request => {
            asked.push(request.params);
            const props = Object.keys(request.params.requestedSchema?.properties ?? {});
            const content = props[0] === 'start' ? { start: '2026-12-24', nights: 2 } : { adults: 2, children: 1 };
            return { action: 'accept', content };
        };
        const { value: result, wire } = await withClient(dir, era, handler,
            client => client.callTool({ name: 'plan_trip', arguments: { destination: 'Rome' } }));
        const text = 'accept: 2 nights in Rome from 2026-12-24 for 2 adults and 1 children';
        assert(textOf(result) === text, `text ${json(textOf(result))}`);
        assert(json(asked.map(p => p.message)) === json(['When do you travel to Rome?', 'Who travels?']),
            `asked ${json(asked.map(p => p.message))}`);
        const calls = toolCalls(wire, 'plan_trip');
        if (era === 'legacy') {
            legacySession(wire);
            assert(calls.length === 1, `${calls.length} tools/call`);
            assert(requests(wire, 'S->C', 'elicitation/create').length === 2, 'two elicitation/create');
        } else {
            modernSession(wire);
            assert(calls.length === 2, `${calls.length} tools/call (expected call + one retry)`);
            const keys = Object.keys(calls[0].resp.result?.inputRequests ?? {});
            assert(json(keys) === json(['dates', 'travelers']), `one round with ${json(keys)}`);
            notes.push('one round, both questions');
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
