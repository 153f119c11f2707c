//! A board written as JSON (`{"n":8,"solution":[1,5,8,6,3,7,2,4]}` or a bare array), read as
//! it is parsed.

use super::check::Board;
use super::tokens::{bad, in_range, number};
use crate::error::Result;

/// A JSON board: an array of columns, or an object with `"solution"` (and `"n"`). It is read
/// as it is parsed, each column checked and placed as it comes: no tree of JSON values is
/// built, so what is held is the text and the board (16 bytes per queen).
pub(super) fn parse_json(lines: &[(usize, &str)], off: usize) -> Result<Board> {
    let no = lines[0].0;
    let joined;
    let text = if let [(_, one)] = lines {
        *one
    } else {
        joined = lines.iter().map(|l| l.1).collect::<Vec<_>>().join("\n");
        &joined
    };
    let seed = JsonBoard { line: no, off };
    let mut de = serde_json::Deserializer::from_str(text);
    let read = serde::de::DeserializeSeed::deserialize(seed, &mut de).and_then(|b| {
        de.end()?;
        Ok(b)
    });
    let (cols, n) = match read {
        Ok(read) => read,
        // A message of ours (a column out of range, a field of the wrong kind) is the
        // answer; serde's own is about the JSON.
        Err(e) if e.is_data() => return Err(bad(no, first_words(&e))),
        Err(e) => return Err(bad(no, format!("not valid JSON ({e})"))),
    };
    if let Some(n) = n {
        if n as usize != cols.len() {
            return Err(bad(
                no,
                format!("\"n\" is {n} but \"solution\" has {} columns", cols.len()),
            ));
        }
    }
    let b = Board {
        n: cols.len(),
        queens: cols,
    };
    in_range(no, b, off)
}

/// serde's message without the place it adds (`at line 1 column 9`): ours name the line.
fn first_words(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.find(" at line ") {
        Some(at) => s[..at].to_string(),
        None => s,
    }
}

/// Reads a JSON board of line `line`, its columns counted from `off`: the queens
/// (`(row, col)`, 0-based) and the `"n"` it says, if any.
#[derive(Clone, Copy)]
struct JsonBoard {
    line: usize,
    off: usize,
}

impl<'de> serde::de::DeserializeSeed<'de> for JsonBoard {
    type Value = (Vec<(usize, usize)>, Option<u64>);
    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        d: D,
    ) -> std::result::Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for JsonBoard {
    type Value = (Vec<(usize, usize)>, Option<u64>);

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON object or array")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(
        self,
        seq: A,
    ) -> std::result::Result<Self::Value, A::Error> {
        Ok((Columns(self).visit_seq(seq)?, None))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<Self::Value, A::Error> {
        use serde::de::Error as _;
        let (mut cols, mut n) = (None, None);
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match key.as_ref() {
                "solution" => cols = Some(map.next_value_seed(Columns(self))?),
                "n" => {
                    let v: serde_json::Value = map.next_value()?;
                    n = Some(v.as_u64().ok_or_else(|| {
                        A::Error::custom(format!(
                            "\"n\" is {v}: expected the board size, a whole number"
                        ))
                    })?);
                }
                _ => {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
            }
        }
        let cols = cols.ok_or_else(|| {
            A::Error::custom(
                "a JSON object without \"solution\": expected {\"n\":8,\"solution\":[1,5,...]}",
            )
        })?;
        Ok((cols, n))
    }
}

/// The columns of a JSON board, each checked and placed as it is read.
#[derive(Clone, Copy)]
struct Columns(JsonBoard);

impl<'de> serde::de::DeserializeSeed<'de> for Columns {
    type Value = Vec<(usize, usize)>;
    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        d: D,
    ) -> std::result::Result<Vec<(usize, usize)>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Columns {
    type Value = Vec<(usize, usize)>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("\"solution\" as an array of columns")
    }

    fn visit_unit<E: serde::de::Error>(self) -> std::result::Result<Vec<(usize, usize)>, E> {
        Err(E::custom(
            "\"solution\" is null: there is no board to check",
        ))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> std::result::Result<Vec<(usize, usize)>, A::Error> {
        use serde::de::Error as _;
        let JsonBoard { line, off } = self.0;
        let mut queens = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(x) = seq.next_element::<serde_json::Value>()? {
            // A column is a scalar: anything else is refused before it is kept.
            let col = number(line, &x.to_string(), off, "column").map_err(|e| {
                // The line is named once, by the caller.
                let said = e.to_string();
                let prefix = format!("line {line}: ");
                A::Error::custom(said.strip_prefix(&prefix).unwrap_or(&said).to_string())
            })?;
            queens.push((queens.len(), col));
        }
        Ok(queens)
    }
}
