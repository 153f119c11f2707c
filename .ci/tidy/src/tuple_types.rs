//! Values that travel together have a named struct: at most [`MOST`] function parameters or
//! struct fields in the crate (tests left out) have an anonymous tuple type, such as
//! `(n, fixed): (u32, bool)`, whose parts a reader must guess. The budget keeps the count from
//! growing; the places are listed when it is passed.

use crate::fn_length::is_test;
use crate::{Problem, Tree};
use syn::visit::Visit;

/// The most parameters and fields of tuple type the crate may have.
pub const MOST: usize = 8;

pub fn check(tree: &Tree) -> Vec<Problem> {
    let mut found = Vec::new();
    for file in tree.files.iter().filter(|f| f.is_source() && !f.is_test()) {
        if let Some(syntax) = &file.syntax {
            let mut t = Tuples::default();
            t.visit_file(syntax);
            found.extend(
                t.places
                    .into_iter()
                    .map(|(what, line)| (file.path.clone(), what, line)),
            );
        }
    }
    if found.len() <= MOST {
        return Vec::new();
    }
    found
        .into_iter()
        .map(|(path, what, line)| Problem {
            check: "tuple-types",
            place: format!("{path}:{line}"),
            message: format!(
                "{what} has a tuple type (the crate may have {MOST} such; give the parts a \
                 struct with named fields)"
            ),
        })
        .collect()
}

/// Whether `ty` is a tuple of two or more parts, or a reference to one.
fn is_tuple(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Tuple(t) => t.elems.len() >= 2,
        syn::Type::Reference(r) => is_tuple(&r.elem),
        _ => false,
    }
}

#[derive(Default)]
struct Tuples {
    places: Vec<(String, usize)>,
}

impl<'ast> Visit<'ast> for Tuples {
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

    fn visit_signature(&mut self, sig: &'ast syn::Signature) {
        for input in &sig.inputs {
            if let syn::FnArg::Typed(p) = input {
                if is_tuple(&p.ty) {
                    let line = sig.ident.span().start().line;
                    self.places
                        .push((format!("a parameter of fn {}", sig.ident), line));
                }
            }
        }
        syn::visit::visit_signature(self, sig);
    }

    fn visit_field(&mut self, f: &'ast syn::Field) {
        if is_tuple(&f.ty) {
            let name = f
                .ident
                .as_ref()
                .map_or("a field".into(), |i| format!("field {i}"));
            let line = syn::spanned::Spanned::span(&f.ty).start().line;
            self.places.push((name, line));
        }
        syn::visit::visit_field(self, f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn past_the_budget_every_place_is_named() {
        let one = "fn f((n, fixed): (u32, bool)) {}\nstruct S { pair: (u8, u8), named: u8 }\n";
        let few = one.repeat(MOST / 2);
        assert!(check(&Tree::of(&[("src/a.rs", &few)])).is_empty());
        let many = one.repeat(MOST / 2 + 1);
        let found = check(&Tree::of(&[("src/a.rs", &many)]));
        assert_eq!(found.len(), MOST + 2);
        assert!(
            found[0].message.starts_with("a parameter of fn f"),
            "{found:?}"
        );
    }
}
