//! The seal of a checkpoint or shard file: the FNV-1a 64 of its text with the value of its
//! `checksum` field left out, written in that field when the file is made and checked by every
//! reader. It catches accidents (a truncated or edited file), not forgery: that is the run
//! digest's and the audit's (`crate::files::provenance`). The seal of a value about to be
//! written ([`seal`]), of a text read whole ([`text_seal`]), and of a text as its bytes pass
//! ([`Seal`], for the streaming reader) are the same.

use nqueens_board::fnv::Fnv;

/// The seal of a checkpoint or shard file: FNV-1a 64 of `value` serialised as compact JSON
/// (with its own `checksum` field empty), in hex. It catches accidents, not forgery.
pub fn seal<T: serde::Serialize>(value: &T) -> String {
    let mut h = Fnv::new();
    h.bytes(serde_json::to_string(value).unwrap_or_default().as_bytes());
    h.hex()
}

/// The seal of a checkpoint or shard file's text as it was written: FNV-1a 64 of the text
/// (trimmed) with the value of its last `"checksum"` field emptied, which is what [`seal`]
/// hashed when the file was sealed. Reading checks this rather than a re-serialisation of
/// what was parsed, so a value that does not survive a round trip cannot break a genuine
/// file's seal. `None` when the text has no checksum field.
pub fn text_seal(text: &str) -> Option<String> {
    const KEY: &str = "\"checksum\":\"";
    let text = text.trim();
    let at = text.rfind(KEY)? + KEY.len();
    let end = at + text[at..].find('"')?;
    let mut h = Fnv::new();
    h.bytes(&text.as_bytes()[..at]);
    h.bytes(&text.as_bytes()[end..]);
    Some(h.hex())
}

/// The key whose value a seal leaves out ([`text_seal`]), as the last 12
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

/// [`text_seal`] computed a byte at a time: FNV-1a 64 of the text without
/// its leading and trailing white space, with the value after the last `"checksum":"` left
/// out. FNV's state is one number, so the hash as it stood at any point is kept for the
/// price of a copy (`Hashes`): the hashes now, and `before_space` as they were before the
/// trailing run of white space.
#[derive(Debug, Clone)]
pub struct Seal {
    now: Hashes,
    /// The last 12 bytes read, the latest lowest.
    last: u128,
    started: bool,
    before_space: Option<Hashes>,
}

/// The seal's hashes at one point of the text.
#[derive(Debug, Clone, Copy)]
struct Hashes {
    /// The hash of every byte.
    full: Fnv,
    /// The hash of the text with the last `"checksum":"`'s value left out, once there is one.
    skipping: Option<Fnv>,
    /// Whether the bytes are inside that value.
    in_value: bool,
}

impl Default for Seal {
    fn default() -> Seal {
        Seal {
            now: Hashes {
                full: Fnv::new(),
                skipping: None,
                in_value: false,
            },
            last: 0,
            started: false,
            before_space: None,
        }
    }
}

impl Seal {
    pub fn bytes(&mut self, bytes: &[u8]) {
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
                self.before_space = Some(self.now);
            }
        } else {
            self.before_space = None;
        }
        let now = &mut self.now;
        now.full.bytes(&[b]);
        if let Some(s) = &mut now.skipping {
            if !now.in_value {
                s.bytes(&[b]);
            } else if b == b'"' {
                now.in_value = false;
                s.bytes(&[b]);
            }
        }
        self.last = ((self.last << 8) | b as u128) & LAST;
        if b == b'"' && self.last == KEY {
            now.skipping = Some(now.full);
            now.in_value = true;
        }
    }

    /// The seal, or `None` where the text has no `"checksum":"` or its value never ends.
    pub fn finish(&self) -> Option<String> {
        let end = self.before_space.unwrap_or(self.now);
        match end.skipping {
            Some(s) if !end.in_value => Some(s.hex()),
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
    fn the_streamed_seal_is_the_texts_seal() {
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
            assert_eq!(seal_of(t), text_seal(t), "{t:?}");
        }
    }
}
