//! Enums a user names on the command line or in files: one macro gives each its names,
//! `FromStr` (with an error that lists the allowed names) and `Display`.

/// Implements `NAMES`, `name()`, `FromStr` and `Display` for a fieldless enum from
/// `Variant => "name"` pairs; `$what` names the kind of thing in the parse error.
#[macro_export]
macro_rules! named_enum {
    ($ty:ident, $what:literal, { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// Every accepted name, in the order of the variants.
            pub const NAMES: &'static [&'static str] = &[$($name),+];

            /// The name used on the command line and in JSON.
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }
        }

        impl std::str::FromStr for $ty {
            type Err = $crate::error::Error;

            /// Parses a name (exact, lowercase), e.g. as given on the command line.
            fn from_str(s: &str) -> $crate::error::Result<$ty> {
                match s {
                    $($name => Ok($ty::$variant),)+
                    other => Err($crate::error::Error::Usage(format!(
                        "unknown {} '{other}': expected one of {}",
                        $what,
                        <$ty>::NAMES.join(", ")
                    ))),
                }
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}
