//! Python: symbols, skeleton, outline and masks on one fixture.

use insta::assert_snapshot;

use super::{listing, masked, paths};
use crate::core::model::MaskState::{Agg, Def, Hide, Sig};
use crate::core::syntax::{Lang, SymbolKind, outline, parse, skeleton};

const APP: &str = r#""""Module doc line.

More text.
"""
import os

MAX_SIZE = 10
_CACHE: dict = {}
lower = 1


# Helper comment.
@decorator
@other(1)
async def fetch(url,  # the url
                timeout: float = 1.0) -> bytes:
    """Fetch a URL."""
    data = await get(url)
    return data


def outer(x):
    def inner(y):
        return y
    return inner(x)


class App(Base):
    """The app."""

    name = "app"

    def run(self, x: int) -> bool:
        """Run the app.

        Long description.
        """
        if x:
            return True
        return False

    def stop(self): return None

    @property
    def size(self):
        "Only a docstring."

    @size.setter
    def size(self, v):
        self._size = v

    class Inner:
        def deep(self):
            pass


def one(): return 1
"#;

#[test]
fn symbols_have_paths_kinds_and_lines() {
    let tree = parse(Lang::Python, APP);
    assert_eq!(
        paths(&tree),
        [
            "MAX_SIZE",
            "_CACHE",
            "fetch",
            "outer",
            "outer.inner",
            "App",
            "App.run",
            "App.stop",
            "App.size",
            "App.size#2",
            "App.Inner",
            "App.Inner.deep",
            "one",
        ]
    );
    assert_eq!(tree.module_doc.as_deref(), Some("Module doc line."));
    assert!(!tree.has_errors);
    assert_snapshot!(listing(&tree), @r"
    MAX_SIZE [constant] L7-7 | MAX_SIZE = 10
    _CACHE [constant] L8-8 | _CACHE: dict = {}
    fetch [function] L13-19 | async def fetch(url, timeout: float = 1.0) -> bytes
    outer [function] L22-25 | def outer(x)
    outer.inner [function] L23-24 | def inner(y)
    App [class] L28-54 | class App(Base)
    App.run [method] L33-40 | def run(self, x: int) -> bool
    App.stop [method] L42-42 | def stop(self)
    App.size [method] L44-46 | def size(self)
    App.size#2 [method] L48-50 | def size(self, v)
    App.Inner [class] L52-54 | class Inner
    App.Inner.deep [method] L53-54 | def deep(self)
    one [function] L57-57 | def one()
    ");
}

#[test]
fn find_iter_and_definition() {
    let tree = parse(Lang::Python, APP);
    let run = tree.find("App.run").map(|s| s.kind);
    assert_eq!(run, Some(SymbolKind::Method));
    assert!(tree.find("run").is_none());
    assert_eq!(
        tree.definition(APP, "fetch").map(|d| d.lines().next()),
        Some(Some("@decorator")),
        "a decorated definition starts at its first decorator"
    );
    assert_eq!(tree.definition(APP, "one"), Some("def one(): return 1"));
    assert_eq!(tree.definition("short", "App"), None);
    let app = tree.find("App").map(|a| a.iter().count());
    assert_eq!(app, Some(7));
}

#[test]
fn skeleton_keeps_headers_docstrings_and_module_text() {
    let tree = parse(Lang::Python, APP);
    assert_snapshot!(skeleton(&tree, APP));
}

#[test]
fn outline_is_indented_by_nesting() {
    let tree = parse(Lang::Python, APP);
    assert_snapshot!(outline(&tree), @r"
    constant MAX_SIZE: MAX_SIZE = 10 (L7-7)
    constant _CACHE: _CACHE: dict = {} (L8-8)
    function fetch: async def fetch(url, timeout: float = 1.0) -> bytes (L13-19)
    function outer: def outer(x) (L22-25)
      function inner: def inner(y) (L23-24)
    class App: class App(Base) (L28-54)
      method run: def run(self, x: int) -> bool (L33-40)
      method stop: def stop(self) (L42-42)
      method size: def size(self) (L44-46)
      method size#2: def size(self, v) (L48-50)
      class Inner (L52-54)
        method deep: def deep(self) (L53-54)
    function one: def one() (L57-57)
    ");
}

#[test]
fn mask_def_everywhere_is_the_file() {
    assert_eq!(masked(Lang::Python, APP, Def, &[]), APP);
}

#[test]
fn mask_sig_everywhere_is_the_skeleton() {
    let tree = parse(Lang::Python, APP);
    assert_eq!(masked(Lang::Python, APP, Sig, &[]), skeleton(&tree, APP));
}

#[test]
fn mask_agg_folds_top_level_symbols_into_summary_lines() {
    assert_snapshot!(masked(Lang::Python, APP, Agg, &[]));
}

#[test]
fn mask_states_per_symbol_and_inherited_by_children() {
    let out = masked(
        Lang::Python,
        APP,
        Def,
        &[
            ("App", Sig),
            ("App.run", Def),
            ("App.Inner", Agg),
            ("App.size#2", Hide),
            ("fetch", Hide),
            ("outer", Agg),
            ("MAX_SIZE", Hide),
        ],
    );
    assert_snapshot!(out);
}

#[test]
fn hidden_parent_shows_its_visible_children() {
    let out = masked(Lang::Python, APP, Hide, &[("App.run", Def)]);
    assert_snapshot!(out, @r#"
    class App(Base):
        def run(self, x: int) -> bool:
            """Run the app.

            Long description.
            """
            if x:
                return True
            return False
    "#);
    let nested = masked(
        Lang::Python,
        APP,
        Hide,
        &[("App.Inner.deep", Sig), ("one", Def), ("App.stop", Agg)],
    );
    assert_snapshot!(nested, @r"
    class App(Base):
        def stop(self): ...  # 1 line

        class Inner:
            def deep(self):
                ...

    def one(): return 1
    ");
}

#[test]
fn a_class_left_without_statements_gets_an_ellipsis() {
    let src =
        "class A:\n    def f(self):\n        pass\n\n    def g(self):\n        pass\n\nx = 1\n";
    let out = masked(Lang::Python, src, Def, &[("A.f", Hide), ("A.g", Hide)]);
    assert_eq!(out, "class A: ...\n\nx = 1\n");
    let commented = "class A:\n    # keep me\n    def f(self):\n        pass\n";
    let out = masked(Lang::Python, commented, Def, &[("A.f", Hide)]);
    assert_eq!(out, "class A:\n    # keep me\n    ...\n");
}

#[test]
fn hiding_a_symbol_takes_its_lines_and_leading_comment() {
    let src = "import os\n\n\n# About f.\ndef f():\n    pass\n\n\ndef g():\n    pass\n";
    let out = masked(Lang::Python, src, Def, &[("f", Hide)]);
    assert_eq!(out, "import os\n\n\ndef g():\n    pass\n");
}

#[test]
fn skeleton_of_one_liners_and_docstring_only_bodies() {
    let src = "def a(): return 1\ndef b(): \"doc\"; return 2\ndef c():\n    '''Only doc.'''\nclass K: pass\nf = lambda: 1\n";
    let tree = parse(Lang::Python, src);
    assert_eq!(
        skeleton(&tree, src),
        "def a(): ...\ndef b(): \"doc\"; ...\ndef c():\n    '''Only doc.'''\nclass K: pass\nf = lambda: 1\n"
    );
}

/// Two statements joined by a `\` continuation are invalid Python, and
/// tree-sitter reads them with a missing hidden `_newline` that no cursor
/// yields: still an error, on the line where the second statement starts.
/// Found by `tests/fuzz_props.rs`, whose skeleton of such a file did not
/// parse.
#[test]
fn a_missing_hidden_newline_is_an_error() {
    let joined = "x = 1\nX = \"\"\"a\nb\"\"\" \\\nX = {\"k\": [1, 2], }\n";
    let tree = parse(Lang::Python, joined);
    assert!(tree.has_errors);
    assert_eq!(tree.error_line, Some(4));
    let valid = "X = \"\"\"a\nb\"\"\" \\\n    \"c\"\nY = 1\n";
    let tree = parse(Lang::Python, valid);
    assert!(!tree.has_errors, "{:?}", tree.error_line);
}
