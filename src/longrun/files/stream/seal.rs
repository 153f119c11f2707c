//! The seal of a file computed as its bytes are read, its UTF-8 checked across the pieces it
//! is read in, and its tokens kept short: what the streaming reader needs of a file it never
//! holds whole.

/// The most digits a number of a run's file has: a `u128` has 39, and a sign or a fraction
/// one more.
pub(super) const MOST_NUMBER_BYTES: usize = 40;

/// The most bytes a string of a run's file has (a key, a host's or a CPU's name, a digest):
/// far more than any file nqueens writes holds.
pub(super) const MOST_STRING_BYTES: usize = 4096;

/// A token longer than a run's file can have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LongToken {
    /// A number of more than [`MOST_NUMBER_BYTES`] characters.
    Number,
    /// A string of more than [`MOST_STRING_BYTES`] bytes.
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

/// The key whose value a seal leaves out ([`crate::longrun::files::disk::text_digest`]), as the last 12
/// bytes read make it in [`Seal::last`].
const KEY: u128 = {
    let key = b"\"checksum\":\"";
    let mut v = 0u128;
    let mut i = 0;
    while i < key.len() {
        v = (v << 8) | key[i] as u128;
        i += 1;
    }
    v
};

/// The bits of the last 12 bytes read.
const LAST: u128 = (1 << 96) - 1;

/// [`crate::longrun::files::disk::text_digest`] computed a byte at a time: FNV-1a 64 of the text without
/// its leading and trailing white space, with the value after the last `"checksum":"` left
/// out. FNV's state is one number, so the hash as it stood at any point is kept for the
/// price of a copy: `full` is the hash of every byte, `skipping` that of the text with the
/// last key's value left out, and `before_space` both as they were before the trailing run
/// of white space.
#[derive(Debug, Clone)]
pub(super) struct Seal {
    full: crate::fnv::Fnv,
    skipping: Option<crate::fnv::Fnv>,
    in_value: bool,
    /// The last 12 bytes read, the latest lowest.
    last: u128,
    started: bool,
    before_space: Option<(crate::fnv::Fnv, Option<crate::fnv::Fnv>, bool)>,
}

impl Default for Seal {
    fn default() -> Seal {
        Seal {
            full: crate::fnv::Fnv::new(),
            skipping: None,
            in_value: false,
            last: 0,
            started: false,
            before_space: None,
        }
    }
}

impl Seal {
    pub(super) fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.byte(b);
        }
    }

    fn byte(&mut self, b: u8) {
        let space = b.is_ascii_whitespace() || b == 0x0b;
        if !self.started {
            if space {
                return;
            }
            self.started = true;
        }
        if space {
            if self.before_space.is_none() {
                self.before_space = Some((self.full, self.skipping, self.in_value));
            }
        } else {
            self.before_space = None;
        }
        self.full.bytes(&[b]);
        if let Some(s) = &mut self.skipping {
            if !self.in_value {
                s.bytes(&[b]);
            } else if b == b'"' {
                self.in_value = false;
                s.bytes(&[b]);
            }
        }
        self.last = ((self.last << 8) | b as u128) & LAST;
        if b == b'"' && self.last == KEY {
            self.skipping = Some(self.full);
            self.in_value = true;
        }
    }

    /// The seal, or `None` where the text has no `"checksum":"` or its value never ends.
    pub(super) fn finish(&self) -> Option<String> {
        let (_, skipping, in_value) =
            self.before_space
                .unwrap_or((self.full, self.skipping, self.in_value));
        match skipping {
            Some(s) if !in_value => Some(s.hex()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seal_of(text: &str) -> Option<String> {
        let mut s = Seal::default();
        s.bytes(text.as_bytes());
        s.finish()
    }

    /// The seal computed as bytes pass is the seal of the whole text, white space at either
    /// end, keys that overlap and a key whose value never ends included.
    #[test]
    fn the_streamed_seal_is_the_text_digest() {
        let texts = [
            "{\"a\":1,\"checksum\":\"abc\"}\n",
            "  \n{\"checksum\":\"x\",\"b\":\"\\\"checksum\\\":\\\"\",\"checksum\":\"y\"}  \n\t",
            "{\"x\":\"\"checksum\":\"\",\"checksum\":\"\"}",
            "{\"a\":1}",
            "{\"checksum\":\"never ends",
            "{\"checksum\":\"v\" }   ",
            "",
            "   ",
        ];
        for t in texts {
            assert_eq!(
                seal_of(t),
                crate::longrun::files::disk::text_digest(t),
                "{t:?}"
            );
        }
    }

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
