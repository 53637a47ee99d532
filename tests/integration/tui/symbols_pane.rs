//! The symbols pane on a Rust and a TypeScript file, through the real
//! keymap: open the file, focus the pane, mask a method, snapshot; and a
//! file without a grammar, whose mode cycle skips the views that read
//! symbols and says why (status line, preview header).

use crate::common;

use common::harness::open;
use common::{Project, saved};
use ctxcurate::core::model::{MaskState, ViewMode};
use ctxcurate::tui::run::harness::Harness;
use ctxcurate::tui::state::symbols::flat_symbols;

const TABLE_RS: &str = "\
//! A table of rows.

/// One row.
pub struct Row {
    pub name: String,
}

/// The table.
pub struct Table {
    rows: Vec<Row>,
}

impl Table {
    /// A new, empty table.
    pub fn new() -> Self {
        Table { rows: Vec::new() }
    }

    /// Add a row.
    pub fn push(&mut self, name: &str) {
        self.rows.push(Row { name: name.to_string() });
    }

    /// How many rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }
}
";

const STORE_TS: &str = "\
/** Where users live. */
export interface User {
  id: number;
  name: string;
}

/** Users by id. */
export class Store {
  private users = new Map<number, User>();

  /** Add or replace a user. */
  put(user: User): void {
    this.users.set(user.id, user);
  }

  /** The user with this id. */
  get(id: number): User | undefined {
    return this.users.get(id);
  }
}

export function emptyStore(): Store {
  return new Store();
}
";

/// Move the symbols cursor (the pane focused) onto `path`.
fn to_symbol(h: &mut Harness, path: &str) {
    let tree = h.state.symbols.view.as_ref().and_then(|v| v.tree.clone());
    let tree = tree.expect("the file's symbols are loaded");
    let flat = flat_symbols(&tree);
    let at = flat.iter().position(|(_, s)| s.path == path);
    let at = at.unwrap_or_else(|| {
        let paths: Vec<&str> = flat.iter().map(|(_, s)| s.path.as_str()).collect();
        panic!("no symbol {path} in {paths:?}")
    });
    h.key("g");
    for _ in 0..at {
        h.key("j");
    }
    assert_eq!(
        h.state.symbols.selected().map(|s| s.path.as_str()),
        Some(path)
    );
}

/// Include `file`, focus the symbols pane and hide `method`: the pane
/// shows it as `hide`, the preset holds it.
fn mask_a_method(file: &str, text: &str, method: &str) -> String {
    let p = Project::empty();
    p.write(file, text);
    let mut h = open(&p, 120, 30);
    h.goto(file);
    h.keys("space tab");
    to_symbol(&mut h, method);
    h.key("x");
    let item = &saved(&p).presets["default"].files[0];
    assert_eq!(
        (
            item.path.as_str(),
            item.view_mode,
            item.ast_mask.get(method)
        ),
        (file, ViewMode::Masked, Some(&MaskState::Hide))
    );
    h.screen()
}

#[test]
fn rust_symbols_pane_with_a_hidden_method() {
    let screen = mask_a_method("src/table.rs", TABLE_RS, "Table::push");
    insta::assert_snapshot!("rust_hidden_method", screen);
}

#[test]
fn typescript_symbols_pane_with_a_hidden_method() {
    let screen = mask_a_method("src/store.ts", STORE_TS, "Store.put");
    insta::assert_snapshot!("typescript_hidden_method", screen);
}

/// `m` on a YAML file: full → summary → custom → none → full, never
/// skeleton, outline or masked, and the status line says why.
#[test]
fn a_file_without_a_grammar_cycles_only_the_modes_that_change_it() {
    let p = Project::empty();
    p.write("conf/app.yaml", "name: app\nport: 8080\n");
    let mut h = open(&p, 120, 30);
    h.goto("conf/app.yaml");
    h.key("space");
    let mode = |p: &Project| saved(p).presets["default"].files[0].view_mode;
    let mut seen = Vec::new();
    for _ in 0..4 {
        h.key("m");
        seen.push(mode(&p));
    }
    assert_eq!(
        seen,
        [
            ViewMode::Summary,
            ViewMode::Custom,
            ViewMode::None,
            ViewMode::Full
        ]
    );
    h.key("M");
    assert_eq!(mode(&p), ViewMode::None);
    let screen = h.screen();
    assert!(
        screen.contains("no grammar for .yaml: skeleton/outline/masked are not"),
        "{screen}"
    );
    // A file with a grammar still cycles through every mode.
    p.write("src/a.rs", "fn f() {}\n");
    let mut h = open(&p, 120, 30);
    h.goto("src/a.rs");
    h.keys("space m m");
    assert_eq!(
        saved(&p).presets["default"].files[1].view_mode,
        ViewMode::Skeleton
    );
}

/// A YAML file a preset asks in `skeleton` (by hand, or by a glob) shows
/// its summary, and the preview's header says why.
#[test]
fn the_preview_says_why_a_file_shows_its_summary() {
    let p = Project::empty();
    p.write("conf/app.yaml", "name: app\nport: 8080\n");
    p.write(
        "ctxcurate.toml",
        "[presets.default]\nfiles = [{ path = \"conf/app.yaml\", view_mode = \"skeleton\" }]\n",
    );
    let mut h = open(&p, 120, 30);
    h.goto("conf/app.yaml");
    let screen = h.screen();
    assert!(
        screen.contains("skeleton shows its summary: no grammar for .yaml"),
        "{screen}"
    );
}

const APP_PY: &str = "\
import os


class App:
    \"\"\"The app.\"\"\"

    def run(self, x):
        \"\"\"Run it once, with x (запустить один раз).\"\"\"
        total = sum(range(x))
        return total > 0

    def stop(self):
        return os.getpid()


def main():
    App().run(3)
";

/// The costs the pane shows, by symbol path.
fn costs(h: &Harness) -> Vec<(String, usize)> {
    let view = h.state.symbols.view.as_ref().expect("symbols loaded");
    let tree = view.tree.as_ref().expect("a Python file has symbols");
    flat_symbols(tree)
        .iter()
        .map(|(_, s)| s.path.clone())
        .zip(view.tokens.iter().copied())
        .collect()
}

fn pairs(v: &[(&str, usize)]) -> Vec<(String, usize)> {
    v.iter().map(|(p, n)| (p.to_string(), *n)).collect()
}

/// Hiding a symbol shown in full takes what the pane shows for it off
/// the gauge: exactly for the methods and the function, a token less for
/// the class (its methods included), whose pieces the pane counts apart
/// (the tokenizer joins text across the places they are cut).
#[test]
fn hiding_a_symbol_takes_its_cost_off_the_gauge() {
    let p = Project::empty();
    p.write("app.py", APP_PY);
    p.write(
        "ctxcurate.toml",
        "[presets.default]\nfiles = [{ path = \"app.py\", view_mode = \"masked\", mask_default = \"def\" }]\n",
    );
    let mut h = open(&p, 120, 30);
    h.goto("app.py");
    h.key("tab");
    // o200k; App = its header, docstring and the blank lines after it
    // and after stop (9), run and stop.
    assert_eq!(
        costs(&h),
        pairs(&[
            ("App", 9 + 37 + 11),
            ("App.run", 37),
            ("App.stop", 11),
            ("main", 10)
        ])
    );
    let full = h.state.composition.gauge.used;
    assert!(h.state.composition.gauge.exact);
    let mut dropped = Vec::new();
    for path in ["App", "App.run", "App.stop", "main"] {
        to_symbol(&mut h, path);
        h.key("x");
        assert!(h.state.composition.gauge.exact);
        dropped.push((path.to_string(), full - h.state.composition.gauge.used));
        h.key("u");
        assert_eq!(h.state.composition.gauge.used, full);
    }
    assert_eq!(
        dropped,
        pairs(&[
            ("App", 57 - 1),
            ("App.run", 37),
            ("App.stop", 11),
            ("main", 10)
        ])
    );
}

/// `T` counts the pane's costs again with the next tokenizer, and `u`
/// (undoing it) with the one before: the numbers always follow the
/// tokenizer the gauge names; the cursor stays on its symbol.
#[test]
fn the_costs_follow_the_tokenizer_through_t_and_undo() {
    let p = Project::empty();
    p.write("app.py", APP_PY);
    let mut h = open(&p, 120, 30);
    h.goto("app.py");
    h.key("tab");
    to_symbol(&mut h, "App.run");
    let o200k = costs(&h);
    assert_eq!(o200k[1], ("App.run".to_string(), 37));
    h.key("T");
    assert_eq!(h.state.project.settings.tokenizer.to_string(), "cl100k");
    let view = h.state.symbols.view.as_ref().expect("symbols");
    assert_eq!(view.tokenizer.to_string(), "cl100k");
    let cl100k = costs(&h);
    // The Russian in run's docstring costs cl100k two tokens more.
    assert_eq!(
        cl100k,
        pairs(&[("App", 59), ("App.run", 39), ("App.stop", 11), ("main", 10)])
    );
    assert_eq!(
        h.state.symbols.selected().map(|s| s.path.as_str()),
        Some("App.run")
    );
    h.key("T");
    // estimate: characters / 4, piece by piece.
    assert_eq!(
        costs(&h),
        pairs(&[("App", 55), ("App.run", 34), ("App.stop", 12), ("main", 8)])
    );
    h.key("u");
    assert_eq!(costs(&h), cl100k);
    h.key("u");
    assert_eq!(h.state.project.settings.tokenizer.to_string(), "o200k");
    assert_eq!(costs(&h), o200k);
    let screen = h.screen();
    let row = screen
        .lines()
        .find(|l| l.contains("meth run"))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(row.contains(" 37"), "{row}");
    // Redo comes back to cl100k's numbers too.
    h.key("ctrl-r");
    assert_eq!(costs(&h), cl100k);
}

/// (path, tokens) of each symbol of `symbols --json`, depth first.
fn json_costs(symbols: &serde_json::Value, out: &mut Vec<(String, usize)>) {
    for s in symbols.as_array().expect("a list") {
        let path = s["path"].as_str().expect("a path").to_string();
        let tokens = s["tokens"].as_u64().expect("its cost");
        out.push((path, usize::try_from(tokens).expect("small")));
        json_costs(&s["children"], out);
    }
}

/// `ctxcurate symbols` gives each symbol the cost the pane shows, as JSON
/// and as text.
#[test]
fn the_cli_gives_each_symbol_the_cost_the_pane_shows() {
    let p = Project::empty();
    p.write("app.py", APP_PY);
    p.write(
        "ctxcurate.toml",
        "[presets.default]\nfiles = [{ path = \"app.py\" }]\n",
    );
    let mut h = open(&p, 120, 30);
    h.goto("app.py");
    h.key("tab");
    let pane = costs(&h);
    assert_eq!(
        pane,
        pairs(&[
            ("App", 9 + 37 + 11),
            ("App.run", 37),
            ("App.stop", 11),
            ("main", 10)
        ])
    );
    let json = serde_json::from_str(&p.ok(&["symbols", "app.py", "--json"])).expect("JSON");
    let mut cli = Vec::new();
    json_costs(&json, &mut cli);
    assert_eq!(cli, pane);
    let text = p.ok(&["symbols", "app.py"]);
    assert!(
        text.contains("  method App.run  L7-10  37 tok  def run(self, x)\n"),
        "{text}"
    );
}

/// With no file under the cursor the pane says why, never `(a folder)`
/// where there is none: an empty project has no files, a tree filter
/// that matches nothing leaves no file to show.
#[test]
fn with_no_file_under_the_cursor_the_pane_says_why() {
    let p = Project::empty();
    let mut h = open(&p, 80, 24);
    // Wrapped in the narrow pane.
    let screen = h.screen();
    assert!(screen.contains("│(the project  │"), "{screen}");
    assert!(screen.contains("│has no files) │"), "{screen}");
    assert!(!screen.contains("(a folder)"), "{screen}");

    let p = Project::fixture();
    let mut h = open(&p, 100, 24);
    assert_eq!(h.state.current_row().map(|r| r.is_dir), Some(true));
    assert!(h.screen().contains("(a folder)"));
    h.key("/");
    h.type_text("zzz");
    h.key("enter");
    let screen = h.screen();
    assert!(screen.contains("│(no file matches  │"), "{screen}");
    assert!(screen.contains("│/zzz)  "), "{screen}");
    h.key("esc");
    assert!(h.screen().contains("(a folder)"), "the filter cleared");
}

const FLAG_GO: &str = "\
package flag

type boolValue bool

// Set parses s.
func (b *boolValue) Set(s string) error {
	*b = s == \"true\"
	return nil
}

func (b *boolValue) String() string {
	return \"bool\"
}
";

const NOOP_TS: &str = "\
export function noop(): void;
export function noop(x: number): void;
export function noop(x?: number): void {
  return;
}
";

/// The pane names a Go method with its receiver and each TypeScript
/// overload with its number (issue 38): `boolValue.Set`, `noop#2`.
#[test]
fn the_pane_names_go_receivers_and_typescript_overloads() {
    let p = Project::empty();
    p.write("flag.go", FLAG_GO);
    p.write("noop.ts", NOOP_TS);
    let mut h = open(&p, 100, 14);
    h.goto("flag.go");
    h.key("tab");
    let screen = h.screen();
    insta::assert_snapshot!("go_receivers", screen);
    assert!(screen.contains("meth boolValue.Set "), "{screen}");
    assert!(screen.contains("meth boolValue.String "), "{screen}");
    // Narrow and unfocused (80 columns), a scoped name keeps its end.
    h.key("tab");
    h.resize(80, 14);
    let narrow = h.screen();
    assert!(narrow.contains("│ …Value.String│"), "{narrow}");
    h.resize(100, 14);
    h.key("tab");
    h.goto("noop.ts");
    h.key("tab");
    let screen = h.screen();
    for name in ["fn noop ", "fn noop#2 ", "fn noop#3 "] {
        assert!(screen.contains(name), "{name}: {screen}");
    }
}

/// A ctxcurate.toml written with the old name of a Rust method
/// (`impl Table::push`) still masks it, the pane says so, and a key on it
/// writes the new name in place of the old one.
#[test]
fn an_old_mask_name_still_masks_and_a_key_renames_it() {
    let p = Project::empty();
    p.write("src/table.rs", TABLE_RS);
    p.write(
        "ctxcurate.toml",
        "[presets.default]\n\n[[presets.default.files]]\npath = \"src/table.rs\"\n\
         view_mode = \"masked\"\nmask_default = \"def\"\n\
         ast_mask = { \"impl Table::push\" = \"hide\" }\n",
    );
    let mut h = open(&p, 120, 30);
    h.goto("src/table.rs");
    h.key("tab");
    to_symbol(&mut h, "Table::push");
    let screen = h.screen();
    assert!(screen.contains("›hide   meth push"), "{screen}");
    assert!(
        !h.composed_text().contains("self.rows.push(Row"),
        "{}",
        h.composed_text()
    );
    assert!(
        h.composed_text().contains("fn len(&self)"),
        "{}",
        h.composed_text()
    );
    assert!(!screen.contains("not found"), "{screen}");
    h.key("d");
    let item = &saved(&p).presets["default"].files[0];
    assert_eq!(
        item.ast_mask.iter().collect::<Vec<_>>(),
        [(&"Table::push".to_string(), &MaskState::Def)]
    );
    assert!(
        h.composed_text().contains("self.rows.push(Row"),
        "{}",
        h.composed_text()
    );
}

/// A parse stopped at its deadline (issue 37) leaves the pane neither on
/// "loading…" nor silently empty: it says the parse was stopped and that
/// the views show the file in full. The worker's answer is the one a
/// stopped parse gives (`SymbolTree::parse_stopped`, no symbols; the
/// deadline itself is tested on the real binary in `cli::parse_deadline`).
#[test]
fn a_parse_stopped_at_its_deadline_is_said_in_the_pane() {
    use ctxcurate::tui::messages::Event;
    use ctxcurate::tui::state::model::SymbolsView;
    use std::sync::Arc;

    let p = Project::empty();
    p.write("bad.ts", "export const x = 1;\n");
    let mut h = open(&p, 120, 20);
    h.goto("bad.ts");
    let asked = h.state.symbols.view.clone().expect("the symbols came");
    assert!(!h.screen().contains("parsing as"), "{}", h.screen());
    let mut tree = (*asked.tree.expect("a grammar")).clone();
    tree.symbols.clear();
    tree.parse_stopped = true;
    h.send(Event::Symbols(SymbolsView {
        path: "bad.ts".into(),
        tree: Some(Arc::new(tree)),
        tokens: Vec::new(),
        tokenizer: asked.tokenizer,
    }));
    let screen = h.screen();
    // The symbols pane's column, its wrapped rows read as one text.
    let pane: Vec<&str> = screen
        .lines()
        .filter_map(|l| {
            l.split_once("┃│")?
                .1
                .split_once("││")
                .map(|(p, _)| p.trim())
        })
        .collect();
    let said = pane.join(" ");
    assert!(!said.contains("loading…"), "{screen}");
    assert!(!said.contains("(no symbols)"), "{screen}");
    assert!(
        said.starts_with(
            "no symbols: parsing as typescript stopped after 3 s per 512 KiB (less, down to 50 \
             ms, once many parses were stopped or slow) or at its memory bound (malformed code that tree-sitter recovers from slowly); views show it in full"
        ),
        "{screen}"
    );
}
