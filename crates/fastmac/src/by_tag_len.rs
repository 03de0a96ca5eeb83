//! The one place a run-time tag length becomes a type: the macro behind
//! UMAC's and Badger's run-time-length types (`umac/any.rs`,
//! `badger/any.rs`). Everything else that takes a tag length at run time
//! (the [`Algorithm`](crate::Algorithm) registry, the SSH MACs, the
//! bindings) goes through those types.

/// Defines, in the module that invokes it, for the tag lengths listed
/// (which must be the module's `TAG_LENS`, in order; checked at compile
/// time):
///
/// - `ByTagLen`, an enum generic in the tag length: one variant per length,
///   each holding the object of that length, and its `tag_len`;
/// - `by_tag_len!(tag_len, N => make)`: `make` with `N` a `const` equal to
///   `tag_len`, wrapped in the variant of that length; any other length
///   returns [`Error::UnsupportedTagLength`](crate::Error::UnsupportedTagLength)
///   from the enclosing function;
/// - `dispatch!(any, m => body)`: `body` with `m` bound to the object of
///   the `ByTagLen`'s length.
///
/// The first token is `$`, which the two generated macros need for their
/// own variables.
macro_rules! by_tag_len_types {
    ($d:tt $($variant:ident($T:ident) = $len:literal),+ $(,)?) => {
        /// A type generic in the tag length, at each of [`TAG_LENS`].
        #[derive(Clone)]
        enum ByTagLen<$($T),+> {
            $($variant($T)),+
        }

        impl<$($T),+> ByTagLen<$($T),+> {
            fn tag_len(&self) -> usize {
                match self {
                    $(ByTagLen::$variant(_) => $len),+
                }
            }
        }

        const _: () = assert!($crate::by_tag_len::same(&[$($len),+], &TAG_LENS), "the variants are not TAG_LENS");

        macro_rules! by_tag_len {
            ($d tag_len:expr, $d N:ident => $d make:expr) => {
                match $d tag_len {
                    $($len => {
                        const $d N: usize = $len;
                        ByTagLen::$variant($d make)
                    })+
                    got => return Err($crate::error::Error::UnsupportedTagLength { supported: &TAG_LENS, got }),
                }
            };
        }

        macro_rules! dispatch {
            ($d any:expr, $d m:ident => $d body:expr) => {
                match $d any {
                    $(ByTagLen::$variant($d m) => $d body,)+
                }
            };
        }
    };
}
pub(crate) use by_tag_len_types;

/// Whether two lists of tag lengths are equal (a `const fn`, for the
/// compile-time check of [`by_tag_len_types!`]).
pub(crate) const fn same(a: &[usize], b: &[usize]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
