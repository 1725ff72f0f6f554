//! Colour in the text output: whether to use it (`--color`; by default when standard output is
//! a terminal and neither `NO_COLOR` nor `TERM=dumb` says otherwise, as anstream decides for
//! clap's own messages) and which colour each of the core's [`Tone`]s gets (anstyle).

use std::io;

use anstyle::{AnsiColor, Style};
use coherency_core::analyze::Verdict;
use coherency_core::render::text::{StyledText, Tone};

use crate::args::ColorWhen;

/// Whether text output is coloured.
pub fn wanted(when: ColorWhen) -> bool {
    match when {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => anstream::AutoStream::choice(&io::stdout()) != anstream::ColorChoice::Never,
    }
}

/// The colour of a tone: PASS green, WARN yellow, FAIL bold red, quiet words dimmed.
fn style(tone: Tone) -> Style {
    match tone {
        Tone::Verdict(Verdict::Pass) => AnsiColor::Green.on_default(),
        Tone::Verdict(Verdict::Warn) => AnsiColor::Yellow.on_default(),
        Tone::Verdict(Verdict::Fail) => AnsiColor::Red.on_default().bold(),
        Tone::Quiet => Style::new().dimmed(),
    }
}

/// `text` as it is printed: its marked pieces in their colours when `colour`, else plain.
pub fn styled(text: &StyledText, colour: bool) -> String {
    if !colour {
        return text.as_str().to_string();
    }
    let mut out = String::with_capacity(text.as_str().len() + 64);
    for (piece, tone) in text.pieces() {
        match tone {
            Some(tone) => {
                let s = style(tone);
                out.push_str(&format!("{s}{piece}{s:#}"));
            }
            None => out.push_str(piece),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_is_coloured_only_when_asked() {
        let mut text = StyledText::default();
        text.toned(Tone::Verdict(Verdict::Fail), "FAIL");
        text.toned(Tone::Verdict(Verdict::Pass), "PASS");
        assert_eq!(styled(&text, false), "FAILPASS");
        assert_eq!(styled(&text, true), "\x1b[1m\x1b[31mFAIL\x1b[0m\x1b[32mPASS\x1b[0m");
    }
}
