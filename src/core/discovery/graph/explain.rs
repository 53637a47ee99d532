//! Each import statement of some files with what it resolved to, for a
//! user or a test asking why a file has the edges it has (or lacks one):
//! the statements are read and resolved exactly as [`ImportGraph::build`]
//! does, statement by statement instead of merged into edges.
//!
//! [`ImportGraph::build`]: super::ImportGraph::build

use serde::Serialize;

use super::resolve::Resolution;
use super::{code_files, imports, modules, read_statements, resolver};
use crate::core::sources::Codebase;

/// One import statement and what it led to.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explained {
    /// The file holding the statement.
    pub file: String,
    /// The statement as written in its language (`from .x import y`,
    /// `use crate::a::B;`, `import "./x"`), as unresolved ones are
    /// reported.
    pub import: String,
    pub outcome: Outcome,
}

/// Where a statement led.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// These project files (an edge to each; more than one for a Python
    /// package's `__init__`; for a Go package, a C# namespace, a `p.*`
    /// every file of it, of which the graph keeps those whose names the
    /// file uses).
    Files(Vec<String>),
    /// Outside the project: not an edge, not a problem.
    External,
    /// It names the project but no file of it.
    Unresolved,
}

/// The statements of each of `paths` that is a code file of `codebase`
/// (walked), by path then order in the file.
pub fn explain(codebase: &Codebase, include_dirs: &[String], paths: &[String]) -> Vec<Explained> {
    let code = code_files(codebase.files());
    let statements = read_statements(codebase, &code);
    let (set, packages) = resolver(codebase, include_dirs, &code, &statements);
    let mut wanted: Vec<&String> = paths.iter().collect();
    wanted.sort();
    wanted.dedup();
    let mut out = Vec::new();
    for path in wanted {
        let Ok(i) = code.binary_search(&path) else {
            continue;
        };
        let Some(stmts) = statements[i].as_deref() else {
            continue;
        };
        let mut push = |import: String, r: Resolution| {
            let outcome = match r {
                Resolution::Files(files) => {
                    Outcome::Files(files.into_iter().map(|(f, _)| f.to_string()).collect())
                }
                // Every file of the package: the graph keeps those whose
                // names the file uses.
                Resolution::Package(files) => {
                    Outcome::Files(files.iter().map(|f| f.to_string()).collect())
                }
                Resolution::External => Outcome::External,
                Resolution::Unresolved => Outcome::Unresolved,
            };
            out.push(Explained {
                file: path.clone(),
                import,
                outcome,
            });
        };
        // The same three kinds, in the same order, as `file_edges`.
        let (python, includes) = imports::decode(stmts);
        for stmt in &python {
            push(stmt.to_string(), set.resolve_python(path, stmt));
        }
        for inc in &includes {
            push(inc.to_string(), set.resolve_include(path, inc));
        }
        for stmt in modules::decode(stmts) {
            push(
                stmt.to_string(),
                modules::resolve(&set, &packages, path, &stmt),
            );
        }
    }
    out
}
