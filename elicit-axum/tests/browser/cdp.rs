//! Just enough of the Chrome DevTools protocol to drive headless Chromium from a test, over
//! `--remote-debugging-pipe` (no port, no websocket, no crate): Chromium reads commands on
//! its fd 3 and writes replies and events on its fd 4, each a JSON text ending in NUL. A shell
//! maps those to the child's stdin and stdout (`3<&0 4>&1 1>&2`), so no `unsafe` `pre_exec`.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long one command may take once the browser is ready.
const TIMEOUT: Duration = Duration::from_secs(30);

/// How long a starting Chromium may take to become ready: its first command answered and a
/// first page rendered. The first start on a machine writes the profile and finds the fonts
/// (building fontconfig's cache if no package did), which took over 30 s on a fresh machine
/// busy with the rest of the test run; it stops waiting at once if Chromium exits.
const FIRST_START: Duration = Duration::from_secs(300);

/// How often a wait for a reply looks whether Chromium is still running.
const POLL: Duration = Duration::from_millis(100);

/// The Chromium binary: `ELICIT_CHROMIUM`, else `chromium` or `chromium-browser` on `PATH`.
pub(crate) fn find_chromium() -> Option<String> {
    if let Ok(path) = std::env::var("ELICIT_CHROMIUM")
        && !path.is_empty()
    {
        return Some(path);
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser"] {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate.to_string_lossy().into_owned());
            }
        }
    }
    None
}

type Waiting = Arc<Mutex<HashMap<u64, Sender<Value>>>>;

/// A headless Chromium and its protocol pipe. Killed when dropped.
pub(crate) struct Browser {
    child: Child,
    input: ChildStdin,
    next_id: u64,
    waiting: Waiting,
    profile: std::path::PathBuf,
}

impl Browser {
    /// Starts `chromium` headless with a fresh profile in `profile` (a directory it may fill).
    pub(crate) fn launch(chromium: &str, profile: std::path::PathBuf) -> Browser {
        Browser::launch_with(chromium, profile, "")
    }

    /// [`Browser::launch`] with `extra` switches (shell words, e.g. quoted
    /// `--host-resolver-rules`).
    pub(crate) fn launch_with(chromium: &str, profile: std::path::PathBuf, extra: &str) -> Browser {
        std::fs::create_dir_all(&profile).unwrap();
        // --no-sandbox: containers (and root) have no user namespaces for Chromium's sandbox;
        // the pages it loads here are the test's own, on loopback.
        let script = format!(
            "exec \"$0\" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
             --no-first-run --no-default-browser-check --disable-extensions \
             --disable-background-networking --disable-component-update --disable-sync \
             --metrics-recording-only --password-store=basic --use-mock-keychain \
             --window-size=720,640 --hide-scrollbars --user-data-dir={} {extra} \
             --remote-debugging-pipe about:blank 3<&0 4>&1 1>&2",
            profile.display()
        );
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(script)
            .arg(chromium)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {chromium}: {e}"));
        let input = child.stdin.take().unwrap();
        let output = child.stdout.take().unwrap();
        let waiting: Waiting = Arc::default();
        let routes = waiting.clone();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(output);
            let mut message = Vec::new();
            while reader.read_until(0, &mut message).is_ok_and(|n| n > 0) {
                message.pop();
                if let Ok(value) = serde_json::from_slice::<Value>(&message)
                    && let Some(id) = value.get("id").and_then(Value::as_u64)
                    && let Some(reply) = routes.lock().unwrap().remove(&id)
                {
                    let _ = reply.send(value);
                }
                message.clear();
            }
            // Chromium closed its end: nothing more will be answered.
            routes.lock().unwrap().clear();
        });
        let mut browser = Browser {
            child,
            input,
            next_id: 0,
            waiting,
            profile,
        };
        browser.wait_until_ready();
        browser
    }

    /// Waits, up to [`FIRST_START`], until the browser answers and has rendered a first page
    /// with text, so that no test command meets a browser still starting.
    fn wait_until_ready(&mut self) {
        self.call_within(None, "Browser.getVersion", json!({}), FIRST_START);
        let (target_id, session) = self.open_page(FIRST_START);
        let laid_out = self.call_within(
            Some(&session),
            "Runtime.evaluate",
            json!({
                "expression": "document.body.textContent = 'ready'; \
                               document.fonts.ready.then(() => document.body.offsetHeight > 0)",
                "awaitPromise": true,
                "returnByValue": true,
            }),
            FIRST_START,
        );
        assert_eq!(laid_out["result"]["value"], true, "{laid_out}");
        self.call_within(
            None,
            "Target.closeTarget",
            json!({"targetId": target_id}),
            FIRST_START,
        );
    }

    /// [`Browser::call`] with `within` for the reply.
    fn call_within(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
        within: Duration,
    ) -> Value {
        match self.try_call_within(session, method, params, within) {
            Ok(result) => result,
            Err(error) => panic!("{method} failed: {error}"),
        }
    }

    /// Sends `method` (to `session`'s page, or the browser) and waits for its result.
    pub(crate) fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.call_within(session, method, params, TIMEOUT)
    }

    /// [`Browser::call`], with the error DevTools answered instead of a panic.
    fn try_call(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<Value, Value> {
        self.try_call_within(session, method, params, TIMEOUT)
    }

    /// [`Browser::try_call`] with `within` for the reply. Panics when the reply does not
    /// come in time, or Chromium exits first.
    fn try_call_within(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
        within: Duration,
    ) -> Result<Value, Value> {
        self.next_id += 1;
        let id = self.next_id;
        let mut command = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session {
            command["sessionId"] = session.into();
        }
        let (reply, replied): (Sender<Value>, Receiver<Value>) = channel();
        self.waiting.lock().unwrap().insert(id, reply);
        let mut bytes = serde_json::to_vec(&command).unwrap();
        bytes.push(0);
        if let Err(error) = self
            .input
            .write_all(&bytes)
            .and_then(|()| self.input.flush())
        {
            let status = self.child.try_wait();
            panic!("cannot send {method}: {error} (Chromium's exit status: {status:?})");
        }
        let start = Instant::now();
        let value = loop {
            match replied.recv_timeout(POLL) {
                Ok(value) => break value,
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("Chromium closed its pipe before answering {method}")
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("Chromium exited ({status}) before answering {method}");
            }
            assert!(
                start.elapsed() < within,
                "no reply to {method} in {within:?}"
            );
        };
        match value.get("error") {
            Some(error) => Err(error.clone()),
            None => Ok(value["result"].clone()),
        }
    }

    /// Signs the browser in to `origin` as its login would: the `session` cookie, `HttpOnly`
    /// and `SameSite=Lax`.
    pub(crate) fn sign_in(&mut self, session: &str, origin: &str, value: &str) {
        self.call(
            Some(session),
            "Network.setCookie",
            json!({"name": "session", "value": value, "url": format!("{origin}/"),
                   "httpOnly": true, "sameSite": "Lax"}),
        );
    }

    /// A new tab, attached: its session id.
    pub(crate) fn new_page(&mut self) -> String {
        self.open_page(TIMEOUT).1
    }

    /// A new tab, attached, each command answered `within`: its target and session ids.
    fn open_page(&mut self, within: Duration) -> (String, String) {
        let target = self.call_within(
            None,
            "Target.createTarget",
            json!({"url": "about:blank"}),
            within,
        );
        let target_id = target["targetId"].as_str().unwrap().to_owned();
        let attached = self.call_within(
            None,
            "Target.attachToTarget",
            json!({"targetId": target_id, "flatten": true}),
            within,
        );
        let session = attached["sessionId"].as_str().unwrap().to_owned();
        (target_id, session)
    }

    /// Evaluates `expression` in the page (DevTools is not bound by the page's CSP).
    pub(crate) fn eval(&mut self, session: &str, expression: &str) -> Value {
        self.try_eval(session, expression)
            .unwrap_or_else(|error| panic!("Runtime.evaluate failed: {error}"))
    }

    /// [`Browser::eval`], with the error DevTools answered instead of a panic.
    fn try_eval(&mut self, session: &str, expression: &str) -> Result<Value, Value> {
        let params = json!({"expression": expression, "returnByValue": true});
        let result = self.try_call(Some(session), "Runtime.evaluate", params)?;
        Ok(result["result"]["value"].clone())
    }

    /// Evaluates `expression` in the page and waits for the promise it gives: its value.
    pub(crate) fn eval_awaited(&mut self, session: &str, expression: &str) -> Value {
        let result = self.call(
            Some(session),
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        result["result"]["value"].clone()
    }

    /// Starts navigating to `url` (for a page that moves on by itself).
    pub(crate) fn navigate(&mut self, session: &str, url: &str) {
        self.call(Some(session), "Page.navigate", json!({"url": url}));
    }

    /// Navigates and waits until the document at `url` has loaded.
    pub(crate) fn goto(&mut self, session: &str, url: &str) {
        self.navigate(session, url);
        self.wait_for(
            session,
            &format!(
                "location.href === {} && document.readyState === 'complete'",
                serde_json::to_string(url).unwrap()
            ),
        );
    }

    /// Polls `condition` (a JS expression) until it is true. An evaluation the page's own
    /// navigation cuts short ("Inspected target navigated or closed") counts as not yet.
    pub(crate) fn wait_for(&mut self, session: &str, condition: &str) {
        let start = Instant::now();
        loop {
            match self.try_eval(session, &format!("!!({condition})")) {
                Ok(Value::Bool(true)) => return,
                Ok(_) => {}
                Err(error) if is_navigation(&error) => {}
                Err(error) => panic!("Runtime.evaluate failed: {error}"),
            }
            assert!(
                start.elapsed() < TIMEOUT,
                "timed out waiting for {condition}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Clicks the middle of the element `selector` with the mouse, as a user would.
    pub(crate) fn click(&mut self, session: &str, selector: &str) {
        let selector = serde_json::to_string(selector).unwrap();
        let at = self.eval(
            session,
            &format!(
                "(() => {{ const r = document.querySelector({selector}).getBoundingClientRect(); \
                 return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
            ),
        );
        let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            self.call(
                Some(session),
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    /// Types `secret` in the secret page's first input and presses Save, as a person would, and
    /// waits for the page that says it was saved.
    pub(crate) fn type_secret_and_save(&mut self, session: &str, secret: &str) {
        self.click(session, "input#secret0");
        self.call(Some(session), "Input.insertText", json!({"text": secret}));
        self.eval(
            session,
            "document.querySelector('button.confirm').scrollIntoView()",
        );
        self.click(session, "button.confirm");
        self.wait_for(
            session,
            "document.readyState === 'complete' && document.querySelector('h1') \
             && document.querySelector('h1').textContent === 'Saved'",
        );
    }

    /// A PNG of the page as shown.
    pub(crate) fn screenshot(&mut self, session: &str) -> Vec<u8> {
        use base64::Engine as _;
        let shot = self.call(
            Some(session),
            "Page.captureScreenshot",
            json!({"format": "png"}),
        );
        base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().unwrap())
            .unwrap()
    }
}

impl Drop for Browser {
    /// Asks Chromium to close (so it takes its helper processes along), then kills it if it
    /// has not exited within five seconds.
    fn drop(&mut self) {
        let close = b"{\"id\":0,\"method\":\"Browser.close\"}\0";
        let _ = self
            .input
            .write_all(close)
            .and_then(|()| self.input.flush());
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(5) {
            if let Ok(Some(_)) = self.child.try_wait() {
                let _ = std::fs::remove_dir_all(&self.profile);
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Whether DevTools refused an evaluation because the page navigated under it (its execution
/// context went away), which polling during a navigation can meet.
fn is_navigation(error: &Value) -> bool {
    let message = error["message"].as_str().unwrap_or_default();
    message.contains("navigated or closed") || message.contains("Cannot find context")
}

/// Chromium and a runtime to serve with.
pub(crate) fn chromium_and_runtime() -> (String, tokio::runtime::Runtime) {
    let chromium = find_chromium().expect(
        "no Chromium: run scripts/chromium (installs Debian's `chromium`) or set ELICIT_CHROMIUM",
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    (chromium, runtime)
}
