//! A function keeps to [`MAX_LINES`] lines, from the line of `fn` to its closing brace. Tests
//! (`#[test]` functions, `#[cfg(test)]` modules and test files) are left out: a test may
//! spell out a long scenario.

use crate::{Problem, Tree};
use syn::visit::Visit;

/// The most lines a function may have.
pub const MAX_LINES: usize = 70;

pub fn check(tree: &Tree) -> Vec<Problem> {
    let mut found = Vec::new();
    for file in tree.files.iter().filter(|f| !f.is_test()) {
        let Some(syntax) = &file.syntax else {
            found.push(Problem {
                check: "fn-length",
                place: file.path.clone(),
                message: "cannot be parsed by syn, so its functions were not measured".into(),
            });
            continue;
        };
        let mut v = Lengths { long: Vec::new() };
        v.visit_file(syntax);
        for (name, line, lines) in v.long {
            found.push(Problem {
                check: "fn-length",
                place: format!("{}:{line}", file.path),
                message: format!(
                    "fn {name} has {lines} lines: a function keeps to {MAX_LINES}; split it"
                ),
            });
        }
    }
    found
}

/// Whether attributes mark test code: `#[test]` or `#[cfg(test)]`.
pub fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("test")
            || (a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test"))
    })
}

struct Lengths {
    /// Each function over the limit: its name, first line and length.
    long: Vec<(String, usize, usize)>,
}

impl Lengths {
    fn measure(&mut self, sig: &syn::Signature, block: &syn::Block) {
        let first = sig.fn_token.span.start().line;
        let last = block.brace_token.span.close().end().line;
        let lines = last + 1 - first;
        if lines > MAX_LINES {
            self.long.push((sig.ident.to_string(), first, lines));
        }
    }
}

impl<'ast> Visit<'ast> for Lengths {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_test(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_test(&f.attrs) {
            self.measure(&f.sig, &f.block);
            syn::visit::visit_item_fn(self, f);
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_test(&f.attrs) {
            self.measure(&f.sig, &f.block);
            syn::visit::visit_impl_item_fn(self, f);
        }
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(block) = &f.default {
            self.measure(&f.sig, block);
        }
        syn::visit::visit_trait_item_fn(self, f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(lines: usize) -> String {
        "    let _ = 1;\n".repeat(lines - 2)
    }

    #[test]
    fn a_long_function_is_named_and_tests_are_left_out() {
        let src = format!(
            "fn short() {{\n{}}}\n\nimpl S {{\n    fn long(&self) {{\n{}    }}\n}}\n\n\
             #[cfg(test)]\nmod tests {{\n    fn long_test() {{\n{}    }}\n}}\n",
            body(MAX_LINES),
            body(MAX_LINES + 1),
            body(MAX_LINES + 5),
        );
        let tree = Tree::of(&[("src/a.rs", &src)]);
        let found = check(&tree);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].message.starts_with("fn long has 71 lines"),
            "{found:?}"
        );
        assert_eq!(found[0].place, format!("src/a.rs:{}", MAX_LINES + 3));
    }
}
