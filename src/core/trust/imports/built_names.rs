//! The environment variables the scripts a command reaches write under
//! a name built as they run (consent round 9, item 2), gathered over
//! every file read: refused once any of those files may run a program.

use super::kinds::Kind;
use super::{MAX_NAMES, Reached};
use crate::core::trust::git_env;

/// The writes of an environment variable whose name is built as the
/// scripts run ([`git_env::built_name_writes`]), and whether any
/// script read may run a program (a shell script does): a
/// program run after one may be git reading a `GIT_DIR` or
/// `GIT_CONFIG_…` no review saw, so together they are a refusal.
#[derive(Default)]
pub(super) struct BuiltNames {
    writes: Vec<(String, String)>,
    runs: bool,
}

impl BuiltNames {
    pub(super) fn read(&mut self, rel: &str, kind: Kind, text: &str) {
        use git_env::{Syntax, built_name_writes, runs_programs};
        let syntax = match kind {
            Kind::Python => Syntax::Python,
            Kind::Node => Syntax::Js,
            Kind::Perl => Syntax::Perl,
            Kind::Ruby => Syntax::Ruby,
            Kind::Php => Syntax::Php,
            Kind::Shell => {
                self.runs = true;
                return;
            }
            Kind::Lua | Kind::Other => return,
        };
        self.runs |= runs_programs(text, syntax);
        for shown in built_name_writes(text, syntax).into_iter().take(MAX_NAMES) {
            if self.writes.len() < MAX_NAMES {
                self.writes.push((rel.to_string(), shown));
            }
        }
    }

    pub(super) fn refuse(&self, out: &mut Reached) {
        if !self.runs {
            return;
        }
        for (rel, shown) in &self.writes {
            out.patterns.insert(format!(
                "{}sets an environment variable whose name is built as it runs, which may be \
                 one of git's (`GIT_DIR`, `GIT_CONFIG_…`) or one that makes a program load a \
                 file (`BASH_ENV`, `LD_PRELOAD`, `NODE_OPTIONS`, …) for the programs it runs \
                 ({rel}: `{shown}`)",
                crate::core::trust::unknown::MARK
            ));
        }
    }
}
