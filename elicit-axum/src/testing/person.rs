//! The test browser as a test client's [`UrlBrowser`]: the person opens the link and presses
//! each page's Confirm until the flow's last page.

use elicit_testing::{BrowserFuture, UrlBrowser};

use super::browser::Browser;

/// The most pages one flow goes through (the link, a sign-in, a provider's consent, …).
const MAX_PAGES: usize = 8;

impl UrlBrowser for Browser {
    /// Opens `url`, then on each page: types what [`Browser::typing`] gave for its inputs and
    /// presses its Confirm (`class="confirm"`), until a page without one (how the flow ended).
    /// Fails on a page that is not a success (the uniform refusal, a 403), a page that asks
    /// for what the person was not given to type, and a page that asks again (what was typed
    /// was refused: its alert says why).
    fn open_url<'a>(&'a self, url: &'a str) -> BrowserFuture<'a, Result<(), String>> {
        Box::pin(async move {
            let mut page = self.open(url).await;
            for _ in 0..MAX_PAGES {
                if !page.status().is_success() {
                    return Err(format!("the page refused: {}", page.summary()));
                }
                let Some(confirm) = page.confirm_button().map(str::to_owned) else {
                    return Ok(());
                };
                for (input, name) in page.empty_required() {
                    let given = |label: &String| *label == input || Some(label) == name.as_ref();
                    let Some((_, value)) = self.typing.iter().find(|(label, _)| given(label))
                    else {
                        return Err(format!(
                            "the page asks for {input:?}, which the person was not given to type (`Browser::typing`): {}",
                            page.summary()
                        ));
                    };
                    page = page.fill(&input, value);
                }
                let (before, asked) = (page.url(), !page.inputs().is_empty());
                page = page.click(&confirm).await;
                if asked && page.url() == before && page.confirm_button().is_some() {
                    return Err(format!(
                        "the page asked again: {}",
                        match page.alerts() {
                            [] => page.summary(),
                            alerts => alerts.join(" "),
                        }
                    ));
                }
            }
            Err(format!(
                "the flow did not end after {MAX_PAGES} pages: {}",
                page.summary()
            ))
        })
    }
}
