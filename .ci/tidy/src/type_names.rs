//! One meaning per name: a type name (a struct, enum, union, trait or type alias) is defined
//! once across the workspace's sources, tests left out, so that a name a reader meets in one
//! file means the same thing in every other.

use crate::fn_length::is_test;
use crate::{Problem, Tree};
use std::collections::BTreeMap;
use syn::visit::Visit;

pub fn check(tree: &Tree) -> Vec<Problem> {
    // Each name, and every place that defines it, in the order the files are read.
    let mut places: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in tree.files.iter().filter(|f| f.is_source() && !f.is_test()) {
        if let Some(syntax) = &file.syntax {
            let mut names = Names::default();
            names.visit_file(syntax);
            for (name, line) in names.found {
                places
                    .entry(name)
                    .or_default()
                    .push(format!("{}:{line}", file.path));
            }
        }
    }
    let mut found = Vec::new();
    for (name, at) in places.into_iter().filter(|(_, at)| at.len() > 1) {
        for place in &at[1..] {
            found.push(Problem {
                check: "type-names",
                place: place.clone(),
                message: format!(
                    "defines the type name {name}, which {} defines too: give each thing a \
                     name of its own",
                    at[0]
                ),
            });
        }
    }
    found
}

/// The type names a file defines outside its tests, with their lines.
#[derive(Default)]
struct Names {
    found: Vec<(String, usize)>,
}

impl Names {
    fn push(&mut self, attrs: &[syn::Attribute], ident: &syn::Ident) {
        if !is_test(attrs) {
            self.found
                .push((ident.to_string(), ident.span().start().line));
        }
    }
}

impl<'ast> Visit<'ast> for Names {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_test(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_test(&f.attrs) {
            syn::visit::visit_item_fn(self, f);
        }
    }
    fn visit_item_struct(&mut self, i: &'ast syn::ItemStruct) {
        self.push(&i.attrs, &i.ident);
    }
    fn visit_item_enum(&mut self, i: &'ast syn::ItemEnum) {
        self.push(&i.attrs, &i.ident);
    }
    fn visit_item_union(&mut self, i: &'ast syn::ItemUnion) {
        self.push(&i.attrs, &i.ident);
    }
    fn visit_item_trait(&mut self, i: &'ast syn::ItemTrait) {
        self.push(&i.attrs, &i.ident);
    }
    fn visit_item_type(&mut self, i: &'ast syn::ItemType) {
        self.push(&i.attrs, &i.ident);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_defined_twice_is_named_where_it_is_defined_again() {
        let tree = Tree::of(&[
            ("crates/count/src/a.rs", "pub struct Report;\n"),
            ("src/cli/b.rs", "\n\nenum Report { A }\nstruct Other;\n"),
            (
                "src/cli/c.rs",
                "#[cfg(test)]\nmod tests {\n    struct Report;\n}\n",
            ),
        ]);
        let found = check(&tree);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].place, "src/cli/b.rs:3");
        assert!(found[0].message.contains("crates/count/src/a.rs:1"));
    }

    #[test]
    fn associated_types_are_not_type_names_of_their_own() {
        let src = "struct A;\nimpl std::str::FromStr for A {\n    type Err = ();\n    \
                   fn from_str(_: &str) -> Result<A, ()> { Ok(A) }\n}\n";
        let tree = Tree::of(&[("src/a.rs", src), ("src/b.rs", "type Err = u8;\n")]);
        assert!(check(&tree).is_empty());
    }
}
