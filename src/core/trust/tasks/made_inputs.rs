//! The sources of a file make writes before a recipe runs it (recheck
//! 25): with `run: tools/gen.sh` and `tools/%.sh: tools/%.sh.in`, make
//! remakes `tools/gen.sh` from `tools/gen.sh.in` when that is newer, and
//! the recipe `sh tools/gen.sh` runs what the `.in` says. Those sources
//! are covered as the makefiles are.

use std::path::Path;

use super::Rules;

/// The most words of the recipe lines looked up as files a rule makes.
const MAX_WORDS: usize = 512;

/// The most sources named for one make run.
const MAX_SOURCES: usize = 64;

impl Rules {
    /// The files (root-relative) that the rules making a file named by a
    /// word of `lines` (recipe lines run in folder `dir`) take as
    /// prerequisites, each an existing file no rule makes: what that file
    /// is remade from before the line runs it.
    pub(super) fn sources_of_run_files(
        &self,
        real_root: &Path,
        dir: &str,
        lines: &[&str],
    ) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let words = lines
            .iter()
            .flat_map(|line| line.split_whitespace())
            .map(|w| {
                w.trim_matches(['"', '\'', ';', '(', ')'])
                    .trim_start_matches("./")
            })
            .filter(|w| !w.is_empty() && !w.starts_with(['-', '$']) && !w.contains('%'))
            .take(MAX_WORDS);
        let mut seen: Vec<&str> = Vec::new();
        for word in words {
            if seen.contains(&word) {
                continue;
            }
            seen.push(word);
            for (rule, prerequisites) in self.making(word) {
                if rule.recipe.is_empty() {
                    continue;
                }
                // A prerequisite a rule makes in turn is an output (`main.o`
                // of `prog: main.o`), rewritten by each run: its own sources
                // are what count.
                let sources = prerequisites
                    .into_iter()
                    .filter(|p| self.making(p).iter().all(|(r, _)| r.recipe.is_empty()));
                for p in sources {
                    let Some(rel) = crate::core::module_maps::join_rel(dir, &p) else {
                        continue;
                    };
                    if out.len() < MAX_SOURCES
                        && !out.contains(&rel)
                        && real_root.join(&rel).is_file()
                    {
                        out.push(rel);
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::core::model::CommandLine;

    /// The files `command`'s make reads or covers as it reads them.
    fn files_read(root: &Path, command: &str) -> Vec<String> {
        super::super::task_lines(root, &CommandLine::Shell(command.into()))
            .into_iter()
            .filter(|t| !t.named)
            .map(|t| t.config)
            .collect()
    }

    /// A script a recipe runs that a pattern rule remakes from a template
    /// covers the template; a rule's data input that no recipe runs is not
    /// covered.
    #[test]
    fn the_source_a_run_script_is_remade_from_is_covered() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("tools")).unwrap();
        std::fs::create_dir_all(root.join("notes")).unwrap();
        std::fs::write(
            root.join("Makefile"),
            "run: tools/gen.sh out/a.txt\n\tsh tools/gen.sh\n\n\
             tools/%.sh: tools/%.sh.in\n\tcp $< $@\n\n\
             out/%.txt: notes/%.md\n\tcp $< $@\n\n\
             prog: main.o\n\tcc -o prog main.o\n\n\
             %.o: %.c\n\tcc -c $<\n\n\
             test: prog\n\t./prog\n",
        )
        .unwrap();
        std::fs::write(root.join("tools/gen.sh.in"), "echo hi\n").unwrap();
        std::fs::write(root.join("tools/gen.sh"), "echo hi\n").unwrap();
        std::fs::write(root.join("notes/a.md"), "# a\n").unwrap();
        let read = files_read(root, "make run");
        assert!(read.contains(&"tools/gen.sh.in".to_string()), "{read:?}");
        assert!(!read.contains(&"notes/a.md".to_string()), "{read:?}");
        // A program built and run: its sources, not its objects.
        std::fs::write(root.join("main.c"), "int main(void) { return 0; }\n").unwrap();
        std::fs::write(root.join("main.o"), "").unwrap();
        let read = files_read(root, "make test");
        assert!(read.contains(&"main.c".to_string()), "{read:?}");
        assert!(!read.contains(&"main.o".to_string()), "{read:?}");
    }
}
