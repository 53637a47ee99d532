//! `core::syntax::costs` on real code: on the Python standard library and
//! the C++ standard headers, each symbol's cost (counted in bytes) is
//! about what hiding it drops from the file shown in full (the masked
//! view, every symbol `def`), the pieces never overlap, and a container
//! costs at least what is nested in it.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::common::{corpus, machine};
use ctxcurate::core::model::MaskState;
use ctxcurate::core::syntax::{self, Lang, costs};

/// Files of each corpus, and how many of their symbols are hidden one by
/// one (a render each).
const FILES: usize = 40;
const SYMBOLS_PER_FILE: usize = 25;

/// What a byte cost may differ by from the drop: the blank lines (and the
/// indentation left on an emptied line) the view folds when the symbol
/// next to them goes.
const SLACK: usize = 12;

fn check(lang: Lang, files: &[PathBuf]) -> (usize, usize) {
    let (mut symbols, mut exact, mut worst) = (0, 0, 0);
    for file in files.iter().take(FILES) {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let tree = syntax::parse(lang, &text);
        let plan = costs::plan(&tree, &text);
        let mut pieces: Vec<_> = plan.pieces().cloned().collect();
        pieces.sort_by_key(|r| r.start);
        assert!(
            pieces.windows(2).all(|w| w[0].end <= w[1].start),
            "{}: pieces overlap",
            file.display()
        );
        assert!(
            pieces.iter().all(|r| text.get(r.clone()).is_some()),
            "{}: a piece off the text",
            file.display()
        );
        let costs = costs::symbol_costs(&tree, &text, str::len);
        let flat: Vec<_> = tree.symbols.iter().flat_map(|s| s.iter()).collect();
        assert_eq!(costs.len(), flat.len());
        // A symbol's cost: its own pieces and its children's costs.
        for (i, n) in plan.subtree.iter().enumerate() {
            let own: usize = plan.own[i].iter().map(|r| r.len()).sum();
            let mut children = 0;
            let mut j = i + 1;
            while j < i + n {
                children += costs[j];
                j += plan.subtree[j];
            }
            assert_eq!(
                costs[i],
                own + children,
                "{} {}",
                file.display(),
                flat[i].path
            );
        }
        let full = syntax::masked(&tree, &text, MaskState::Def, &BTreeMap::new());
        for (sym, cost) in flat.iter().zip(&costs).take(SYMBOLS_PER_FILE) {
            let mask = BTreeMap::from([(sym.path.clone(), MaskState::Hide)]);
            let hidden = syntax::masked(&tree, &text, MaskState::Def, &mask);
            let drop = full.len().saturating_sub(hidden.len());
            assert!(
                drop.abs_diff(*cost) <= SLACK,
                "{} {}: cost {cost}, hiding drops {drop}",
                file.display(),
                sym.path
            );
            symbols += 1;
            exact += usize::from(drop == *cost);
            worst = worst.max(drop.abs_diff(*cost));
        }
    }
    eprintln!("{lang:?}: {exact} of {symbols} symbols exact, at most {worst} bytes off");
    (symbols, exact)
}

#[test]
fn costs_are_what_hiding_drops_on_the_python_stdlib() {
    let Some(stdlib) = machine::python_stdlib() else {
        return;
    };
    let files = corpus::files_in(&stdlib, "py");
    let (n, exact) = check(Lang::Python, &files);
    assert!(n > 200, "{n}");
    assert!(exact * 10 >= n * 8, "{exact} of {n} exact");
}

#[test]
fn costs_are_what_hiding_drops_on_the_cpp_headers() {
    let Some(dir) = machine::cpp_include() else {
        return;
    };
    let files = corpus::files_under(&dir.join("bits"), &|p| {
        p.extension().is_some_and(|e| e == "h")
    });
    let (n, exact) = check(Lang::Cpp, &files);
    assert!(n > 200, "{n}");
    assert!(exact * 10 >= n * 9, "{exact} of {n} exact");
}
