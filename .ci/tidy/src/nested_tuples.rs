//! Tuples do not hide where values travel: outside tests, no struct field or function parameter
//! has a tuple inside an `Option` (`split: Option<(bool, u32)>`: what is the bool?) or a tuple
//! of three or more parts in a slice, array or `Vec`; no type alias holds a tuple (`type At =
//! (usize, [u64; 3], usize, u64)`); and no parameter is taken apart as a tuple (`(reader,
//! size): (impl Read, Option<u64>)`). Give such values a struct with named fields. A pair in a
//! slice stays allowed (the queens' `(row, col)` squares are the library's documented
//! coordinates), and so do a function's own result (`-> Option<(usize, u64)>`, as std's
//! `split_once`) and a closure's parameters, read where they are made.

use crate::fn_length::is_test;
use crate::{Problem, Tree};
use syn::spanned::Spanned;
use syn::visit::Visit;

pub fn check(tree: &Tree) -> Vec<Problem> {
    let mut found = Vec::new();
    for file in tree.files.iter().filter(|f| f.is_source() && !f.is_test()) {
        if let Some(syntax) = &file.syntax {
            let mut t = Nested::default();
            t.visit_file(syntax);
            for (what, line) in t.places {
                found.push(Problem {
                    check: "nested-tuples",
                    place: format!("{}:{line}", file.path),
                    message: format!("{what}: give its parts a struct with named fields"),
                });
            }
        }
    }
    found
}

#[derive(Default)]
struct Nested {
    places: Vec<(String, usize)>,
}

/// Where a field's or parameter's type hides a tuple.
#[derive(Default)]
struct Travelling {
    places: Vec<(&'static str, proc_macro2::Span)>,
}

impl<'ast> Visit<'ast> for Travelling {
    fn visit_type_path(&mut self, t: &'ast syn::TypePath) {
        if arguments(t, "Option")
            .into_iter()
            .any(|a| tuple(a).is_some())
        {
            self.places.push(("an Option holds a tuple", t.span()));
        }
        if arguments(t, "Vec")
            .into_iter()
            .any(|a| tuple(a).is_some_and(|t| t.elems.len() >= 3))
        {
            self.places
                .push(("a Vec holds tuples of three or more parts", t.span()));
        }
        syn::visit::visit_type_path(self, t);
    }
    fn visit_type_slice(&mut self, t: &'ast syn::TypeSlice) {
        if tuple(&t.elem).is_some_and(|t| t.elems.len() >= 3) {
            self.places
                .push(("a slice holds tuples of three or more parts", t.span()));
        }
        syn::visit::visit_type_slice(self, t);
    }
    fn visit_type_array(&mut self, t: &'ast syn::TypeArray) {
        if tuple(&t.elem).is_some_and(|t| t.elems.len() >= 3) {
            self.places
                .push(("an array holds tuples of three or more parts", t.span()));
        }
        syn::visit::visit_type_array(self, t);
    }
}

/// The tuple type of two or more parts that `ty` is, if it is one.
fn tuple(ty: &syn::Type) -> Option<&syn::TypeTuple> {
    match ty {
        syn::Type::Tuple(t) if t.elems.len() >= 2 => Some(t),
        syn::Type::Paren(p) => tuple(&p.elem),
        syn::Type::Group(g) => tuple(&g.elem),
        _ => None,
    }
}

/// The type arguments of a path type's last segment named `name` (`Option`, `Vec`).
fn arguments<'a>(path: &'a syn::TypePath, name: &str) -> Vec<&'a syn::Type> {
    let Some(last) = path.path.segments.last() else {
        return Vec::new();
    };
    if last.ident != name {
        return Vec::new();
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|g| match g {
                syn::GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

impl Nested {
    fn push(&mut self, what: &str, span: proc_macro2::Span) {
        self.places.push((what.to_string(), span.start().line));
    }
}

impl<'ast> Visit<'ast> for Nested {
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
    fn visit_item_type(&mut self, i: &'ast syn::ItemType) {
        if contains_tuple(&i.ty) {
            self.push(
                &format!("the type alias {} holds a tuple", i.ident),
                i.span(),
            );
        }
        syn::visit::visit_item_type(self, i);
    }
    fn visit_fn_arg(&mut self, a: &'ast syn::FnArg) {
        if let syn::FnArg::Typed(p) = a {
            if matches!(*p.pat, syn::Pat::Tuple(_)) && tuple(&p.ty).is_some() {
                self.push("a parameter is taken apart as a tuple", p.span());
            }
            self.travelling(&p.ty);
        }
        syn::visit::visit_fn_arg(self, a);
    }
    fn visit_field(&mut self, f: &'ast syn::Field) {
        self.travelling(&f.ty);
        syn::visit::visit_field(self, f);
    }
}

impl Nested {
    /// The tuples hidden in the type of a field or parameter.
    fn travelling(&mut self, ty: &syn::Type) {
        let mut t = Travelling::default();
        t.visit_type(ty);
        for (what, span) in t.places {
            self.push(what, span);
        }
    }
}

/// Whether `ty` has a tuple type of two or more parts anywhere inside it.
fn contains_tuple(ty: &syn::Type) -> bool {
    struct Any(bool);
    impl<'ast> Visit<'ast> for Any {
        fn visit_type_tuple(&mut self, t: &'ast syn::TypeTuple) {
            self.0 |= t.elems.len() >= 2;
            syn::visit::visit_type_tuple(self, t);
        }
    }
    let mut any = Any(false);
    any.visit_type(ty);
    any.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn places(src: &str) -> Vec<String> {
        check(&Tree::of(&[("crates/count/src/a.rs", src)]))
            .into_iter()
            .map(|p| format!("{} {}", p.place, p.message))
            .collect()
    }

    #[test]
    fn tuples_in_options_aliases_parameters_and_slices_are_named() {
        let src = "struct S {\n    split: Option<(bool, u32)>,\n}\n\
                   type At = (usize, [u64; 3], usize, u64);\n\
                   fn read((reader, size): (u8, Option<u64>)) {}\n\
                   fn targets(t: &[(usize, u64, bool)]) {}\n";
        let found = places(src);
        assert_eq!(found.len(), 4, "{found:?}");
        assert!(found[0].starts_with("crates/count/src/a.rs:2 an Option holds a tuple"));
        assert!(found[1].starts_with("crates/count/src/a.rs:4 the type alias At"));
        assert!(found[2].starts_with("crates/count/src/a.rs:5 a parameter is taken apart"));
        assert!(found[3].starts_with("crates/count/src/a.rs:6 a slice holds tuples"));
    }

    #[test]
    fn squares_in_slices_and_tests_pass() {
        let src = "fn placed(q: &[(usize, usize)]) -> Option<(u8, u8, u8)> { None }\n\
                   #[cfg(test)]\nmod tests {\n    fn t(x: Option<(u8, u8)>) {}\n}\n";
        assert!(places(src).is_empty());
    }
}
