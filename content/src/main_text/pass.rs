//! Readability's passes: how strict each is, the strictest first.

/// How strict a pass is (the first is the strictest; Readability relaxes the same three
/// things, in this order, when a pass finds too little text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pass {
    /// Drop elements whose `class`/`id` say unlikely (comments, menus, …) and `header`s.
    pub(crate) strip_unlikely: bool,
    /// Count `class`/`id` words for and against a container.
    pub(crate) weigh_classes: bool,
    /// Drop link lists, image galleries and forms inside the article (see `output`).
    pub(crate) clean: bool,
}

/// The passes, strictest first (see the main text module's doc, step 5).
pub(crate) const PASSES: [Pass; 4] = [
    Pass {
        strip_unlikely: true,
        weigh_classes: true,
        clean: true,
    },
    Pass {
        strip_unlikely: false,
        weigh_classes: true,
        clean: true,
    },
    Pass {
        strip_unlikely: false,
        weigh_classes: false,
        clean: true,
    },
    Pass {
        strip_unlikely: false,
        weigh_classes: false,
        clean: false,
    },
];
