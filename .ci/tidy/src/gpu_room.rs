//! The GPU lives in one room: `cfg(feature = "gpu")` appears only under [`ROOM`], whose
//! `mod.rs` picks the enabled or the disabled backend, so no other code carries the feature.

use crate::{Problem, Tree};

/// The one folder that may name the `gpu` feature.
pub const ROOM: &str = "crates/count/src/gpu/";

pub fn check(tree: &Tree) -> Vec<Problem> {
    let mut found = Vec::new();
    for file in tree.files.iter().filter(|f| !f.path.starts_with(ROOM)) {
        for (i, line) in file.text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if code.contains("feature = \"gpu\"") {
                found.push(Problem {
                    check: "gpu-room",
                    place: format!("{}:{}", file.path, i + 1),
                    message: format!(
                        "names the gpu feature outside {ROOM}: reach the GPU through that \
                         folder's functions, which refuse without the feature"
                    ),
                });
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_feature_outside_the_room_is_named() {
        let cfg = "#[cfg(feature = \"gpu\")]\nmod device;\n";
        let tree = Tree::of(&[
            ("crates/count/src/gpu/mod.rs", cfg),
            ("crates/count/src/quadrants/mod.rs", cfg),
        ]);
        let found = check(&tree);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].place, "crates/count/src/quadrants/mod.rs:1");
    }
}
