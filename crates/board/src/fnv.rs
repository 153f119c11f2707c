//! FNV-1a, 64 bits: a small, stable, dependency-free hash for plan fingerprints and the seals
//! of checkpoint and shard files (it catches accidents, not forgery).

/// An FNV-1a 64 hash being fed.
#[derive(Debug, Clone, Copy)]
pub struct Fnv(u64);

impl Default for Fnv {
    /// The empty hash.
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    /// The empty hash.
    pub fn new() -> Fnv {
        Fnv::default()
    }

    /// Feeds bytes.
    pub fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= x as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// The hash as 16 hex digits.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published FNV-1a 64 test vectors: the fingerprints and seals of files already
    /// written depend on these exact values.
    #[test]
    fn hashes_the_published_test_vectors() {
        let hex = |s: &str| {
            let mut h = Fnv::new();
            h.bytes(s.as_bytes());
            h.hex()
        };
        assert_eq!(hex(""), "cbf29ce484222325");
        assert_eq!(hex("a"), "af63dc4c8601ec8c");
        assert_eq!(hex("foobar"), "85944171f73967e8");
    }
}
