//! The layering docs/ARCHITECTURE.md ("Invariants") asks for, checked on the source: the core knows
//! nothing of terminals or of the TUI.

use std::path::Path;

use crate::common::source::rust_files;

#[test]
fn the_core_imports_no_terminal_crate_and_no_tui() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core");
    let mut files = Vec::new();
    files.extend(rust_files(&core));
    assert!(files.len() > 10, "found the core's files");
    // The shared text rules (`src/text`) are used by the core: same bar.
    let text = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/text");
    let before = files.len();
    files.extend(rust_files(&text));
    assert!(files.len() > before, "found the text module's files");
    let forbidden = [
        "ratatui",
        "crossterm",
        "arboard",
        "tui_tree_widget",
        "crate::tui",
    ];
    let mut offences = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            for name in forbidden {
                if code.contains(&format!("{name}::")) || code.contains(&format!("use {name}")) {
                    offences.push(format!("{}:{}: {line}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(
        offences.is_empty(),
        "terminal code in the core:\n{}",
        offences.join("\n")
    );
}

/// Every line the CLI prints goes through `ctx.out` / `ctx.err`, which
/// `main` wraps in the terminal-safe writer (`text::terminal`): a direct
/// `println!` or a fresh `stdout()` would bypass the escaping.
#[test]
fn the_cli_prints_only_through_the_terminal_safe_writer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    files.extend(rust_files(&src.join("cli")));
    assert!(files.len() > 3, "found the CLI's files");
    files.push(src.join("main.rs"));
    let mut offences = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let is_main = file.ends_with("main.rs");
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            let direct = ["println!", "eprintln!", "print!(", "eprint!(", "dbg!("]
                .iter()
                .any(|m| code.contains(m));
            // `main` opens the two streams once, to wrap them.
            let raw_stream = !is_main && (code.contains("stdout()") || code.contains("stderr()"));
            if direct || raw_stream {
                offences.push(format!("{}:{}: {line}", file.display(), n + 1));
            }
        }
    }
    assert!(
        offences.is_empty(),
        "CLI output that bypasses the terminal-safe writer:\n{}",
        offences.join("\n")
    );
}

// ---------------------------------------------------------------------------
// The layer table.

/// A node of the layer table: a module below `crate::`, and what it is. It
/// holds its own module and every module under it that is not a node
/// itself (`core::discovery::pack` holds `pack/report.rs`).
type Node = (&'static str, &'static str);

/// The layers of one part of the crate, top first; each row holds the
/// nodes of one layer.
type Table = &'static [&'static [Node]];

/// The crate's layers, top first, one table per part. A module imports
/// only from the rows below its own: a node never names one in its own row
/// or in a row above it, so the modules form no cycle and nothing low
/// reaches up. The TUI sits over the core, and both over `text`. A new
/// module needs a row: `core`, `tui` and `text` hold only their own file
/// (the list of their modules). Unit tests (`#[cfg(test)]` modules) are
/// not layered: a test may build its input with the modules above.
///
/// docs/ARCHITECTURE.md shows these tables; after a change, run
/// `CTXCURATE_BLESS=1 cargo test --test integration -- architecture` to redraw it.
const TABLES: &[(&str, Table)] = &[("src/tui", TUI), ("src/core", CORE), ("src/text", TEXT)];

/// The TUI, top first: the event loop over `update`, `update` over the
/// handlers (keys of each feature), every handler over all drawing (a
/// frame is a function of the state: drawing calls no handler), and the
/// state and plain data at the bottom.
#[rustfmt::skip]
const TUI: Table = &[
    &[
        ("tui", "the TUI's module list and `run`"),
        ("tui::input", "the input's module list"),
        ("tui::run", "the running app's module list"),
        ("tui::finder", "the finder's module list"),
        ("tui::symbols", "the symbols pane's module list"),
        ("tui::tree", "the tree pane's module list"),
    ],
    &[
        ("tui::run::harness", "the headless driver the tests use"),
    ],
    &[
        ("tui::run::app", "the event loop: terminal, threads, named steps"),
    ],
    &[
        ("tui::run::effects", "the one effect interpreter"),
    ],
    &[
        ("tui::update", "events to named handlers: the one place the state changes"),
    ],
    &[
        ("tui::update::actions", "the action table's handlers"),
        ("tui::update::mouse", "clicks and the wheel"),
    ],
    &[
        ("tui::overlays", "keys while an overlay is open"),
    ],
    &[
        ("tui::overlays::picker", "the preset picker"),
        ("tui::discover", "discovery: targets, proposals, accept"),
        ("tui::live", "files and state changed on disk: patch the walk, follow"),
        ("tui::finder::keys", "the finder overlay's keys"),
        ("tui::tokens::keys", "the tokens overlay's keys"),
        ("tui::preview::raw", "the preview's raw-text view"),
        ("tui::help::keys", "the help overlay's keys"),
    ],
    &[
        ("tui::navigate", "movement in the panes; what follows the cursor"),
        ("tui::symbols::filter", "the symbols pane's filter (`/`)"),
    ],
    &[
        ("tui::changed", "files changed in git, marked and included"),
        ("tui::curate", "curation keys, as core edits"),
        ("tui::discuss", "screenshots, discussion and task"),
        ("tui::preview::follow", "the preview follows the user"),
        ("tui::undo::list", "the history as a list: jump to a step"),
    ],
    &[
        ("tui::undo", "an edit becomes an undo step, a save, a recompose"),
        ("tui::run::dispatch", "terminal keys to events, through the keymap"),
    ],
    &[
        ("tui::render", "drawing: lays out the frame and picks the overlay"),
    ],
    &[
        ("tui::overlays::render", "drawing: picker, prompts, questions"),
        ("tui::preview::render", "drawing: the preview pane"),
        ("tui::tokens::render", "drawing: the tokens overlay"),
    ],
    &[
        ("tui::finder::render", "drawing: the finder overlay"),
        ("tui::help::render", "drawing: the help overlay"),
        ("tui::undo::render", "drawing: the history's list"),
        ("tui::symbols::render", "drawing: the symbols pane"),
        ("tui::tree::render", "drawing: the tree pane"),
        ("tui::render::status", "drawing: the gauge and the status line"),
        ("tui::draw::layout", "where the panes go"),
    ],
    &[
        ("tui::preview", "what the preview shows"),
        ("tui::tokens", "the numbers the tokens overlay shows"),
        ("tui::update::scope", "the panes each action works in"),
    ],
    &[
        ("tui::state", "the whole state, in parts"),
        ("tui::help", "the help's text"),
        ("tui::run::jobs", "the worker's jobs: requests to core::engine"),
    ],
    &[
        ("tui::state::composition", "the composition and the gauge"),
        ("tui::messages", "Event, Effect and Job"),
        ("tui::input::keymap", "keys to actions, with the user's overrides"),
        ("tui::state::symbols", "the symbols pane's list"),
        ("tui::state::preview", "the preview pane's state"),
    ],
    &[
        ("tui::input::action", "the table of every user action"),
        ("tui::draw", "shared drawing helpers"),
        ("tui::draw::format", "compact numbers"),
        ("tui::clipboard", "copying out: system clipboard, OSC 52"),
        ("tui::state::finder", "the fuzzy matcher"),
        ("tui::state::tree", "the file tree"),
        ("tui::state::clock", "the TUI's \"now\""),
        ("tui::state::model", "plain data the jobs send back"),
        ("tui::state::walked", "the walk and the preset's resolution"),
        ("tui::run::editor", "the user's own editor"),
        ("tui::project_sync", "keeping ctxcurate.toml in step"),
        ("tui::run::signals", "termination signals"),
        ("tui::state::history", "the undo and redo stacks"),
        ("tui::state::proposal", "what a discovery proposes"),
        ("tui::state::marks", "the changed files marked in the tree"),
        ("tui::state::totals", "the presets' token totals"),
        ("tui::state::screen", "the terminal as the panes see it"),
    ],
];

/// The core: the composition and discovery that the front ends call on
/// top, the per-file engine (`sources`) in the middle, and the rules it is
/// made of (the walk, syntax, tokens, the model, paths) at the bottom.
#[rustfmt::skip]
const CORE: Table = &[
    &[
        ("core", "the core's module list"),
        ("core::discovery", "discovery's module list"),
    ],
    &[
        ("core::engine", "the use cases: build, pack and save a request in a workspace"),
    ],
    &[
        ("core::discovery::context", "what a preset composes to, with its repo map"),
        ("core::git", "changed files and diffs, from the git command"),
        ("core::token_map", "where a composition's tokens go"),
    ],
    &[
        ("core::secrets", "the Scanner: findings in a composition or a pack, by place"),
    ],
    &[
        ("core::discovery::pack", "fills a token budget from targets and their imports"),
    ],
    &[
        ("core::compose", "a preset's files, screenshots and discussion into one text"),
    ],
    &[
        ("core::discovery::repo_map", "the project's files in rank order, outlined"),
        ("core::discovery::relevance", "every file scored for a task, with its reasons"),
    ],
    &[
        ("core::discovery::graph", "the ranked import graph"),
        ("core::discovery::mentions", "the files a task names"),
        ("core::project", "the project: its file, settings and preset operations"),
        ("core::symbol_costs", "each symbol's cost in tokens, kept per content"),
    ],
    &[
        ("core::sources", "the per-file engine: read, parse, render, summarise, count"),
    ],
    &[
        ("core::views", "one file's text in, the text the model sees out"),
    ],
    &[
        ("core::summary", "the summary view: built-in or a consented command"),
    ],
    &[
        ("core::anchor", "anchored slices found again in a changed file"),
        ("core::curation", "every edit of a preset, as pure functions"),
        ("core::discovery::exclusions", "what discovery must leave out"),
        ("core::store", "the sealed on-disk store under .ctxcurate/cache"),
        ("core::trust", "which settings a project file may set, and consent"),
        ("core::watch", "which files changed on disk, gathered and bounded"),
    ],
    &[
        ("core::syntax", "tree-sitter symbols, skeletons and masks"),
        ("core::tokens", "exact token counts"),
        ("core::walk", "which files a composition may see"),
        ("core::module_maps", "where a project's configs send its imports; the standard libraries' names"),
    ],
    &[
        ("core::io_bounds", "reads that cannot hang or flood"),
        ("core::lru", "a map bounded by bytes"),
        ("core::memory", "giving memory back to the kernel"),
        ("core::model", "the data model, as stored in ctxcurate.toml"),
        ("core::paths", "the root, state dirs, and keeping reads and writes inside"),
        ("core::pretokens", "o200k's pre-tokenizer, by hand"),
        ("core::profile", "a build's phases timed, for the benchmarks"),
        ("core::progress", "counters a long core call bumps"),
        ("core::secret_scan", "likely secrets in one text, by the rules"),
    ],
];

/// Text rules every part shares.
#[rustfmt::skip]
const TEXT: Table = &[
    &[
        ("text", "error chains, and the module list"),
    ],
    &[
        ("text::terminal", "the CLI's terminal-safe writer"),
    ],
    &[
        ("text::sanitize", "file text made safe to show"),
    ],
    &[
        ("text::invisible", "the invisible characters (generated)"),
        ("text::words", "numbers and counted nouns"),
    ],
];

/// Imports the table allows against its order, each a debt with the change
/// that pays it: (file, node it imports, why).
const EXCEPTIONS: &[(&str, &str, &str)] = &[];

/// The crate's parts the table covers.
const ROOTS: &[&str] = &["core", "text", "tui"];

// ---------------------------------------------------------------------------
// The import graph, read from the source.

/// One token of code: an identifier (or number), `::`, or one other
/// character, with its line.
struct Tok {
    text: String,
    line: usize,
}

impl Tok {
    fn is(&self, s: &str) -> bool {
        self.text == s
    }
    fn is_ident(&self) -> bool {
        self.text
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    }
}

/// `src` with comments and the contents of string and char literals blanked
/// (newlines kept, so line numbers hold): braces and paths in them are not
/// code.
fn code_only(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let ident = |i: usize| c.get(i).is_some_and(|c| c.is_alphanumeric() || *c == '_');
    let mut out = String::with_capacity(src.len());
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < c.len() {
        let starts_raw = c[i] == 'r'
            && (i == 0 || !ident(i - 1) || (c[i - 1] == 'b' && (i < 2 || !ident(i - 2))))
            && {
                let mut j = i + 1;
                while c.get(j) == Some(&'#') {
                    j += 1;
                }
                c.get(j) == Some(&'"')
            };
        if c[i] == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                blank(&mut out, c[i]);
                i += 1;
            }
        } else if c[i] == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
        } else if starts_raw {
            out.push('r');
            i += 1;
            let mut hashes = 0;
            while c[i] == '#' {
                hashes += 1;
                out.push('#');
                i += 1;
            }
            out.push('"');
            i += 1;
            let closes = |i: usize| c[i] == '"' && (1..=hashes).all(|k| c.get(i + k) == Some(&'#'));
            while i < c.len() && !closes(i) {
                blank(&mut out, c[i]);
                i += 1;
            }
            for _ in 0..=hashes {
                if i < c.len() {
                    out.push(c[i]);
                    i += 1;
                }
            }
        } else if c[i] == '"' {
            out.push('"');
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    blank(&mut out, c[i]);
                    i += 1;
                }
                if i < c.len() {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
            if i < c.len() {
                out.push('"');
                i += 1;
            }
        } else if c[i] == '\'' && (c.get(i + 1) == Some(&'\\') || c.get(i + 2) == Some(&'\'')) {
            // A char literal (a lifetime has no closing quote two along).
            out.push('\'');
            i += 1;
            while i < c.len() && c[i] != '\'' {
                if c[i] == '\\' {
                    blank(&mut out, c[i]);
                    i += 1;
                }
                if i < c.len() {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
            if i < c.len() {
                out.push('\'');
                i += 1;
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn tokens(code: &str) -> Vec<Tok> {
    let mut toks = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let c: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < c.len() {
            if c[i].is_whitespace() {
                i += 1;
            } else if c[i].is_alphanumeric() || c[i] == '_' {
                let start = i;
                while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                    i += 1;
                }
                let text = c[start..i].iter().collect();
                toks.push(Tok { text, line: n + 1 });
            } else if c[i] == ':' && c.get(i + 1) == Some(&':') {
                toks.push(Tok {
                    text: "::".into(),
                    line: n + 1,
                });
                i += 2;
            } else {
                toks.push(Tok {
                    text: c[i].to_string(),
                    line: n + 1,
                });
                i += 1;
            }
        }
    }
    toks
}

/// One path a use tree names: its segments, the line of its last segment,
/// and the name it binds (none for a glob or `as _`).
struct Named {
    path: Vec<String>,
    line: usize,
    binds: Option<String>,
}

/// The paths the use tree (or plain path) at `t[i..]` names, and the index
/// after it: `a::b::{c, d::{self, E as F}, *}` names `a::b::c`, `a::b::d`,
/// `a::b::d::E` (bound as `F`) and `a::b` (a glob).
fn use_tree(t: &[Tok], mut i: usize) -> (Vec<Named>, usize) {
    let mut prefix: Vec<String> = Vec::new();
    let mut line = t.get(i).map_or(0, |t| t.line);
    loop {
        match t.get(i) {
            Some(tok) if tok.is_ident() && tok.text != "as" => {
                prefix.push(tok.text.clone());
                line = tok.line;
                i += 1;
            }
            Some(tok) if tok.is("{") => {
                i += 1;
                let mut out = Vec::new();
                while let Some(tok) = t.get(i) {
                    if tok.is("}") {
                        i += 1;
                        break;
                    }
                    let (inner, next) = use_tree(t, i);
                    i = if next == i { i + 1 } else { next };
                    for mut named in inner {
                        if named.path.first().is_some_and(|s| s == "self") {
                            named.path.remove(0);
                            if named.binds.as_deref() == Some("self") {
                                named.binds = prefix.last().cloned();
                            }
                        }
                        let mut path = prefix.clone();
                        path.append(&mut named.path);
                        out.push(Named { path, ..named });
                    }
                }
                return (out, i);
            }
            Some(tok) if tok.is("*") => {
                return (
                    vec![Named {
                        path: prefix,
                        line,
                        binds: None,
                    }],
                    i + 1,
                );
            }
            _ => break,
        }
        if t.get(i).is_some_and(|t| t.is("::")) {
            i += 1;
        } else {
            break;
        }
    }
    if prefix.is_empty() {
        return (Vec::new(), i);
    }
    let mut binds = prefix.last().cloned();
    if t.get(i).is_some_and(|t| t.is("as")) {
        binds = t.get(i + 1).map(|t| t.text.clone()).filter(|n| n != "_");
        i += 2;
    }
    (
        vec![Named {
            path: prefix,
            line,
            binds,
        }],
        i,
    )
}

/// An import read from a file: the module path it names (below `crate::`)
/// and the line naming it.
struct Import {
    path: Vec<String>,
    line: usize,
    /// Named by a `use` declaration that binds a name (not a glob).
    binds: bool,
}

/// What the path reader takes from one file.
#[derive(Default)]
struct Read {
    /// The paths into the crate the file's code names.
    imports: Vec<Import>,
    /// Its child modules compiled only for tests (`#[cfg(test)] mod tests;`).
    test_children: Vec<Vec<String>>,
    /// The names its own scope binds by `use` (outside test code), to the
    /// paths they name: a path through one leads on (a re-export).
    uses: std::collections::BTreeMap<String, Vec<String>>,
}

/// Whether the item whose keyword is `t[i]` (`mod`) is compiled only for
/// tests: an attribute before it, such as `#[cfg(test)]` or
/// `#[cfg(all(test, unix))]`, names `cfg` and `test`.
fn only_for_tests(t: &[Tok], i: usize) -> bool {
    let mut j = i;
    // `pub`, `pub(crate)`, `pub(super)`.
    while j > 0 && ["pub", "crate", "super", "(", ")"].contains(&t[j - 1].text.as_str()) {
        j -= 1;
    }
    while j > 0 && t[j - 1].is("]") {
        let Some(open) = (0..j).rev().find(|&k| t[k].is("#")) else {
            return false;
        };
        let attr = &t[open..j];
        if attr.iter().any(|t| t.is("cfg"))
            && attr.iter().any(|t| t.is("test"))
            && !attr.iter().any(|t| t.is("not"))
        {
            return true;
        }
        j = open;
    }
    false
}

/// Names bound in each scope (a module path): child modules and `use`
/// declarations, to the paths they name.
type Bound = std::collections::BTreeMap<(Vec<String>, String), Vec<String>>;

/// `path` as named in `scope`, from the crate root: `crate::`, `self::`
/// and `super::` paths, and paths through a bound name; `None` for any
/// other (`std::…`, another crate, a local item).
fn resolve(bound: &Bound, scope: &[String], path: &[String]) -> Option<Vec<String>> {
    let (first, rest) = path.split_first()?;
    let mut base = match first.as_str() {
        "crate" => Vec::new(),
        "self" => scope.to_vec(),
        "super" => {
            let ups = path.iter().take_while(|s| *s == "super").count();
            let base = scope.get(..scope.len().checked_sub(ups)?)?.to_vec();
            return Some(
                base.into_iter()
                    .chain(path[ups..].iter().cloned())
                    .collect(),
            );
        }
        name => (0..=scope.len())
            .rev()
            .find_map(|n| bound.get(&(scope[..n].to_vec(), name.to_string())))?
            .clone(),
    };
    base.extend(rest.iter().cloned());
    Some(base)
}

/// Every path into the crate that the file of module `module` names outside
/// its test code: `crate::…`, `super::…` and `self::…` paths, and paths
/// through a name a `use` bound or a child module, in `use` declarations and
/// in code alike.
fn read_source(module: &[String], src: &str) -> Read {
    let toks = tokens(&code_only(src));
    let mut read = Read::default();
    // The inline module (`mod tests { … }`) each token is in, and whether
    // that is test code.
    let mut scope_of = Vec::with_capacity(toks.len());
    let mut in_test = Vec::with_capacity(toks.len());
    let mut open: Vec<(String, usize, bool)> = Vec::new();
    let mut depth = 0usize;
    for (i, tok) in toks.iter().enumerate() {
        if tok.is("{") {
            if i >= 2 && toks[i - 2].is("mod") && toks[i - 1].is_ident() {
                let test = only_for_tests(&toks, i - 2) || open.last().is_some_and(|o| o.2);
                open.push((toks[i - 1].text.clone(), depth, test));
            }
            depth += 1;
        } else if tok.is("}") {
            depth = depth
                .checked_sub(1)
                .unwrap_or_else(|| panic!("unbalanced braces in {}", module.join("::")));
            if open.last().is_some_and(|o| o.1 == depth) {
                open.pop();
            }
        }
        let mut scope = module.to_vec();
        scope.extend(open.iter().map(|o| o.0.clone()));
        scope_of.push(scope);
        in_test.push(open.last().is_some_and(|o| o.2));
    }
    // Child modules are bound first; `use` declarations as they come.
    let mut bound = Bound::new();
    for (i, tok) in toks.iter().enumerate() {
        if tok.is("mod") && toks.get(i + 1).is_some_and(|t| t.is_ident()) {
            let name = toks[i + 1].text.clone();
            let mut path = scope_of[i].clone();
            path.push(name.clone());
            if toks.get(i + 2).is_some_and(|t| t.is(";")) && only_for_tests(&toks, i) {
                read.test_children.push(path.clone());
            }
            bound.insert((scope_of[i].clone(), name), path);
        }
    }
    let mut i = 0;
    while i < toks.len() {
        let tok = &toks[i];
        let after_path = i > 0 && (toks[i - 1].is("::") || toks[i - 1].is("."));
        let is_use = tok.is("use");
        let starts_path =
            tok.is_ident() && !after_path && toks.get(i + 1).is_some_and(|t| t.is("::"));
        if !is_use && !starts_path {
            i += 1;
            continue;
        }
        let (named, next) = use_tree(&toks, if is_use { i + 1 } else { i });
        for n in named {
            let Some(path) = resolve(&bound, &scope_of[i], &n.path) else {
                continue;
            };
            let binds = is_use && n.binds.is_some();
            if let (true, Some(name)) = (is_use, &n.binds) {
                bound.insert((scope_of[i].clone(), name.clone()), path.clone());
                if scope_of[i] == module && !in_test[i] {
                    read.uses.insert(name.clone(), path.clone());
                }
            }
            if !in_test[i] {
                read.imports.push(Import {
                    path,
                    line: n.line,
                    binds,
                });
            }
        }
        i = next.max(i + 1);
    }
    read
}

/// The module path of a source file below `src`: `core/discovery/pack.rs`
/// and `core/compose.rs` are `core::discovery::pack` and `core::compose`.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}
// ---------------------------------------------------------------------------
// Checking the graph against the table.

/// The layer of the node holding `module`: the longest node path it starts
/// with, except that a root (`core`, `tui`, `text`) holds only itself.
fn node_of(module: &[String]) -> Option<(&'static str, usize)> {
    let mut best: Option<(&'static str, usize, usize)> = None;
    for (row, nodes) in rows().iter().enumerate() {
        for (name, _) in nodes.iter() {
            let segs: Vec<&str> = name.split("::").collect();
            let holds = if ROOTS.contains(name) {
                module.len() == 1 && module[0] == *name
            } else {
                module.len() >= segs.len() && segs.iter().zip(module).all(|(s, m)| s == m)
            };
            if holds && best.is_none_or(|(_, _, len)| segs.len() > len) {
                best = Some((name, row, segs.len()));
            }
        }
    }
    best.map(|(name, row, _)| (name, row))
}

/// The rows of all tables, top first.
fn rows() -> Vec<&'static [Node]> {
    TABLES
        .iter()
        .flat_map(|(_, rows)| rows.iter().copied())
        .collect()
}

/// Whether `path` names a module that holds nodes below it (`core::discovery`
/// when `core::discovery::pack` is a node).
fn holds_nodes(path: &[String]) -> bool {
    let joined = format!("{}::", path.join("::"));
    rows()
        .iter()
        .flat_map(|r| r.iter())
        .any(|(name, _)| name.starts_with(&joined))
}

/// Every source file of the layered modules, as (path relative to the
/// crate, module path), test modules left out.
fn layered_files() -> Vec<(std::path::PathBuf, Vec<String>, Read)> {
    crate_files(ROOTS, None)
}

/// Every source file of the modules `roots` of one crate (and its root
/// file, `main.rs`, when given), as (path relative to the crate, module
/// path, what it names), test modules left out.
fn crate_files(
    roots: &[&str],
    root_file: Option<&str>,
) -> Vec<(std::path::PathBuf, Vec<String>, Read)> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = manifest.join("src");
    let mut files: Vec<std::path::PathBuf> = root_file.map(|f| src.join(f)).into_iter().collect();
    for root in roots {
        // A root's own file sits beside its folder (`src/core.rs`).
        let own = src.join(format!("{root}.rs"));
        if own.is_file() {
            files.push(own);
        }
        files.extend(rust_files(&src.join(root)));
    }
    files.sort();
    let mut read: Vec<_> = files
        .iter()
        .map(|file| {
            let rel = file.strip_prefix(&src).expect("a file under src");
            // The crate's root file is the crate itself.
            let module = if Some(rel) == root_file.map(Path::new) {
                Vec::new()
            } else {
                module_of(rel)
            };
            let text = std::fs::read_to_string(file).expect("readable source");
            let r = read_source(&module, &text);
            let shown = file.strip_prefix(manifest).expect("under the crate");
            (shown.to_path_buf(), module, r)
        })
        .collect();
    let tests: Vec<Vec<String>> = read
        .iter()
        .flat_map(|(_, _, r)| r.test_children.iter().cloned())
        .collect();
    read.retain(|(_, module, _)| !tests.iter().any(|t| module.starts_with(t)));
    read
}

/// An import from one node of the table to another.
struct Edge {
    file: std::path::PathBuf,
    line: usize,
    from: (&'static str, usize),
    to: (&'static str, usize),
    path: Vec<String>,
}

/// Every import between two nodes (with their rows), and the nodes that
/// hold a file; a file no node holds is an offence.
fn node_edges(offences: &mut Vec<String>) -> (Vec<Edge>, std::collections::BTreeSet<&'static str>) {
    let mut edges = Vec::new();
    let mut held = std::collections::BTreeSet::new();
    for (file, module, read) in layered_files() {
        let Some(from) = node_of(&module) else {
            offences.push(format!(
                "{}: module {} is in no row of the layer table",
                file.display(),
                module.join("::")
            ));
            continue;
        };
        held.insert(from.0);
        for import in read.imports {
            if !import
                .path
                .first()
                .is_some_and(|r| ROOTS.contains(&r.as_str()))
            {
                continue;
            }
            // `use crate::core::discovery;` counts where `discovery::pack` is used.
            if import.binds && holds_nodes(&import.path) {
                continue;
            }
            let Some(to) = node_of(&import.path) else {
                continue;
            };
            if to.0 != from.0 {
                edges.push(Edge {
                    file: file.clone(),
                    line: import.line,
                    from,
                    to,
                    path: import.path,
                });
            }
        }
    }
    (edges, held)
}

/// What breaks the table: a module in no row, a row holding no module, an
/// import of a node in the same row or above, an exception no longer used.
fn layer_offences() -> Vec<String> {
    let mut offences = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (name, _) in rows().iter().flat_map(|r| r.iter()) {
        if !seen.insert(*name) {
            offences.push(format!("{name} is in the table twice"));
        }
    }
    let (edges, held) = node_edges(&mut offences);
    let mut used = vec![false; EXCEPTIONS.len()];
    for edge in edges {
        let ((from, from_row), (to, to_row)) = (edge.from, edge.to);
        if to_row > from_row {
            continue;
        }
        let file_name = edge.file.to_string_lossy().replace('\\', "/");
        if let Some(at) = EXCEPTIONS
            .iter()
            .position(|(f, node, _)| *f == file_name && *node == to)
        {
            used[at] = true;
            continue;
        }
        let how = if to_row == from_row {
            "beside it"
        } else {
            "above it"
        };
        // One line per line of source that reaches up.
        let at = format!("{}:{}: {from} imports {to}", edge.file.display(), edge.line);
        if !offences.iter().any(|o| o.starts_with(&format!("{at},"))) {
            offences.push(format!(
                "{at}, {how} in the layer table ({})",
                edge.path.join("::")
            ));
        }
    }
    for (name, _) in rows().iter().flat_map(|r| r.iter()) {
        if !held.contains(name) {
            offences.push(format!("{name}: a row of the layer table with no module"));
        }
    }
    for ((file, node, _), used) in EXCEPTIONS.iter().zip(used) {
        if !used {
            offences.push(format!(
                "the exception {file} → {node} is no longer needed: remove it"
            ));
        }
    }
    offences
}

/// The module system is layered: each module imports only from the rows
/// below its own in the layer table above (no cycles, and no module reaches
/// up), which is the picture docs/ARCHITECTURE.md shows.
#[test]
fn every_module_imports_only_from_the_layers_below_it() {
    let offences = layer_offences();
    assert!(
        offences.is_empty(),
        "the modules break the layer table (tests/integration/architecture.rs, TABLES):\n{}",
        offences.join("\n")
    );
}

// ---------------------------------------------------------------------------
// Circles: between files, and between folders.

/// The crates of `src`, each as its modules' roots and its root file: the
/// library (`core`, `text`, `tui`) and the binary (`main.rs` over `cli` and
/// `mcp`). An import from one crate to the other cannot close a circle.
const CRATES: &[(&[&str], Option<&str>)] = &[
    (&["core", "text", "tui"], None),
    (&["cli", "mcp"], Some("main.rs")),
];

/// Circles the check allows, each a debt with the change that pays it:
/// (the modules of the circle, why). An entry no longer needed is an
/// offence.
const ALLOWED_CIRCLES: &[(&[&str], &str)] = &[];

/// One source file as the circle check reads it.
struct SourceFile {
    /// Its path, as shown in a failure.
    shown: String,
    /// Its module path in its crate.
    module: Vec<String>,
    read: Read,
}

/// The file (an index into `files`) that holds what `path` names: the file
/// of the longest module path `path` starts with, following the names that
/// file binds by `use` (a re-export leads to the file that defines the name).
fn file_holding(files: &[SourceFile], path: &[String]) -> Option<usize> {
    let mut path = path.to_vec();
    for _ in 0..16 {
        let at = files
            .iter()
            .enumerate()
            .filter(|(_, f)| path.starts_with(&f.module))
            .max_by_key(|(_, f)| f.module.len())
            .map(|(i, _)| i)?;
        let module = &files[at].module;
        let Some(next) = path
            .get(module.len())
            .and_then(|name| files[at].read.uses.get(name))
        else {
            return Some(at);
        };
        let mut onward = next.clone();
        onward.extend(path[module.len() + 1..].iter().cloned());
        if onward == path {
            return Some(at);
        }
        path = onward;
    }
    None
}

/// Every import from one file to another, as (from, to, line), once per
/// pair (the first line). A module and the modules inside it are one in
/// the language (a folder's own file and the files in it share their
/// items through `super::`): an import between them is not counted.
fn file_edges(files: &[SourceFile]) -> Vec<(usize, usize, usize)> {
    let mut edges = std::collections::BTreeMap::new();
    for (from, file) in files.iter().enumerate() {
        for import in &file.read.imports {
            if let Some(to) = file_holding(files, &import.path)
                && !file.module.starts_with(&files[to].module)
                && !files[to].module.starts_with(&file.module)
            {
                edges.entry((from, to)).or_insert(import.line);
            }
        }
    }
    edges.into_iter().map(|((f, t), l)| (f, t, l)).collect()
}

/// The strongly connected parts of the graph of `n` nodes with more than
/// one node: its circles, each sorted, in order (Tarjan's algorithm).
fn circles(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
    struct Walk<'a> {
        next: Vec<Vec<usize>>,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        count: usize,
        out: &'a mut Vec<Vec<usize>>,
    }
    fn visit(w: &mut Walk, v: usize) {
        w.index[v] = Some(w.count);
        w.low[v] = w.count;
        w.count += 1;
        w.stack.push(v);
        w.on_stack[v] = true;
        for k in 0..w.next[v].len() {
            let u = w.next[v][k];
            match w.index[u] {
                None => {
                    visit(w, u);
                    w.low[v] = w.low[v].min(w.low[u]);
                }
                Some(i) if w.on_stack[u] => w.low[v] = w.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(w.low[v]) == w.index[v] {
            let mut part = Vec::new();
            while let Some(u) = w.stack.pop() {
                w.on_stack[u] = false;
                part.push(u);
                if u == v {
                    break;
                }
            }
            if part.len() > 1 {
                part.sort();
                w.out.push(part);
            }
        }
    }
    let mut next = vec![Vec::new(); n];
    for &(a, b) in edges {
        next[a].push(b);
    }
    let mut out = Vec::new();
    let mut w = Walk {
        next,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        count: 0,
        out: &mut out,
    };
    for v in 0..n {
        if w.index[v].is_none() {
            visit(&mut w, v);
        }
    }
    out.sort();
    out
}

/// The circles of one crate's files, each as the modules in it and the
/// imports that tie it (one line each): first between files, then between
/// the folders (modules with modules below them) and files of each folder,
/// a folder counting as all the files under it. A circle of plain files
/// inside one folder is told once, as a circle of files.
fn crate_circles(files: &[SourceFile]) -> Vec<(Vec<String>, Vec<String>)> {
    let edges = file_edges(files);
    let name = |m: &[String]| m.join("::");
    let tie = |f: usize, t: usize, l: usize| {
        format!("{}:{l} imports {}", files[f].shown, name(&files[t].module))
    };
    let mut out = Vec::new();
    let pairs: Vec<(usize, usize)> = edges.iter().map(|&(f, t, _)| (f, t)).collect();
    for part in circles(files.len(), &pairs) {
        let ties = edges
            .iter()
            .filter(|(f, t, _)| part.contains(f) && part.contains(t))
            .map(|&(f, t, l)| tie(f, t, l))
            .collect();
        out.push((part.iter().map(|&i| name(&files[i].module)).collect(), ties));
    }
    // Each folder: the units right below it, and the imports between them.
    let mut folders: std::collections::BTreeSet<Vec<String>> = std::collections::BTreeSet::new();
    for f in files {
        for n in 0..f.module.len() {
            folders.insert(f.module[..n].to_vec());
        }
    }
    for folder in folders {
        let unit = |m: &[String]| -> Option<Vec<String>> {
            (m.len() > folder.len() && m.starts_with(&folder)).then(|| m[..=folder.len()].to_vec())
        };
        let units: Vec<Vec<String>> = files
            .iter()
            .filter_map(|f| unit(&f.module))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let at = |m: &[String]| unit(m).and_then(|u| units.iter().position(|x| *x == u));
        let mut between = Vec::new();
        for &(f, t, l) in &edges {
            if let (Some(a), Some(b)) = (at(&files[f].module), at(&files[t].module))
                && a != b
            {
                between.push((a, b, f, t, l));
            }
        }
        let pairs: Vec<(usize, usize)> = between.iter().map(|&(a, b, ..)| (a, b)).collect();
        for part in circles(units.len(), &pairs) {
            let is_folder = |u: &Vec<String>| {
                files
                    .iter()
                    .any(|f| f.module.len() > u.len() && f.module.starts_with(u))
            };
            if !part.iter().any(|&u| is_folder(&units[u])) {
                continue;
            }
            let ties = between
                .iter()
                .filter(|(a, b, ..)| part.contains(a) && part.contains(b))
                .map(|&(_, _, f, t, l)| tie(f, t, l))
                .collect();
            out.push((part.iter().map(|&u| name(&units[u])).collect(), ties));
        }
    }
    out
}

/// What breaks "no circle": each circle of files or folders that the
/// allow-list does not name, and each allow-list entry no circle needs.
fn circle_offences() -> Vec<String> {
    let mut found = Vec::new();
    for (roots, root_file) in CRATES {
        let files: Vec<SourceFile> = crate_files(roots, *root_file)
            .into_iter()
            .map(|(shown, module, read)| SourceFile {
                shown: shown.to_string_lossy().replace('\\', "/"),
                module,
                read,
            })
            .collect();
        found.extend(crate_circles(&files));
    }
    judge_circles(found, ALLOWED_CIRCLES)
}

/// The circles found, less those `allowed` names, as offences; and an
/// offence for each allowed circle not found.
fn judge_circles(
    found: Vec<(Vec<String>, Vec<String>)>,
    allowed: &[(&[&str], &str)],
) -> Vec<String> {
    let mut offences = Vec::new();
    let mut used = vec![false; allowed.len()];
    for (modules, ties) in found {
        if let Some(at) = allowed.iter().position(|(m, _)| {
            m.len() == modules.len() && m.iter().all(|x| modules.iter().any(|y| y == x))
        }) {
            used[at] = true;
            continue;
        }
        offences.push(format!(
            "a circle: {}\n  {}",
            modules.join(", "),
            ties.join("\n  ")
        ));
    }
    for ((modules, why), used) in allowed.iter().zip(used) {
        if !used {
            offences.push(format!(
                "the allowed circle {} ({why}) is gone: remove it from ALLOWED_CIRCLES",
                modules.join(", ")
            ));
        }
    }
    offences
}

/// No file imports, through others, from a file that imports it, and no
/// folder does so from a folder beside it: each folder sits on one floor.
#[test]
fn no_files_or_folders_import_each_other_in_a_circle() {
    let offences = circle_offences();
    assert!(
        offences.is_empty(),
        "circles in src (tests/integration/architecture.rs, ALLOWED_CIRCLES):\n{}",
        offences.join("\n")
    );
}

/// The circle check on a planted crate: a circle of two files, a circle of
/// two folders whose files form none, a feature folder whose state the
/// state below imports while its keys import that state (no folder is
/// exempt), and a re-export that is no circle.
#[test]
fn the_circle_check_finds_planted_circles() {
    let file = |m: &str, src: &str| {
        let module: Vec<String> = m.split("::").map(String::from).collect();
        let read = read_source(&module, src);
        SourceFile {
            shown: format!("{}.rs", m.replace("::", "/")),
            module,
            read,
        }
    };
    let files = vec![
        file("a", "use crate::b::f;\n"),
        file("b", "fn g() {\n    crate::a::h();\n}\n"),
        // A folder's own file and the files in it share items: no circle.
        file(
            "x",
            "pub mod one;\npub mod three;\npub fn k() {\n    three::g();\n}\n",
        ),
        file("x::one", "use crate::y::two::f;\n"),
        file("y", "pub mod two;\n"),
        file("y::two", "use crate::x::three::g;\n"),
        file("x::three", "use super::k;\n"),
        // `p` hands on `r`'s name: `r` naming it through `p` is no circle.
        file("p", "pub use crate::r::Thing;\n"),
        file("r", "use crate::p::Thing;\npub struct Thing;\n"),
        // `t::feat` keeps its state and its keys; `t::state` holds the
        // one and is read by the other.
        file("t::state", "use crate::t::feat::data::D;\npub struct S;\n"),
        file("t::feat", "pub mod data;\npub mod keys;\n"),
        file("t::feat::data", "pub struct D;\n"),
        file("t::feat::keys", "use crate::t::state::S;\n"),
    ];
    let found = crate_circles(&files);
    let circles: Vec<Vec<String>> = found.iter().map(|(m, _)| m.clone()).collect();
    assert_eq!(
        circles,
        [vec!["a", "b"], vec!["x", "y"], vec!["t::feat", "t::state"]]
    );
    assert_eq!(found[0].1, ["a.rs:1 imports b", "b.rs:2 imports a"]);
    assert_eq!(
        found[1].1,
        ["x/one.rs:1 imports y::two", "y/two.rs:1 imports x::three"]
    );
    assert_eq!(
        found[2].1,
        [
            "t/state.rs:1 imports t::feat::data",
            "t/feat/keys.rs:1 imports t::state"
        ]
    );
    // The allow-list passes a named circle and flags one no longer there.
    let offences = judge_circles(found, &[(&["b", "a"], "planted"), (&["q", "s"], "gone")]);
    assert_eq!(offences.len(), 3, "{offences:?}");
    assert!(
        offences[0].starts_with("a circle: x, y\n"),
        "{}",
        offences[0]
    );
    assert!(
        offences[1].starts_with("a circle: t::feat, t::state\n"),
        "{}",
        offences[1]
    );
    assert!(
        offences[2].contains("q, s (gone) is gone"),
        "{}",
        offences[2]
    );
}

// ---------------------------------------------------------------------------
// Long functions.

/// The most lines a function may span, from its `fn` line to its closing
/// brace: a longer one is a switchboard to split into a table or named steps.
const MAX_FUNCTION_LINES: usize = 120;

/// Functions allowed to be longer, each a debt: (file, function, why).
const LONG_FUNCTIONS: &[(&str, &str, &str)] = &[];

/// The functions of `src` (Rust source, test modules left out) longer than
/// `max` lines: (name, line of its `fn`, lines).
fn long_functions(src: &str, max: usize) -> Vec<(String, usize, usize)> {
    let toks = tokens(&code_only(src));
    // Whether each token is inside a test module.
    let mut in_test = vec![false; toks.len()];
    let mut open: Vec<(usize, bool)> = Vec::new();
    let mut depth = 0usize;
    for (i, tok) in toks.iter().enumerate() {
        if tok.is("{") {
            if i >= 2 && toks[i - 2].is("mod") && toks[i - 1].is_ident() {
                let test = only_for_tests(&toks, i - 2) || open.last().is_some_and(|o| o.1);
                open.push((depth, test));
            }
            depth += 1;
        } else if tok.is("}") {
            depth = depth.saturating_sub(1);
            if open.last().is_some_and(|o| o.0 == depth) {
                open.pop();
            }
        }
        in_test[i] = open.last().is_some_and(|o| o.1);
    }
    let mut out = Vec::new();
    for (i, tok) in toks.iter().enumerate() {
        if !tok.is("fn") || in_test[i] || !toks.get(i + 1).is_some_and(|t| t.is_ident()) {
            continue;
        }
        // The body opens at the first `{` outside parentheses; a `;` first
        // is a declaration without one.
        let mut parens = 0i64;
        let Some(body) = (i + 2..toks.len()).find(|&j| {
            match toks[j].text.as_str() {
                "(" | "[" => parens += 1,
                ")" | "]" => parens -= 1,
                _ => {}
            }
            parens == 0 && (toks[j].is("{") || toks[j].is(";"))
        }) else {
            continue;
        };
        if toks[body].is(";") {
            continue;
        }
        let mut level = 0usize;
        let Some(close) = (body..toks.len()).find(|&j| {
            if toks[j].is("{") {
                level += 1;
            } else if toks[j].is("}") {
                level -= 1;
            }
            level == 0
        }) else {
            continue;
        };
        let lines = toks[close].line - tok.line + 1;
        if lines > max {
            out.push((toks[i + 1].text.clone(), tok.line, lines));
        }
    }
    out
}

/// No function outside test code spans more than [`MAX_FUNCTION_LINES`]
/// lines, but those [`LONG_FUNCTIONS`] names.
#[test]
fn no_function_is_longer_than_the_limit() {
    let mut offences = Vec::new();
    let mut used = vec![false; LONG_FUNCTIONS.len()];
    for (roots, root_file) in CRATES {
        for (file, _, _) in crate_files(roots, *root_file) {
            let shown = file.to_string_lossy().replace('\\', "/");
            let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(&file))
                .expect("readable source");
            for (name, line, lines) in long_functions(&text, MAX_FUNCTION_LINES) {
                if let Some(at) = LONG_FUNCTIONS
                    .iter()
                    .position(|(f, n, _)| *f == shown && *n == name)
                {
                    used[at] = true;
                    continue;
                }
                offences.push(format!("{shown}:{line}: {name} is {lines} lines"));
            }
        }
    }
    for ((file, name, _), used) in LONG_FUNCTIONS.iter().zip(used) {
        if !used {
            offences.push(format!(
                "{file}: {name} is no longer over the limit: remove it from LONG_FUNCTIONS"
            ));
        }
    }
    assert!(
        offences.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines (split them into a table or named steps):\n{}",
        offences.join("\n")
    );
}

#[test]
fn the_length_check_measures_functions_from_fn_to_their_brace() {
    let body = "    let x = \"}\"; // }\n".repeat(3);
    let src = format!(
        "fn short() {{}}\ntrait T {{\n    fn declared(&self);\n}}\npub(crate) fn long<T>(a: [u8; 2]) -> Vec<T>\nwhere\n    T: Clone,\n{{\n{body}}}\n#[cfg(test)]\nmod tests {{\n    fn in_a_test() {{\n{body}    }}\n}}\n"
    );
    assert_eq!(long_functions(&src, 4), [("long".to_string(), 5, 8)]);
    assert_eq!(long_functions(&src, 8), []);
}

/// The layer table as docs/ARCHITECTURE.md shows it: a numbered row per
/// layer, one line per module.
fn layer_diagram() -> String {
    let width = rows()
        .iter()
        .flat_map(|r| r.iter())
        .map(|(name, _)| name.len())
        .max()
        .unwrap_or(0);
    let mut out = String::from(
        "```\nEach module imports only from the rows below its own (higher numbers).\n",
    );
    let mut row = 0;
    for (title, rows) in TABLES {
        out.push_str(&format!("{title}\n"));
        for nodes in rows.iter() {
            row += 1;
            for (i, (name, what)) in nodes.iter().enumerate() {
                let number = if i == 0 {
                    row.to_string()
                } else {
                    String::new()
                };
                out.push_str(&format!("{number:>4}  {name:<width$}  {what}\n"));
            }
        }
    }
    out.push_str("```\n");
    out
}

const BEGIN: &str = "<!-- layers:begin -->\n";
const END: &str = "<!-- layers:end -->";

/// docs/ARCHITECTURE.md shows the layer table as it is:
/// `CTXCURATE_BLESS=1 cargo test --test integration -- architecture` rewrites the block
/// between its markers.
#[test]
fn the_architecture_map_shows_the_layer_table() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ARCHITECTURE.md");
    let doc = std::fs::read_to_string(&path).expect("docs/ARCHITECTURE.md");
    let (Some(begin), Some(end)) = (doc.find(BEGIN), doc.find(END)) else {
        panic!(
            "docs/ARCHITECTURE.md has no `{}` … `{END}` block",
            BEGIN.trim()
        );
    };
    let start = begin + BEGIN.len();
    assert!(start <= end, "the layers block's markers are out of order");
    let want = layer_diagram();
    if doc[start..end] == want {
        return;
    }
    if std::env::var_os("CTXCURATE_BLESS").is_some() {
        let mut blessed = doc[..start].to_string();
        blessed.push_str(&want);
        blessed.push_str(&doc[end..]);
        std::fs::write(&path, blessed).expect("docs/ARCHITECTURE.md written");
        return;
    }
    panic!(
        "docs/ARCHITECTURE.md's layer diagram differs from the table; \
         run `CTXCURATE_BLESS=1 cargo test --test integration -- architecture` to rewrite it. Expected:\n{want}"
    );
}

#[test]
fn the_import_reader_sees_what_it_must() {
    let module = |m: &str| m.split("::").map(String::from).collect::<Vec<_>>();
    let read = |m: &str, src: &str| -> Vec<String> {
        read_source(&module(m), src)
            .imports
            .into_iter()
            .map(|i| format!("{}@{}", i.path.join("::"), i.line))
            .collect()
    };
    // Groups over several lines, `self`, `super` and a glob.
    let got = read(
        "core::discovery::pack",
        "use crate::core::{\n    compose::{self, Options},\n    tokens,\n};\nuse super::graph::*;\n",
    );
    assert_eq!(
        got,
        [
            "core::compose@2",
            "core::compose::Options@2",
            "core::tokens@3",
            "core::discovery::graph@5"
        ]
    );
    // Paths in code, through a bound name and a child module; nothing in
    // comments, strings or char literals; `std` paths are not the crate's.
    let got = read(
        "core::store",
        "mod disk;\nuse crate::core::summary;\n// crate::tui::x\nfn f() {\n    let _ = \"crate::tui::y\";\n    let _ = '{';\n    summary::gate::withheld();\n    disk::open();\n    std::fs::read(\"\");\n}\n",
    );
    assert_eq!(
        got,
        [
            "core::summary@2",
            "core::summary::gate::withheld@7",
            "core::store::disk::open@8"
        ]
    );
    // `super` in an inline module is the file's own module; test modules
    // are not read.
    let got = read(
        "tui::render",
        "mod inner {\n    use super::scroll_to;\n}\n#[cfg(all(test, unix))]\nmod tests {\n    use crate::tui::app;\n}\n",
    );
    assert_eq!(got, ["tui::render::scroll_to@2"]);
    let r = read_source(&module("core::secrets"), "#[cfg(test)]\nmod tests;\n");
    assert_eq!(r.test_children, [module("core::secrets::tests")]);
    // A raw string's quotes do not open a string.
    let got = read(
        "core::x",
        "const A: &str = r#\"\"a\"\"#;\nuse crate::core::model;\n",
    );
    assert_eq!(got, ["core::model@2"]);
}

#[test]
fn the_layer_table_places_modules_in_their_rows() {
    let module = |m: &str| m.split("::").map(String::from).collect::<Vec<_>>();
    let at = |m: &str| node_of(&module(m)).map(|(name, _)| name);
    assert_eq!(
        at("core::discovery::pack::report"),
        Some("core::discovery::pack")
    );
    assert_eq!(at("core::discovery::pack"), Some("core::discovery::pack"));
    assert_eq!(at("core::discovery"), Some("core::discovery"));
    // A root holds only its own file.
    assert_eq!(at("core"), Some("core"));
    assert_eq!(at("core::not_in_the_table"), None);
    // Rows are ordered top first: the TUI over the core over `text`.
    let row = |m: &str| node_of(&module(m)).map(|(_, row)| row);
    assert!(row("tui::app") < row("core::compose"));
    assert!(row("core::compose") < row("core::sources"));
    assert!(row("core::sources") < row("text::sanitize"));
    // The diagram names every node once.
    let diagram = layer_diagram();
    for (name, _) in rows().iter().flat_map(|r| r.iter()) {
        assert!(
            diagram.contains(&format!(" {name} ")),
            "{name} in\n{diagram}"
        );
    }
}

/// The check reads the imports the code is known to have (a reader gone
/// blind would pass every table). The TUI rows here follow its layout of
/// today; rename them with the table.
#[test]
fn the_layer_check_sees_the_real_imports() {
    let mut offences = Vec::new();
    let (edges, _) = node_edges(&mut offences);
    let has = |from: &str, to: &str| edges.iter().any(|e| e.from.0 == from && e.to.0 == to);
    for (from, to) in [
        ("tui::update::actions", "tui::curate"),
        ("tui::render", "tui::state"),
        ("tui::run::app", "tui::run::effects"),
        ("tui::state", "tui::state::model"),
        ("tui::state", "tui::state::history"),
        ("tui::state::preview", "tui::state::model"),
        ("core::engine", "core::secrets"),
        ("core::sources", "core::store"),
        ("core::store", "core::paths"),
        ("core::summary", "core::secret_scan"),
        ("core::secrets", "core::discovery::pack"),
        ("core::discovery::pack", "core::discovery::graph"),
        ("core::compose", "text::sanitize"),
    ] {
        assert!(has(from, to), "no import {from} → {to} found");
    }
}
