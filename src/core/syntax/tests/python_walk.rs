//! The Python statement walk (`python_defs`) against the query it replaces:
//! the same symbol trees on every file of the Python standard library, on
//! broken code and on deep nesting.

use std::path::{Path, PathBuf};

use super::stdlib;

use rayon::prelude::*;

use crate::core::syntax::Lang;
use crate::core::syntax::macros::CMacros;
use crate::core::syntax::symbols::{Finder, extract_with};

fn both_agree(source: &str) -> Result<(), String> {
    let macros = CMacros::default();
    let walked = extract_with(Lang::Python, source, &macros, Finder::Fastest);
    let queried = extract_with(Lang::Python, source, &macros, Finder::Query);
    if walked == queried {
        Ok(())
    } else {
        let names = |t: &crate::core::syntax::SymbolTree| {
            t.iter().map(|s| s.path.clone()).collect::<Vec<_>>()
        };
        Err(format!(
            "walk {:?}\nquery {:?}",
            names(&walked),
            names(&queried)
        ))
    }
}

fn python_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() && !path.ends_with("site-packages") && !path.ends_with("dist-packages") {
            python_files(&path, out);
        } else if kind.is_file() && path.extension().is_some_and(|e| e == "py") {
            out.push(path);
        }
    }
}

#[test]
fn the_walk_finds_what_the_query_finds_on_the_whole_stdlib() {
    let dir = stdlib().expect("python3's standard library");
    let mut files = Vec::new();
    python_files(&dir, &mut files);
    assert!(files.len() > 1000, "{} files", files.len());
    let differ: Vec<String> = files
        .par_iter()
        .filter_map(|path| {
            let bytes = std::fs::read(path).ok()?;
            let source = String::from_utf8_lossy(&bytes);
            both_agree(&source)
                .err()
                .map(|e| format!("{}: {e}", path.display()))
        })
        .collect();
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn the_walk_finds_what_the_query_finds_in_broken_code() {
    for source in [
        "x = foo(def inner(): pass)\nclass A:\n  def m(self): pass\n",
        "print(lambda: (class B: pass))\nMAX = 1\n",
        "def f(:\n    def g(): pass\nCONST_A = [1, 2\n",
        "@deco(\nclass C:\n    X = 1\n",
        "if x:\n  def a(): pass\nelse:\n  class B:\n    def c(self): pass\n",
        "match p:\n  case 1:\n    def in_case(): pass\n",
        "try:\n  def t(): pass\nexcept E:\n  def u(): pass\nfinally:\n  class F: pass\n",
        "with a as b:\n  async def w(): pass\n",
        "A_B = C_D = 1\n_X9 = 2\nlower = 3\nX = 4\n",
        "",
        "def",
        "class",
        "))))((((",
    ] {
        if let Err(e) = both_agree(source) {
            panic!("{source:?}\n{e}");
        }
    }
}

#[test]
fn the_walk_finds_what_the_query_finds_under_deep_nesting() {
    let mut source = String::new();
    for depth in 0..300 {
        source.push_str(&"    ".repeat(depth));
        source.push_str(&format!("def f{depth}():\n"));
    }
    source.push_str(&"    ".repeat(300));
    source.push_str("pass\n");
    both_agree(&source).unwrap_or_else(|e| panic!("{e}"));
    let calls = format!(
        "x = {}1{}\ndef after(): pass\n",
        "f(".repeat(500),
        ")".repeat(500)
    );
    both_agree(&calls).unwrap_or_else(|e| panic!("{e}"));
}
