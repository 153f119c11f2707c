//! A finished task's record: its id and what it counted. Checkpoints and shard files hold one
//! for every finished task; merge adds them up and the digest of a run is made of them.

use nqueens_count::tally::Tally;
use serde::{Deserialize, Serialize};

/// One finished task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Done {
    /// The task's id in the plan.
    pub id: u32,
    /// What it counted.
    pub counts: Tally,
}

/// The compact form of a shard file's records (version 5): each an array `[ID, TOTAL, NODES]`,
/// or `[ID, TOTAL, NODES, C1, C8, QUARTERS, SYM90, SYM180]` with classes, about a third of the
/// object form's bytes. Reading also takes the object form of versions 3 and 4.
pub mod compact {
    use super::Done;
    use nqueens_count::tally::{Classes, Tally};
    use serde::de::value::MapAccessDeserializer;
    use serde::de::{Error as _, MapAccess, SeqAccess, Visitor};
    use serde::ser::SerializeSeq;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes `done` in the compact form.
    pub fn serialize<S: Serializer>(done: &[Done], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(done.len()))?;
        for d in done {
            let head = [u128::from(d.id), d.counts.total, d.counts.nodes];
            match d.counts.classes {
                Some(c) => {
                    let c: [u128; 5] = c.into();
                    let mut all = [0u128; 8];
                    all[..3].copy_from_slice(&head);
                    all[3..].copy_from_slice(&c);
                    seq.serialize_element(&all)?;
                }
                None => seq.serialize_element(&head)?,
            }
        }
        seq.end()
    }

    /// One record in either form.
    pub(crate) struct AnyDone(pub(crate) Done);

    impl<'de> Deserialize<'de> for AnyDone {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<AnyDone, D::Error> {
            d.deserialize_any(AnyDoneVisitor)
        }
    }

    struct AnyDoneVisitor;

    impl<'de> Visitor<'de> for AnyDoneVisitor {
        type Value = AnyDone;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a task record: [ID, TOTAL, NODES(, 5 class counts)] or an object")
        }

        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<AnyDone, A::Error> {
            Done::deserialize(MapAccessDeserializer::new(map)).map(AnyDone)
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<AnyDone, A::Error> {
            let mut v = [0u128; 8];
            let mut len = 0;
            while let Some(x) = seq.next_element::<u128>()? {
                if len == v.len() {
                    return Err(A::Error::custom("a task record of more than 8 numbers"));
                }
                v[len] = x;
                len += 1;
            }
            let id = u32::try_from(v[0])
                .map_err(|_| A::Error::custom("a record's id is not a task id"))?;
            let classes = match len {
                3 => None,
                8 => Some(Classes::from([v[3], v[4], v[5], v[6], v[7]])),
                n => {
                    return Err(A::Error::custom(format!(
                        "a record of {n} numbers: expected [ID, TOTAL, NODES] or [ID, TOTAL, \
                         NODES, C1, C8, QUARTERS, SYM90, SYM180]"
                    )))
                }
            };
            Ok(AnyDone(Done {
                id,
                counts: Tally {
                    total: v[1],
                    classes,
                    nodes: v[2],
                },
            }))
        }
    }

    /// Reads records in either form.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Done>, D::Error> {
        let any: Vec<AnyDone> = Vec::deserialize(d)?;
        Ok(any.into_iter().map(|a| a.0).collect())
    }
}
