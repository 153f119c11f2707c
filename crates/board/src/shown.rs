//! How text from outside the program is shown: file names, strings read from files and
//! exports, tokens of a board. One rule everywhere (as `ls` and ripgrep do): every control
//! character (a newline, an escape sequence's ESC, DEL, the C1 controls) and every Unicode
//! control of text direction is written as an escape (`\n`, `\u{1b}`), so that nothing read
//! from outside can start a line of its own, move the cursor or reorder what a terminal shows.

use std::borrow::Cow;
use std::fmt;
use std::path::Path;

/// Whether `c` must be escaped: a control character, or a control of text direction
/// (U+202A to U+202E, U+2066 to U+2069: they reorder what follows them on screen).
fn hidden(c: char) -> bool {
    c.is_control()
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

/// `s` with every character `hidden` names written as an escape; `s` itself where
/// there is none.
pub fn escaped(s: &str) -> Cow<'_, str> {
    if !s.chars().any(hidden) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if hidden(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A name or text from outside the program, displayed escaped ([`escaped`]).
#[derive(Debug, Clone)]
pub struct Shown<'a>(Cow<'a, str>);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&escaped(&self.0))
    }
}

/// What can be shown escaped: paths (their bytes that are not UTF-8 shown as U+FFFD) and text.
pub trait Show {
    /// This, to display with every control character escaped.
    fn shown(&self) -> Shown<'_>;
}

impl Show for Path {
    fn shown(&self) -> Shown<'_> {
        Shown(self.to_string_lossy())
    }
}

impl Show for std::path::PathBuf {
    fn shown(&self) -> Shown<'_> {
        Shown(self.to_string_lossy())
    }
}

impl Show for str {
    fn shown(&self) -> Shown<'_> {
        Shown(Cow::Borrowed(self))
    }
}

impl Show for String {
    fn shown(&self) -> Shown<'_> {
        Shown(Cow::Borrowed(self.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_and_direction_marks_are_escaped() {
        assert_eq!(escaped("s0.json"), "s0.json");
        assert!(matches!(escaped("plain é ü"), Cow::Borrowed(_)));
        assert_eq!(
            escaped("s2\nshard 1 finished\u{1b}[8m.json"),
            "s2\\nshard 1 finished\\u{1b}[8m.json"
        );
        assert_eq!(escaped("a\tb\rc\u{7f}\u{9b}"), "a\\tb\\rc\\u{7f}\\u{9b}");
        assert_eq!(escaped("x\u{202e}y"), "x\\u{202e}y");
        let p = Path::new("missing\nerror: everything is fine\n.txt");
        assert_eq!(
            p.shown().to_string(),
            "missing\\nerror: everything is fine\\n.txt"
        );
    }
}
