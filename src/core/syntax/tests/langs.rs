//! The data-driven languages (Rust, TypeScript, TSX, JavaScript, Go,
//! Java, C#, Bash, PHP, Kotlin, Swift, Ruby, Lua, Markdown): golden symbols, skeleton and outline of one small fixture each
//! (`fixtures/`), skeletons that re-parse no worse than the original, and
//! the mask states on every symbol.

use insta::assert_snapshot;

use super::{listing, masked};
use crate::core::model::MaskState::{Agg, Def, Hide, Sig};
use crate::core::syntax::{Lang, outline, parse, skeleton};

/// Every fixture with its language.
const FIXTURES: [(Lang, &str, &str); 14] = [
    (Lang::Rust, "sample.rs", include_str!("fixtures/sample.rs")),
    (
        Lang::TypeScript,
        "sample.ts",
        include_str!("fixtures/sample.ts"),
    ),
    (Lang::Tsx, "sample.tsx", include_str!("fixtures/sample.tsx")),
    (
        Lang::JavaScript,
        "sample.js",
        include_str!("fixtures/sample.js"),
    ),
    (Lang::Go, "sample.go", include_str!("fixtures/sample.go")),
    (
        Lang::Java,
        "Sample.java",
        include_str!("fixtures/Sample.java"),
    ),
    (
        Lang::CSharp,
        "Sample.cs",
        include_str!("fixtures/Sample.cs"),
    ),
    (Lang::Bash, "sample.sh", include_str!("fixtures/sample.sh")),
    (Lang::Php, "sample.php", include_str!("fixtures/sample.php")),
    (
        Lang::Kotlin,
        "sample.kt",
        include_str!("fixtures/sample.kt"),
    ),
    (
        Lang::Swift,
        "Sample.swift",
        include_str!("fixtures/Sample.swift"),
    ),
    (Lang::Ruby, "sample.rb", include_str!("fixtures/sample.rb")),
    (Lang::Lua, "sample.lua", include_str!("fixtures/sample.lua")),
    (
        Lang::Markdown,
        "sample.md",
        include_str!("fixtures/sample.md"),
    ),
];

/// Symbols, outline and skeleton of one fixture, in one snapshot.
fn golden(lang: Lang) -> String {
    let (_, name, source) = fixture(lang);
    let tree = parse(lang, source);
    assert!(
        !tree.has_errors,
        "{name} parses with errors at {:?}",
        tree.error_line
    );
    format!(
        "module doc: {:?}\n\n# symbols\n{}\n# outline\n{}\n# skeleton\n{}",
        tree.module_doc,
        listing(&tree),
        outline(&tree),
        skeleton(&tree, source)
    )
}

fn fixture(lang: Lang) -> (Lang, &'static str, &'static str) {
    FIXTURES
        .into_iter()
        .find(|(l, _, _)| *l == lang)
        .unwrap_or_else(|| panic!("no fixture for {lang:?}"))
}

#[test]
fn rust_symbols_outline_skeleton() {
    assert_snapshot!(golden(Lang::Rust));
}

#[test]
fn typescript_symbols_outline_skeleton() {
    assert_snapshot!(golden(Lang::TypeScript));
}

#[test]
fn tsx_symbols_outline_skeleton() {
    assert_snapshot!(golden(Lang::Tsx));
}

#[test]
fn javascript_symbols_outline_skeleton() {
    assert_snapshot!(golden(Lang::JavaScript));
}

/// Issue 36: express's `module.exports = class Application extends
/// Emitter {` is a class named by its own name.
#[test]
fn a_class_expression_assigned_to_module_exports_is_a_class() {
    let src = "module.exports = class Application extends Emitter {\n  listen(port) {\n    return port;\n  }\n};\n";
    assert_eq!(
        paths_and_kinds(Lang::JavaScript, src),
        ["Application class", "Application.listen method"]
    );
}

/// Each symbol of `src` as "path kind", depth-first.
fn paths_and_kinds(lang: Lang, src: &str) -> Vec<String> {
    crate::core::syntax::parse(lang, src)
        .iter()
        .map(|s| format!("{} {}", s.path, s.kind.as_str()))
        .collect()
}

/// Issue 35: TanStack's `export const focusManager = new FocusManager()`
/// is the name the rest of the code imports: a constant symbol, in
/// TypeScript and JavaScript, exported or not; a value that is no `new`
/// (`const n = 3`) or a built-in collection (`new Set([...])`, a data
/// table that only lengthened outlines) stays none.
#[test]
fn a_module_singleton_made_with_new_is_a_constant() {
    let src = "export class FocusManager {}\n\
               export const focusManager = new FocusManager()\n\
               const cache = new QueryCache()\n\
               const names = new Set(['a', 'b'])\n\
               export const seen = new WeakMap()\n\
               const n = 3\n\
               function f() {\n  const inner = new Map()\n  return inner\n}\n";
    for lang in [Lang::TypeScript, Lang::JavaScript] {
        assert_eq!(
            paths_and_kinds(lang, src),
            [
                "FocusManager class",
                "focusManager constant",
                "cache constant",
                "f function"
            ],
            "{lang:?}"
        );
    }
}

#[test]
fn go_symbols_outline_skeleton() {
    assert_snapshot!(golden(Lang::Go));
}

#[test]
fn java_symbols_outline_skeleton() {
    assert_snapshot!(golden(Lang::Java));
}

#[test]
fn csharp_symbols_outline_skeleton() {
    assert_snapshot!(golden(Lang::CSharp));
}

#[test]
fn bash_symbols_outline_skeleton() {
    assert_snapshot!(golden(Lang::Bash));
}

#[test]
fn php_symbols_outline_skeleton() {
    assert_snapshot!(golden(Lang::Php));
}

#[test]
fn kotlin_symbols_outline_skeleton() {
    assert_snapshot!(golden(Lang::Kotlin));
}

#[test]
fn swift_symbols_outline_skeleton() {
    assert_snapshot!(golden(Lang::Swift));
}

#[test]
fn ruby_symbols_outline_skeleton() {
    assert_snapshot!(golden(Lang::Ruby));
}

#[test]
fn lua_symbols_outline_skeleton() {
    assert_snapshot!(golden(Lang::Lua));
}

#[test]
fn markdown_symbols_outline_skeleton() {
    assert_snapshot!(golden(Lang::Markdown));
}

#[test]
fn languages_by_extension_and_shebang() {
    assert_eq!(Lang::from_path("src/lib.rs"), Some(Lang::Rust));
    assert_eq!(Lang::from_path("a.d.ts"), Some(Lang::TypeScript));
    assert_eq!(Lang::from_path("App.tsx"), Some(Lang::Tsx));
    for ext in ["js", "jsx", "mjs", "cjs"] {
        assert_eq!(Lang::from_path(&format!("x.{ext}")), Some(Lang::JavaScript));
    }
    assert_eq!(Lang::from_path("main.go"), Some(Lang::Go));
    assert_eq!(Lang::from_path("A.java"), Some(Lang::Java));
    assert_eq!(Lang::from_path("dir.rs/README"), None);
    assert_eq!(
        Lang::detect("bin/cli", "#!/usr/bin/env node\nmain();\n"),
        Some(Lang::JavaScript)
    );
    assert_eq!(
        Lang::detect("tool", "#!/usr/bin/python3 -u\n"),
        Some(Lang::Python)
    );
    assert_eq!(Lang::detect("notes", "just text\n"), None);
    assert_eq!(Lang::detect("ci/run", "#!/bin/bash -e\n"), Some(Lang::Bash));
    assert_eq!(Lang::from_path("Program.cs"), Some(Lang::CSharp));
    assert_eq!(Lang::from_path("Main.kt"), Some(Lang::Kotlin));
    assert_eq!(Lang::from_path("build.gradle.kts"), Some(Lang::Kotlin));
    assert_eq!(Lang::from_path("App.swift"), Some(Lang::Swift));
    assert_eq!(
        Lang::detect("script", "#!/usr/bin/env kotlin\n"),
        Some(Lang::Kotlin)
    );
    for lang in Lang::all() {
        assert_eq!(Lang::all().nth(lang as usize), Some(lang), "row order");
    }
}

#[test]
fn skeletons_reparse_no_worse_and_are_smaller() {
    let mut broken = Vec::new();
    for (lang, name, source) in FIXTURES {
        let tree = parse(lang, source);
        let skeleton = skeleton(&tree, source);
        assert!(
            skeleton.len() < source.len(),
            "{name}: skeleton not smaller"
        );
        let again = parse(lang, &skeleton);
        if again.has_errors {
            broken.push(format!("{name}: line {:?}", again.error_line));
        }
        let before: Vec<&str> = tree.iter().map(|s| s.path.as_str()).collect();
        let after: Vec<&str> = again.iter().map(|s| s.path.as_str()).collect();
        // Nested functions vanish with their parent's body; the rest stays.
        for path in &after {
            assert!(before.contains(path), "{name}: {path} appeared");
        }
    }
    assert!(
        broken.is_empty(),
        "skeletons with syntax errors: {broken:?}"
    );
}

#[test]
fn masks_def_is_the_file_and_sig_is_the_skeleton() {
    for (lang, name, source) in FIXTURES {
        let tree = parse(lang, source);
        assert_eq!(masked(lang, source, Def, &[]), source, "{name}: def");
        assert_eq!(
            masked(lang, source, Sig, &[]),
            skeleton(&tree, source),
            "{name}: sig"
        );
        // Hiding everything leaves no symbol behind.
        let hidden = masked(lang, source, Hide, &[]);
        let again = parse(lang, &hidden);
        assert_eq!(again.iter().count(), 0, "{name}: hide left {hidden}");
    }
}

#[test]
fn rust_masks_per_symbol() {
    let (_, _, source) = fixture(Lang::Rust);
    let out = masked(
        Lang::Rust,
        source,
        Hide,
        &[
            ("impl Point::dist", Sig),
            ("Area", Agg),
            ("impl fmt::Display for Point", Def),
        ],
    );
    assert_snapshot!(out);
}

/// Rust items of an `impl` block read as people write them, their old
/// paths (`impl Point::dist`) still name them, in a mask too, and the
/// spellings a person types find them.
#[test]
fn rust_paths_are_what_people_write_and_old_ones_still_mask() {
    let (_, _, source) = fixture(Lang::Rust);
    let tree = parse(Lang::Rust, source);
    let methods: Vec<(&str, Option<&str>)> = tree
        .iter()
        .filter(|s| s.kind == crate::core::syntax::SymbolKind::Method)
        .map(|s| (s.path.as_str(), s.legacy.as_deref()))
        .collect();
    assert_eq!(
        methods,
        [
            ("Area::area", None),
            ("Area::double", None),
            ("Point::origin", Some("impl Point::origin")),
            ("Point::dist", Some("impl Point::dist")),
            ("<Shape as Area>::area", Some("impl Area for Shape::area")),
            (
                "<Point as fmt::Display>::fmt",
                Some("impl fmt::Display for Point::fmt")
            ),
        ]
    );
    let resolved = |typed: &str| tree.resolve(typed).map(|s| s.path.as_str());
    for (typed, path) in [
        ("Point::dist", "Point::dist"),
        ("impl Point::dist", "Point::dist"),
        ("Point.dist", "Point::dist"),
        (" Point::dist ", "Point::dist"),
        ("Shape::area", "<Shape as Area>::area"),
        ("Point::fmt", "<Point as fmt::Display>::fmt"),
        (
            "impl fmt::Display for Point::fmt",
            "<Point as fmt::Display>::fmt",
        ),
        ("impl Point", "impl Point"),
    ] {
        assert_eq!(resolved(typed), Some(path), "{typed}");
    }
    // `area` is a method of the trait and of its impl: no guess.
    assert_eq!(resolved("area"), None);
    assert_eq!(resolved("Point::nope"), None);
    // A mask written with the old paths shows what the new ones show.
    let old = masked(
        Lang::Rust,
        source,
        Hide,
        &[
            ("impl Point::dist", Sig),
            ("impl fmt::Display for Point::fmt", Def),
        ],
    );
    let new = masked(
        Lang::Rust,
        source,
        Hide,
        &[("Point::dist", Sig), ("<Point as fmt::Display>::fmt", Def)],
    );
    assert_eq!(old, new);
    assert!(
        old.contains("pub fn dist(&self, other: &Point) -> f64"),
        "{old}"
    );
    assert!(old.contains("write!(f"), "{old}");
}

/// Items of generic and nested `impl` blocks: the type without its
/// arguments, the trait as written, the module's scope kept; a second
/// block of the same type numbers what repeats.
#[test]
fn rust_paths_of_generic_and_nested_impls() {
    let source = "\
mod store {
    pub struct Wrapper<T>(T);
    impl<T> Wrapper<T> {
        pub fn new(t: T) -> Self { Wrapper(t) }
    }
    impl Wrapper<u8> {
        pub fn new() -> Self { Wrapper(0) }
    }
    impl<T> From<T> for Wrapper<T> {
        fn from(t: T) -> Self { Wrapper(t) }
    }
}
";
    let tree = parse(Lang::Rust, source);
    let paths: Vec<(&str, Option<&str>)> = tree
        .iter()
        .map(|s| (s.path.as_str(), s.legacy.as_deref()))
        .collect();
    assert_eq!(
        paths,
        [
            ("store", None),
            ("store::Wrapper", None),
            ("store::impl Wrapper<T>", None),
            ("store::Wrapper::new", Some("store::impl Wrapper<T>::new")),
            ("store::impl Wrapper<u8>", None),
            (
                "store::Wrapper::new#2",
                Some("store::impl Wrapper<u8>::new")
            ),
            ("store::impl From<T> for Wrapper<T>", None),
            (
                "store::<Wrapper as From<T>>::from",
                Some("store::impl From<T> for Wrapper<T>::from")
            ),
        ]
    );
    let found = |typed: &str| tree.resolve(typed).map(|s| s.path.as_str());
    assert_eq!(
        found("store::Wrapper::from"),
        Some("store::<Wrapper as From<T>>::from")
    );
    assert_eq!(
        found("store::impl Wrapper<u8>::new"),
        Some("store::Wrapper::new#2")
    );
}

/// Go methods show their receiver and TypeScript overloads their number
/// where a list of symbols names them (the symbols pane).
#[test]
fn display_names_say_the_receiver_and_the_overload() {
    let names = |lang: Lang| -> Vec<String> {
        let (_, _, source) = fixture(lang);
        let tree = parse(lang, source);
        tree.symbols.iter().map(|s| s.display_name(true)).collect()
    };
    let go = names(Lang::Go);
    assert!(go.contains(&"Circle.Area".to_string()), "{go:?}");
    assert!(go.contains(&"Circle.Perimeter".to_string()), "{go:?}");
    assert!(go.contains(&"Describe".to_string()), "{go:?}");
    let ts = names(Lang::TypeScript);
    let overloads: Vec<&String> = ts.iter().filter(|n| n.starts_with("overload")).collect();
    assert_eq!(
        overloads,
        ["overload", "overload#2", "overload#3"],
        "{ts:?}"
    );
    let rust = names(Lang::Rust);
    assert!(rust.contains(&"Point".to_string()), "{rust:?}");
}

#[test]
fn typescript_masks_per_symbol() {
    let (_, _, source) = fixture(Lang::TypeScript);
    let out = masked(
        Lang::TypeScript,
        source,
        Agg,
        &[("Store", Sig), ("Store.add", Def), ("load", Hide)],
    );
    assert_snapshot!(out);
}

#[test]
fn ruby_masks_per_symbol() {
    let (_, _, source) = fixture(Lang::Ruby);
    let out = masked(
        Lang::Ruby,
        source,
        Hide,
        &[
            ("Geometry::Shape#initialize", Sig),
            ("Geometry::Circle", Agg),
            ("Geometry::Shape.unit", Def),
            ("main", Agg),
        ],
    );
    assert_snapshot!(out);
}

#[test]
fn lua_masks_per_symbol() {
    let (_, _, source) = fixture(Lang::Lua);
    let out = masked(
        Lang::Lua,
        source,
        Sig,
        &[
            ("M.circle_area", Agg),
            ("Shape:describe", Def),
            ("helper", Hide),
            ("M.square", Agg),
        ],
    );
    assert_snapshot!(out);
}

#[test]
fn markdown_sections_mask_to_their_heading_or_away() {
    let (_, _, source) = fixture(Lang::Markdown);
    let out = masked(
        Lang::Markdown,
        source,
        Def,
        &[
            ("ctxcurate > Install", Sig),
            ("ctxcurate > Keys", Agg),
            ("ctxcurate > Licence", Hide),
        ],
    );
    assert_snapshot!(out);
}

/// An HTML comment in a heading (`## Usage <!-- omit in toc -->`, as
/// table-of-contents tools write it, or the `agg` fold's line count) is
/// not part of its name; one inside a code span is.
#[test]
fn markdown_heading_names_leave_out_html_comments() {
    let source = "# Usage <!-- omit in toc -->\n\ntext\n\n## The `<!-- x -->` marker\n\nmore\n\n## <!-- only -->\n\n## Old <!-- a --> new ##\n";
    let tree = parse(Lang::Markdown, source);
    let paths: Vec<&str> = tree.iter().map(|s| s.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "Usage",
            "Usage > The `<!-- x -->` marker",
            "Usage > <!-- only -->",
            "Usage > Old new",
        ]
    );
}

#[test]
fn markdown_headings_in_code_quotes_and_lists_are_no_sections() {
    let source = "# A\n\n```md\n# not a heading\n```\n\n    # indented code\n\n> # quoted\n\n- # listed\n\n## B ##\n\nText.\n\nC\n=\n";
    let tree = parse(Lang::Markdown, source);
    assert_eq!(
        listing(&tree),
        "A [section] L1-15 | # A\nA > B [section] L13-15 | ## B\nC [section] L17-18 | # C\n"
    );
}

#[test]
fn ruby_and_lua_by_name_and_shebang() {
    assert_eq!(Lang::from_path("lib/rack.rb"), Some(Lang::Ruby));
    assert_eq!(Lang::from_path("Rakefile"), Some(Lang::Ruby));
    assert_eq!(Lang::from_path("x/Gemfile"), Some(Lang::Ruby));
    assert_eq!(Lang::from_path("a.gemspec"), Some(Lang::Ruby));
    assert_eq!(Lang::from_path("tasks/build.rake"), Some(Lang::Ruby));
    assert_eq!(
        Lang::detect("bin/rackup", "#!/usr/bin/env ruby\n"),
        Some(Lang::Ruby)
    );
    assert_eq!(Lang::detect("Gemfile", "source 'x'\n"), Some(Lang::Ruby));
    assert_eq!(Lang::from_path("init.lua"), Some(Lang::Lua));
    assert_eq!(
        Lang::detect("bin/busted", "#!/usr/bin/env lua5.1\n"),
        Some(Lang::Lua)
    );
    assert_eq!(Lang::from_path("README.md"), Some(Lang::Markdown));
    assert!(!Lang::Markdown.is_code() && Lang::Ruby.is_code());
}

#[test]
fn markdown_skeleton_keeps_a_final_heading_readable() {
    // tree-sitter-md reads a heading without a line break at the very end
    // as an error: the skeleton keeps the heading's own.
    for (source, want) in [
        ("# A\n\nText.", "# A\n"),
        ("# A\n\nText.\n", "# A\n"),
        ("# A\nText.\n## B\n\nMore.\n", "# A\n## B\n"),
        ("Title\n=====\n\nText.\n", "Title\n=====\n"),
        // Found by the `views` fuzz target: blanks after the last text
        // (no line break) took the heading's line break away.
        ("# A\n\nText. ", "# A\n"),
        ("# A\n\n```\nopen fence\n\n## B\n\nText \t", "# A\n"),
    ] {
        let tree = parse(Lang::Markdown, source);
        let skeleton = skeleton(&tree, source);
        assert_eq!(skeleton, want, "{source:?}");
        assert!(!parse(Lang::Markdown, &skeleton).has_errors, "{source:?}");
    }
}

#[test]
fn ruby_bodies_with_a_comment_on_the_last_line_are_elided_and_one_liners_kept() {
    let source = "def f(a)\n  a + 1 # add\nend\n\ndef g; 1; end\n\ndef h(x) = x\n";
    let tree = parse(Lang::Ruby, source);
    let skeleton = skeleton(&tree, source);
    // The comment after the last statement is inside the body.
    assert_eq!(
        skeleton,
        "def f(a)\n  # ...\nend\n\ndef g; 1; end\n\ndef h(x) = x\n"
    );
    assert!(!parse(Lang::Ruby, &skeleton).has_errors);
}

/// Found by the `views` fuzz target: Bash folded a function under `agg`
/// into `clean() { /* 3 lines */ }`, and the shell has no `/* */`
/// comments; Markdown's `agg` heading `### From source <!-- 2 lines -->`
/// read back as a heading of that name. Every language's masked view of
/// a clean file re-parses clean, with no symbol the file did not have,
/// under each default state.
#[test]
fn masked_views_of_every_fixture_reparse_without_errors() {
    let mut broken = Vec::new();
    for (lang, name, source) in FIXTURES {
        assert!(!parse(lang, source).has_errors, "{name} has errors");
        for state in [Agg, Sig, Hide] {
            let out = masked(lang, source, state, &[]);
            let again = parse(lang, &out);
            if again.has_errors {
                broken.push(format!(
                    "{name} {state}: line {:?}\n{out}",
                    again.error_line
                ));
            }
            let before: Vec<String> = parse(lang, source).iter().map(|s| s.path.clone()).collect();
            for s in again.iter() {
                if !before.contains(&s.path) {
                    broken.push(format!("{name} {state}: {} appeared\n{out}", s.path));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "masked views with syntax errors or new symbols: {broken:#?}"
    );
    let source = "# Remove what's built.\nclean() (\n  rm -rf target\n)\nclean\n";
    assert_eq!(
        masked(Lang::Bash, source, Agg, &[]),
        "clean() { : 'Remove what'\\''s built. (3 lines)'; }\nclean\n"
    );
}

/// Found by the `views` fuzz target on the Go fixture: with `hide` the
/// default, a type shown out of a `type ( … )` group lost its `type` with
/// the group's text (`\tMeters float64`, a syntax error); it is written
/// as the declaration it stands for.
#[test]
fn go_types_shown_out_of_a_group_keep_their_keyword() {
    let source = "package p\n\ntype (\n\t// Meters is a length.\n\tMeters float64\n\tAlias  = Meters\n\tP struct {\n\t\tX int\n\t}\n)\n";
    let out = masked(
        Lang::Go,
        source,
        Hide,
        &[("Meters", Def), ("Alias", Sig), ("P", Agg)],
    );
    assert_eq!(
        out,
        "// Meters is a length.\ntype Meters float64\n\ntype Alias  = Meters\n\ntype P struct { /* 3 lines */ }\n"
    );
    assert!(!parse(Lang::Go, &out).has_errors, "{out}");
}

#[test]
fn agg_folds_every_ruby_and_lua_definition_into_a_line_that_parses() {
    for (lang, name, source) in FIXTURES {
        if !matches!(lang, Lang::Ruby | Lang::Lua) {
            continue;
        }
        let folded = masked(lang, source, Agg, &[]);
        let again = parse(lang, &folded);
        assert!(!again.has_errors, "{name}: {folded}");
        for s in again.iter() {
            assert_eq!(
                s.start_line, s.end_line,
                "{name}: {} spans lines in {folded}",
                s.path
            );
        }
    }
    let empty = "class A
  def empty?
  end
end
";
    assert_eq!(
        masked(Lang::Ruby, empty, Sig, &[("A#empty?", Agg)]),
        "class A\n  def empty?; end  # 2 lines\nend\n"
    );
}
