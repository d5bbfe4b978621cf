//! `demo --interactive` in a real terminal (tmux): a person reviews and edits every field
//! kind of the booking form (a bad value refused, options by number, a multi-select), sends
//! it; declines the next question with `:d`; sees the URL consent screen with the site bold
//! and underlined and declines it. What the terminal shows is asserted, screen by screen.
//!
//! Needs `tmux` (`./scripts/test` installs it from Debian): `#[ignore]`d in a plain
//! `cargo test`, run with `cargo test -p elicit-examples --test demo_terminal -- --ignored`.

use std::process::Command;
use std::time::{Duration, Instant};

/// One tmux server of its own (its own socket), killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn start(command: &str) -> Tmux {
        let tmux = Tmux {
            socket: format!("elicit-demo-test-{}", std::process::id()),
        };
        tmux.run(&[
            "new-session",
            "-d",
            "-s",
            "demo",
            "-x",
            "160",
            "-y",
            "50",
            command,
        ]);
        tmux
    }

    fn run(&self, args: &[&str]) -> String {
        let output = Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux runs (./scripts/test installs it)");
        assert!(output.status.success(), "tmux {args:?}: {output:?}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// The pane's whole history; with `styles`, the ANSI escapes too.
    fn screen(&self, styles: bool) -> String {
        let mut args = vec!["capture-pane", "-p", "-J", "-S", "-", "-t", "demo"];
        if styles {
            args.push("-e");
        }
        self.run(&args)
    }

    /// Waits until the screen contains `text` `count` times or more.
    fn wait_for(&self, text: &str, count: usize) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen(false);
            if screen.matches(text).count() >= count {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "waited a minute for {text:?} ×{count}; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Types `line` and Enter, as a person does.
    fn type_line(&self, line: &str) {
        if !line.is_empty() {
            self.run(&["send-keys", "-t", "demo", "-l", line]);
        }
        self.run(&["send-keys", "-t", "demo", "Enter"]);
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

#[test]
#[ignore = "needs tmux: ./scripts/test installs it and runs this"]
fn a_person_answers_the_demo_in_a_real_terminal() {
    let tmux = Tmux::start(&format!(
        "{} --interactive; sleep 60",
        env!("CARGO_BIN_EXE_demo")
    ));
    // The booking form, field by field; each prompt shows the value Enter keeps.
    tmux.wait_for("[(empty)] >", 1);
    tmux.type_line("2026-12-24");
    tmux.wait_for("[19:30] >", 1);
    tmux.type_line("");
    tmux.wait_for("[2] >", 1);
    tmux.type_line("20");
    let screen = tmux.wait_for("[2] >", 2);
    assert!(
        screen.contains("[2] > 20\n     ✗ must be at most 12"),
        "{screen}"
    );
    tmux.type_line("4");
    let screen = tmux.wait_for("[Inside] >", 1);
    assert!(
        screen.contains("1) Inside   2) On the terrace   3) At the bar"),
        "{screen}"
    );
    tmux.type_line("2");
    tmux.wait_for("[(none)] >", 1);
    tmux.type_line("1, 2");
    tmux.wait_for("[(empty)] >", 2);
    tmux.type_line("ada@example.com");
    // The review screen: every value as the person reads it; then send.
    let screen = tmux.wait_for("[s]end, a field's number to change it", 1);
    for line in [
        "  4. Seating   On the terrace",
        "  5. Extras    High chair, Birthday cake",
        "  6. Email     ada@example.com",
    ] {
        assert!(screen.contains(line), "{line:?} in:\n{screen}");
    }
    tmux.type_line("s");
    let screen = tmux.wait_for("── cancel_reservation", 1);
    assert!(
        screen.contains(
            "← result: accept: table for 4 at Chez Rust on 2026-12-24 at 19:30, seating terrace, \
             extras high_chair + birthday_cake, confirmation to ada@example.com"
        ),
        "{screen}"
    );
    // Declined at the prompt.
    tmux.wait_for("Yes, go ahead *", 1);
    tmux.wait_for("[(empty)] >", 3);
    tmux.type_line(":d");
    let screen = tmux.wait_for("← result: decline: reservation R-1042 kept", 1);
    // The URL consent screen: the site bold and underlined in the full URL; nothing opened.
    let screen_with_styles = {
        tmux.wait_for("Open it in your browser? [o]pen, [d]ecline, [c]ancel:", 1);
        tmux.screen(true)
    };
    assert!(
        screen_with_styles.contains("goes to  http://\x1b[1m\x1b[4m127.0.0.1\x1b[0m")
            || screen_with_styles.contains("goes to  http://\x1b[1;4m127.0.0.1\x1b[0m"),
        "{screen_with_styles:?}"
    );
    assert!(!screen.contains("the person clicks Confirm"));
    tmux.type_line("d");
    let screen = tmux.wait_for("← result: decline: github not connected", 1);
    assert!(
        screen.contains("answer [connect]: {\"action\":\"decline\"}"),
        "{screen}"
    );
}
