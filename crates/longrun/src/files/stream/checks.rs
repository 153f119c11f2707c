//! What the streaming reader checks of a file it never holds whole, as its bytes pass: its
//! UTF-8, across the pieces it is read in, and its tokens, kept short. (Its seal is computed
//! as they pass too: `crate::files::seal`.)

/// The most digits a number of a run's file has: a `u128` has 39, and a sign or a fraction
/// one more.
pub(super) const MOST_NUMBER_BYTES: usize = 40;

/// The most bytes a string of a run's file has (a key, a host's or a CPU's name, a digest):
/// far more than any file nqueens writes holds.
pub(super) const MOST_STRING_BYTES: usize = 4096;

/// A token longer than a run's file can have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LongToken {
    /// A number of more than `MOST_NUMBER_BYTES` characters.
    Number,
    /// A string of more than `MOST_STRING_BYTES` bytes.
    Text,
}

/// The length of the token being read, across the pieces the text comes in: a number or a
/// string longer than any a run's file holds is found as soon as it passes the limit, not
/// after the JSON reader has gathered all of it.
#[derive(Debug, Default)]
pub(super) struct Tokens {
    in_string: bool,
    escaped: bool,
    run: usize,
}

impl Tokens {
    /// The next piece: the first token past its limit, if there is one.
    pub(super) fn bytes(&mut self, piece: &[u8]) -> Option<LongToken> {
        for &b in piece {
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                    continue;
                }
                self.run += 1;
                if self.run > MOST_STRING_BYTES {
                    return Some(LongToken::Text);
                }
            } else if b == b'"' {
                (self.in_string, self.run) = (true, 0);
            } else if b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E') {
                self.run += 1;
                if self.run > MOST_NUMBER_BYTES {
                    return Some(LongToken::Number);
                }
            } else {
                self.run = 0;
            }
        }
        None
    }
}

/// Whether a text read in pieces is UTF-8: a character cut by a piece's end is completed
/// by the next piece's first bytes.
#[derive(Debug, Default)]
pub(super) struct Utf8 {
    carry: Vec<u8>,
    bad: bool,
}

impl Utf8 {
    /// The next piece (`end`: the text ends here).
    pub(super) fn bytes(&mut self, piece: &[u8], end: bool) {
        if self.bad {
            return;
        }
        let joined;
        let text = if self.carry.is_empty() {
            piece
        } else {
            joined = [self.carry.as_slice(), piece].concat();
            &joined
        };
        match std::str::from_utf8(text) {
            Ok(_) => self.carry.clear(),
            Err(e) if e.error_len().is_none() && !end => {
                self.carry = text[e.valid_up_to()..].to_vec();
            }
            Err(_) => self.bad = true,
        }
    }

    /// Whether no byte read so far breaks UTF-8 (a character cut where reading stopped
    /// before the end is not counted against it).
    pub(super) fn valid(&self) -> bool {
        !self.bad
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// UTF-8 is checked across the pieces a file is read in: a character cut by a piece's
    /// end is whole, a byte that begins none, or a character cut by the file's end, is not.
    #[test]
    fn utf8_is_checked_across_pieces() {
        let text = "x\u{e9}\u{20ac}\u{1f600}y".as_bytes();
        for cut in 0..=text.len() {
            for cut2 in cut..=text.len() {
                let mut u = Utf8::default();
                u.bytes(&text[..cut], false);
                u.bytes(&text[cut..cut2], false);
                u.bytes(&text[cut2..], false);
                u.bytes(&[], true);
                assert!(u.valid(), "{cut} {cut2}");
            }
            let mut bad = text[..cut].to_vec();
            bad.push(0xff);
            let mut u = Utf8::default();
            u.bytes(&bad, false);
            u.bytes(&text[cut..], false);
            u.bytes(&[], true);
            assert!(!u.valid(), "{cut}");
        }
        let mut u = Utf8::default();
        u.bytes(&text[..text.len() - 2], false);
        assert!(u.valid());
        u.bytes(&[], true);
        assert!(!u.valid());
    }
}
