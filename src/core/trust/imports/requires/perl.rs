//! What a Perl script loads from the project: `use`/`require` of a
//! module in each `use lib`/`@INC`/`-I`/`PERL5LIB` folder, and
//! `require`/`do` of a file. Moved out of `requires.rs` (consent round
//! 7); no change of behaviour.

use super::{Candidates, MAX_LOAD_PATH, call_args, code_lines, leading_quoted, leading_string};
use crate::core::paths::lexical;
use std::path::{Path, PathBuf};

/// Perl: the modules `use`d or `require`d in the folders `use lib` and
/// `@INC` additions name, then in `load_path` (the command's `-I` and
/// `PERL5LIB`), and the files `require`/`do` name by a relative path, for
/// a script in `here` run from `root`.
pub(in crate::core::trust::imports) fn perl(
    text: &str,
    here: &Path,
    root: &Path,
    load_path: &mut Vec<PathBuf>,
    unknown: &mut Vec<String>,
) -> Vec<Candidates> {
    let lines: Vec<&str> = code_lines(text, '#').collect();
    // `@INC` is the process's: what one file adds, the files it loads
    // search too.
    let dir_of = |expr: &str| perl_dir(expr, here, root);
    for dir in super::super::run_loads::perl_libs(text, root, dir_of, unknown) {
        if !load_path.contains(&dir) && load_path.len() < MAX_LOAD_PATH {
            load_path.push(dir);
        }
    }
    let libs = load_path.clone();
    let mut out = Vec::new();
    for line in &lines {
        for keyword in ["use", "require", "do"] {
            for arg in call_args(line, keyword) {
                if let Some(name) = leading_string(arg.trim_start_matches('(').trim_start()) {
                    if name.starts_with("./") || name.starts_with("../") {
                        out.push(vec![root.join(name)]);
                    } else if !name.starts_with('/') && !libs.is_empty() {
                        // `do "conf.pl"` searches `@INC` (not `.`).
                        out.push(libs.iter().map(|lib| lib.join(name)).collect());
                    }
                    continue;
                }
                let module: String = arg
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                if keyword == "do" || module.is_empty() || module == "lib" {
                    continue;
                }
                let rel = format!("{}.pm", module.replace("::", "/"));
                if !libs.is_empty() {
                    out.push(
                        libs.iter()
                            .flat_map(|lib| module_places(lib, &rel))
                            .collect(),
                    );
                }
            }
        }
    }
    out
}

/// Where perl looks for the module file `rel` (`A/B.pm`) in the search
/// folder `lib`, in its order: `lib.pm` (and `PERL5LIB`) put the folder's
/// version and architecture folders ahead of it when they exist
/// (`lib/5.36.0/x86_64-linux-gnu-thread-multi`, `lib/5.36.0`,
/// `lib/x86_64-linux-gnu-thread-multi`), and in each folder `B.pmc` is
/// loaded before `B.pm`. A new file at any of these places runs instead of
/// the one consented to (recheck 16, F-PMC).
fn module_places(lib: &Path, rel: &str) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some((arch, version)) = perl_config() {
        dirs.push(lib.join(version).join(arch));
        dirs.push(lib.join(version));
        dirs.push(lib.join(arch));
    }
    dirs.push(lib.to_path_buf());
    dirs.iter()
        .flat_map(|dir| [dir.join(format!("{rel}c")), dir.join(rel)])
        .collect()
}

/// The architecture and version names of the perl on this machine
/// (`$Config{archname}`, `$Config{version}`), asked once of the system's
/// own perl with an empty environment (so nothing of the project's is
/// loaded); `None` without one.
pub(super) fn perl_config() -> Option<&'static (String, String)> {
    static CONFIG: std::sync::OnceLock<Option<(String, String)>> = std::sync::OnceLock::new();
    CONFIG
        .get_or_init(|| {
            let perl = ["/usr/bin/perl", "/usr/local/bin/perl", "/bin/perl"]
                .into_iter()
                .find(|p| Path::new(p).is_file())?;
            let out = std::process::Command::new(perl)
                .args([
                    "-MConfig",
                    "-e",
                    "print \"$Config{archname}\\n$Config{version}\\n\"",
                ])
                .env_clear()
                .current_dir("/")
                .stdin(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .output()
                .ok()?;
            let text = String::from_utf8(out.stdout).ok()?;
            let mut lines = text.lines();
            // A folder's name, never a path.
            let name = |s: &str| {
                (!s.is_empty() && !s.contains('/') && s != "." && s != "..").then(|| s.to_string())
            };
            let arch = lines.next().and_then(name)?;
            let version = lines.next().and_then(name)?;
            Some((arch, version))
        })
        .as_ref()
}

/// The folder a `use lib` or `@INC` addition names (`expr`, what follows
/// it): from the script's folder when it starts at `$FindBin::Bin`,
/// `$Bin` (`RealBin` too), `dirname(__FILE__)` or `dirname($0)`, the
/// strings that follow joined below it (`"$Bin/lib"`,
/// `File::Spec->catdir($Bin, 'lib')`, `dirname(__FILE__) . '/lib'`); a
/// plain string from the root; `None` for one built otherwise.
pub(super) fn perl_dir(expr: &str, here: &Path, root: &Path) -> Option<PathBuf> {
    const SCRIPT_DIR: [&str; 6] = [
        "$FindBin::RealBin",
        "$FindBin::Bin",
        "$RealBin",
        "$Bin",
        "dirname(__FILE__)",
        "dirname($0)",
    ];
    let expr = expr.trim_start_matches(['(', 'q', 'w']).trim_start();
    let local = SCRIPT_DIR.iter().any(|v| expr.contains(v));
    let mut pieces = Vec::new();
    let mut rest = expr;
    while let Some(at) = rest.find(['\'', '"']) {
        let Some(s) = leading_quoted(&rest[at..]) else {
            break;
        };
        rest = &rest[at + s.len() + 2..];
        let s = SCRIPT_DIR
            .iter()
            .fold(s, |s, v| s.strip_prefix(v).unwrap_or(s));
        if s.contains('$') || (!local && s.starts_with('/')) {
            return None;
        }
        pieces.push(s.trim_matches('/'));
    }
    let below = pieces.join("/");
    let dir = match (local, pieces.is_empty()) {
        (true, _) => here.join(below),
        (false, true) => return None,
        (false, false) if pieces.len() > 1 => return None,
        (false, false) => root.join(below),
    };
    Some(lexical(&dir))
}
