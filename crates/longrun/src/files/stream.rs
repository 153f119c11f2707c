//! Reading a run's file one record at a time: the fields of a shard result or a checkpoint
//! are kept (a few hundred bytes), its records (`done`, up to millions) are handed to a
//! [`Fields`] sink as they are read and never held, and the file's seal is computed as the
//! bytes pass (the same value as [`text_seal`] of the whole text).
//! So a reader holds a file's fields, its streaming buffer and what its sink keeps, whatever
//! the file's size (a file of up to 1 MiB is read whole and parsed in memory, which is
//! faster; a larger one streams through a buffer of 64 KiB).

use crate::files::record::Done;
use nqueens_board::error::Error;
use serde::de::{DeserializeSeed, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::cell::Cell;
use std::io::Read;

mod checks;
pub use self::checks::LongToken;
use self::checks::{Tokens, Utf8, MOST_NUMBER_BYTES, MOST_STRING_BYTES};
use crate::files::seal::{text_seal, Seal};

/// The most bytes of a file's fields other than its records: a genuine file's are a few
/// hundred; more is refused before it is held.
pub const MOST_FIELD_BYTES: u64 = 1 << 20;

/// The fields of shard results and checkpoints that are kept; any other is skipped unread,
/// as the typed readers ignore it.
const KEPT: [&str; 17] = [
    "format",
    "version",
    "n",
    "algorithm",
    "split_depth",
    "placed",
    "fingerprint",
    "shard",
    "tasks",
    "plan_tasks",
    "counts",
    "kernel",
    "threads",
    "seconds",
    "resumed_tasks",
    "counted_by",
    "checksum",
];

/// Where a streamed file's fields and records go.
pub trait Fields {
    /// The fields read before the records (called once, when `done` begins).
    fn head(&mut self, fields: &RawFields) -> nqueens_board::Result<()>;
    /// One record, in the file's order.
    fn record(&mut self, d: Done) -> nqueens_board::Result<()>;
}

/// Where the records of a file of kind `H` go as it is read: its fields first (`H` with no
/// records), then each record. What a sink returns as an error is the reader's error, once
/// the file has passed the checks of its own (its JSON, its fields, its seal).
pub trait Records<H> {
    /// The file's fields, read before its records.
    fn head(&mut self, head: &H) -> nqueens_board::Result<()>;
    /// One record, in the file's order, that passed the checks of the file by itself.
    fn record(&mut self, d: &Done) -> nqueens_board::Result<()>;
}

/// A sink that keeps every record (for small files, and the readers that return them).
#[derive(Debug, Default)]
pub struct Collect(pub Vec<Done>);

impl<H> Records<H> for Collect {
    fn head(&mut self, _: &H) -> nqueens_board::Result<()> {
        Ok(())
    }
    fn record(&mut self, d: &Done) -> nqueens_board::Result<()> {
        self.0.push(*d);
        Ok(())
    }
}

/// A sink that keeps nothing: the reader's checks alone.
#[derive(Debug, Default)]
pub struct Discard;

impl<H> Records<H> for Discard {
    fn head(&mut self, _: &H) -> nqueens_board::Result<()> {
        Ok(())
    }
    fn record(&mut self, _: &Done) -> nqueens_board::Result<()> {
        Ok(())
    }
}

/// The fields of a file kept as it streams (the known ones), each as its JSON text (numbers past
/// 2^64 stay exact, as the typed readers read them).
#[derive(Debug, Default)]
pub struct RawFields(Vec<(String, Box<RawValue>)>);

impl RawFields {
    fn contains(&self, key: &str) -> bool {
        self.0.iter().any(|(k, _)| k == key)
    }

    /// How many fields are kept.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The `version` field, where it is a number.
    pub fn version(&self) -> Option<u64> {
        let (_, v) = self.0.iter().find(|(k, _)| k == "version")?;
        serde_json::from_str(v.get()).ok()
    }

    /// The fields as a `T`, with an empty record list (and an empty `checksum` where there
    /// is none yet): what the typed readers read.
    pub fn typed<T: serde::de::DeserializeOwned>(&self) -> serde_json::Result<T> {
        let mut text = String::from("{");
        for (k, v) in &self.0 {
            text += &serde_json::to_string(k)?;
            text.push(':');
            text += v.get();
            text.push(',');
        }
        if !self.contains("checksum") {
            text += "\"checksum\":\"\",";
        }
        text += "\"done\":[]}";
        serde_json::from_str(&text)
    }
}

/// What streaming a file found. Nothing is an error yet: the reader of each kind decides
/// which of these to report first (a JSON error, then its fields, then its seal, then a
/// record's).
#[derive(Debug, Default)]
pub struct Streamed {
    /// Every kept field, records excepted.
    pub fields: RawFields,
    /// The seal of the text as read ([`text_seal`]).
    pub seal: Option<String>,
    /// The JSON did not parse (or the file could not be read to its end).
    pub json: Option<serde_json::Error>,
    /// How the file is larger than its kind may be, if it is ([`Streamed::too_large`]).
    pub oversize: Option<Oversize>,
    /// The file is not UTF-8 text.
    pub not_text: bool,
    /// The first error of the sink (after it, records are read and dropped).
    pub failed: Option<Error>,
    /// How many records it lists.
    pub listed: usize,
    /// Whether it has a `done` list at all.
    pub has_records: bool,
}

/// The most bytes read at a time.
const BUFFER: usize = 64 << 10;

/// Files up to this size are read whole and parsed in memory (several times faster a byte
/// than through a reader: a run of a million small files is read at the speed it was);
/// larger ones stream through a buffer of [`BUFFER`] bytes.
const WHOLE: usize = 1 << 20;

/// What serde says of fields that do not make a file's head, without the place in the
/// text it built them into (which is not the file's).
pub fn first_words(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.find(" at line ") {
        Some(at) => s[..at].to_string(),
        None => s,
    }
}

/// How a file is larger than a reader takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Oversize {
    /// Larger than this many bytes in all.
    File(u64),
    /// Its fields other than its records take more than [`MOST_FIELD_BYTES`].
    Fields,
    /// It holds a number or a string longer than any a run's file has.
    Token(LongToken),
}

impl Streamed {
    /// The error of file `name` (of kind `what`: `shard`, `checkpoint`) that is larger than a
    /// reader takes, if it is.
    pub fn too_large(&self, name: &str, what: &str) -> Option<Error> {
        Some(Error::Input(match self.oversize? {
            Oversize::File(limit) => format!(
                "{name} is larger than {} MiB, the most nqueens reads as a {what} (is it the \
                 right file?)",
                limit >> 20
            ),
            Oversize::Fields => format!(
                "{name}: its fields other than its records take more than {} KiB, which no \
                 {what} nqueens writes has (is it the right file?)",
                MOST_FIELD_BYTES >> 10
            ),
            Oversize::Token(LongToken::Number) => format!(
                "{name} holds a number of more than {MOST_NUMBER_BYTES} digits, which no \
                 {what} nqueens writes has (its counts fit in 39): it is damaged or forged"
            ),
            Oversize::Token(LongToken::Text) => format!(
                "{name} holds a string of more than {MOST_STRING_BYTES} bytes, which no {what} \
                 nqueens writes has: it is damaged or forged"
            ),
        }))
    }
}

/// Where a file's text comes from: its reader, and its size in bytes where it is known (a
/// small file is read with a small buffer).
#[derive(Debug)]
pub struct Source<R> {
    /// The text.
    pub reader: R,
    /// Its size in bytes, where it is known.
    pub size: Option<u64>,
}

impl<R: Read> Source<R> {
    /// `reader`, whose size is `size` where it is known.
    pub fn new(reader: R, size: Option<u64>) -> Source<R> {
        Source { reader, size }
    }
}

impl<'a> Source<&'a [u8]> {
    /// The text `text`, its size known.
    pub fn text(text: &'a str) -> Source<&'a [u8]> {
        Source::new(text.as_bytes(), Some(text.len() as u64))
    }
}

/// Streams the JSON object in `source` (at most `limit` bytes) into `sink` (see the module).
pub fn stream(source: Source<impl Read>, limit: u64, sink: &mut dyn Fields) -> Streamed {
    let Source { mut reader, size } = source;
    let mut out = Streamed::default();
    let in_records = Cell::new(false);
    let mut first = Vec::with_capacity(size.map_or(BUFFER, |s| (s as usize).min(WHOLE) + 1));
    if let Err(e) = (&mut reader).take(WHOLE as u64 + 1).read_to_end(&mut first) {
        out.json = Some(serde_json::Error::io(e));
        return out;
    }
    if first.len() as u64 > limit {
        out.oversize = Some(Oversize::File(limit));
        out.json = Some(serde_json::Error::io(std::io::Error::other("too large")));
        return out;
    }
    if first.len() <= WHOLE {
        let mut de = serde_json::Deserializer::from_slice(&first);
        out.json = parse(&mut de, &mut out, sink, &in_records).err();
        // A file that is not text is refused before its seal is looked at.
        match std::str::from_utf8(&first) {
            Ok(text) => out.seal = text_seal(text),
            Err(_) => out.not_text = true,
        }
        return out;
    }
    let mut src = SealReader {
        inner: first.as_slice().chain(reader),
        buf: vec![0; BUFFER],
        at: 0,
        len: 0,
        read: 0,
        limit,
        field_bytes: 0,
        in_records: &in_records,
        seal: Seal::default(),
        oversize: None,
        utf8: Utf8::default(),
        tokens: Tokens::default(),
    };
    let mut de = serde_json::Deserializer::from_reader(&mut src);
    out.json = parse(&mut de, &mut out, sink, &in_records).err();
    out.oversize = src.oversize;
    out.not_text = !src.utf8.valid();
    out.seal = src.seal.finish();
    out
}

/// Parses the object `de` reads into `out` and `sink`.
fn parse<'de, R: serde_json::de::Read<'de>>(
    de: &mut serde_json::Deserializer<R>,
    out: &mut Streamed,
    sink: &mut dyn Fields,
    in_records: &Cell<bool>,
) -> serde_json::Result<()> {
    let visitor = Streaming {
        out,
        sink,
        in_records,
    };
    serde::Deserializer::deserialize_map(&mut *de, visitor)?;
    de.end()
}

/// The top-level object: kept fields into the map, records to the sink.
struct Streaming<'a, 's> {
    out: &'a mut Streamed,
    sink: &'s mut dyn Fields,
    in_records: &'a Cell<bool>,
}

impl<'de> Visitor<'de> for Streaming<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if key == "done" {
                if self.out.has_records {
                    return Err(A::Error::custom("duplicate field `done`"));
                }
                self.out.has_records = true;
                if let Err(e) = self.sink.head(&self.out.fields) {
                    self.out.failed = Some(e);
                }
                self.in_records.set(true);
                map.next_value_seed(RecordList {
                    out: &mut *self.out,
                    sink: &mut *self.sink,
                })?;
                self.in_records.set(false);
            } else if KEPT.contains(&key.as_str()) {
                if self.out.fields.contains(&key) {
                    return Err(A::Error::custom(format!("duplicate field `{key}`")));
                }
                let v: Box<RawValue> = map.next_value()?;
                self.out.fields.0.push((key, v));
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

/// The `done` list: each record to the sink until it fails, then only counted.
struct RecordList<'a, 's> {
    out: &'a mut Streamed,
    sink: &'s mut dyn Fields,
}

impl<'de> DeserializeSeed<'de> for RecordList<'_, '_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for RecordList<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a list of task records")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(crate::files::record::compact::AnyDone(d)) = seq.next_element()? {
            self.out.listed += 1;
            if self.out.failed.is_none() {
                if let Err(e) = self.sink.record(d) {
                    self.out.failed = Some(e);
                }
            }
        }
        Ok(())
    }
}

/// The file's bytes, read through a buffer; the seal computed as they are read, the size
/// bounded, and the bytes outside the records bounded by [`MOST_FIELD_BYTES`].
struct SealReader<'c, R> {
    inner: R,
    buf: Vec<u8>,
    at: usize,
    len: usize,
    read: u64,
    limit: u64,
    field_bytes: u64,
    in_records: &'c Cell<bool>,
    seal: Seal,
    oversize: Option<Oversize>,
    utf8: Utf8,
    tokens: Tokens,
}

impl<R: Read> Read for SealReader<'_, R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.len {
            let got = self.inner.read(&mut self.buf)?;
            self.read += got as u64;
            if self.read > self.limit {
                self.oversize = Some(Oversize::File(self.limit));
                return Err(std::io::Error::other("the file is too large"));
            }
            self.seal.bytes(&self.buf[..got]);
            self.utf8.bytes(&self.buf[..got], got == 0);
            if let Some(long) = self.tokens.bytes(&self.buf[..got]) {
                self.oversize = Some(Oversize::Token(long));
                return Err(std::io::Error::other("a token is too long"));
            }
            (self.at, self.len) = (0, got);
        }
        let n = out.len().min(self.len - self.at);
        out[..n].copy_from_slice(&self.buf[self.at..self.at + n]);
        self.at += n;
        if !self.in_records.get() {
            self.field_bytes += n as u64;
            if self.field_bytes > MOST_FIELD_BYTES {
                self.oversize = Some(Oversize::Fields);
                return Err(std::io::Error::other("the fields are too large"));
            }
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Keep(Vec<Done>, usize);

    impl Fields for Keep {
        fn head(&mut self, fields: &RawFields) -> nqueens_board::Result<()> {
            self.1 = fields.len();
            Ok(())
        }
        fn record(&mut self, d: Done) -> nqueens_board::Result<()> {
            self.0.push(d);
            Ok(())
        }
    }

    #[test]
    fn records_go_to_the_sink_and_fields_are_kept() {
        let text = "{\"format\":\"f\",\"junk\":[1,2,{\"a\":3}],\"done\":[[1,2,3],[4,5,6]],\
                    \"checksum\":\"00\"}";
        let mut k = Keep(Vec::new(), 0);
        // A string longer than any a run's file holds is refused as soon as it passes the limit.
        let long = format!("{{\"kernel\":\"{}\",\"done\":[]}}", "x".repeat(3 << 20));
        let s = stream(Source::new(long.as_bytes(), Some(5)), 1 << 30, &mut k);
        assert_eq!(s.oversize, Some(Oversize::Token(LongToken::Text)));
        let s = stream(Source::new(text.as_bytes(), None), 1 << 20, &mut k);
        assert!(s.json.is_none(), "{:?}", s.json);
        assert_eq!((k.0.len(), k.1, s.listed), (2, 1, 2));
        assert_eq!(k.0[1].id, 4);
        assert!(s.fields.contains("checksum") && !s.fields.contains("junk"));
        assert_eq!(s.seal, text_seal(text));
        // Past its limit, or with fields of more than MOST_FIELD_BYTES, a file is refused.
        let s = stream(Source::new(text.as_bytes(), None), 10, &mut k);
        assert!(s.json.is_some() && s.oversize == Some(Oversize::File(10)));
        let big = format!("{{\"junk\":[{}0],\"done\":[]}}", "0,".repeat(3 << 19));
        let s = stream(Source::new(big.as_bytes(), Some(5)), 1 << 30, &mut k);
        assert_eq!(s.oversize, Some(Oversize::Fields));
        let e = s.too_large("f.json", "shard").unwrap().to_string();
        assert!(
            e.contains("f.json: its fields other than its records take more"),
            "{e}"
        );
        let twice = "{\"done\":[],\"done\":[]}";
        let s = stream(Source::new(twice.as_bytes(), None), 1 << 20, &mut k);
        assert!(s.json.unwrap().to_string().contains("duplicate field"));
    }
}
