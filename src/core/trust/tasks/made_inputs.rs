//! What make remakes before a recipe runs, and from what (recheck 25,
//! 26): with `run: tools/gen.sh` and `tools/%.sh: tools/%.sh.in`, make
//! remakes `tools/gen.sh` from `tools/gen.sh.in` when that is newer, and
//! the recipe `sh tools/gen.sh` runs what the `.in` says; its built-in
//! rules do the same with no rule written (`tools/sum` from a newer
//! `tools/sum.sh` or `tools/sum.c`); it remakes every makefile it reads
//! (`include gen.mk` with `gen.mk: gen.mk.in`) and starts again; a
//! `.DEFAULT` recipe makes what no rule does; `load` runs a shared object
//! inside make. The sources found are covered as the makefiles are, and
//! the names the built-in rules would look for are one place (a file
//! appearing there changes it).

use std::path::Path;

use super::Rules;

/// The most words of the recipe lines looked up as files a rule makes.
const MAX_WORDS: usize = 512;

/// The most sources covered for one make run; past them the reading is
/// cut (a source left out would run unreviewed).
const MAX_SOURCES: usize = super::MAX_GOALS;

/// The most sources looked for for one make run; past them the reading
/// is cut.
const MAX_LOOKUPS: usize = 50_000;

/// How many built-in rules are chained (`tools/sum` from `tools/sum.c`
/// from `tools/sum.y`).
const MAX_CHAIN: usize = 2;

/// GNU make's built-in pattern rules (`make -p -f /dev/null`), as the
/// suffix of the target and the suffixes of the sources it is made from
/// (`""`: any file, `%: %.c`). The version-control ones are
/// [`VERSION_CONTROL`].
const BUILT_IN: &[(&str, &[&str])] = &[
    (
        "",
        &[
            ".C", ".F", ".S", ".c", ".cc", ".cpp", ".f", ".m", ".mod", ".o", ".p", ".r", ".s",
            ".sh",
        ],
    ),
    (
        ".o",
        &[
            ".C", ".F", ".S", ".c", ".cc", ".cpp", ".f", ".m", ".mod", ".p", ".r", ".s",
        ],
    ),
    (".c", &[".l", ".w", ".y"]),
    (".s", &[".S"]),
    (".f", &[".F", ".r"]),
    (".r", &[".l"]),
    (".m", &[".ym"]),
    (".p", &[".web"]),
    (".tex", &[".w", ".web"]),
    (".sym", &[".def"]),
    (".ln", &[".c", ".l", ".y"]),
    // `%.out: %`: the stem itself.
    (".out", &[""]),
];

/// The version-control checkouts make's built-in rules make any file
/// from (`%:: RCS/%,v`, `%:: SCCS/s.%`, …), `{}` the file's name in its
/// folder.
const VERSION_CONTROL: &[&str] = &["{},v", "RCS/{},v", "RCS/{}", "SCCS/s.{}", "s.{}"];

/// What make remakes for one run: the sources to cover, and the place
/// of the names looked for.
pub(super) struct Remade {
    pub sources: Vec<String>,
    pub place: Option<String>,
}

impl Rules {
    /// `goals` and what make remakes before them: every makefile it read
    /// (`read`, root-relative) and the objects it `load`s, and `.DEFAULT`
    /// when a rule gives it a recipe (it makes what no rule does).
    pub(super) fn goals_with_remakes(
        &self,
        mut goals: Vec<String>,
        read: &[String],
    ) -> Vec<String> {
        let here = |rel: &str| match self.dir.as_str() {
            "" => rel.to_string(),
            dir => rel
                .strip_prefix(&format!("{dir}/"))
                .unwrap_or(rel)
                .to_string(),
        };
        goals.extend(read.iter().map(|rel| here(rel)));
        goals.extend(self.loads.iter().cloned());
        if self
            .rules
            .iter()
            .any(|r| r.targets.iter().any(|t| t == ".DEFAULT") && !r.recipe.is_empty())
        {
            goals.push(".DEFAULT".to_string());
        }
        goals
    }

    /// A `load` line's shared objects (`tools/ext.so`, `ext.so(init)`):
    /// one whose name is known only as make runs cuts the reading.
    pub(super) fn load(&mut self, names: &str) {
        // A pattern (`$(wildcard tools/*.so)`) matches an object added
        // later (recheck 26).
        if names.contains("wildcard") || names.contains(['*', '?', '[']) {
            super::refuse(format!(
                "loads into make the shared objects a pattern matches (`load {}`), which an \
                 object added later would match",
                names.trim()
            ));
            return;
        }
        let names = self.expand(names);
        for name in names.split_whitespace() {
            let name = name.split_once('(').map_or(name, |(file, _)| file);
            if name.contains('$') || self.loads.len() >= MAX_WORDS {
                super::cut();
            } else if !self.loads.iter().any(|l| l == name) {
                self.loads.push(name.to_string());
            }
        }
    }

    /// Under `.SECONDEXPANSION`, each prerequisite holding a `$` expanded
    /// again (`$$(SUMSCRIPT)`, `$(SUMSCRIPT)`): what make names there as
    /// it runs. One still holding a `$` (`$$@`) cuts the reading.
    pub(super) fn expand_again(&mut self) {
        if !self.second_expansion {
            return;
        }
        for at in 0..self.rules.len() {
            if !self.rules[at].prerequisites.iter().any(|p| p.contains('$')) {
                continue;
            }
            let written = std::mem::take(&mut self.rules[at].prerequisites);
            let mut again: Vec<String> = Vec::new();
            for p in written {
                if !p.contains('$') {
                    again.push(p);
                    continue;
                }
                let expanded = self.expand(&p.replace("$$", "$"));
                if expanded.contains('$') {
                    super::cut();
                }
                again.extend(expanded.split_whitespace().map(str::to_string));
            }
            self.rules[at].prerequisites = again;
        }
    }

    /// What make remakes, run in folder `dir` for `goals` (with the
    /// makefiles and loaded objects), before the recipe `lines` run: the
    /// existing files (root-relative, none make writes) that the rules
    /// making a goal or a file a line names take, or make's built-in rules
    /// would take for one no written rule makes; with the place of every
    /// source looked for, there or not. A prerequisite no line runs (data
    /// a recipe copies) is not followed: its edits would ask again for
    /// nothing that runs.
    pub(super) fn remade(
        &self,
        real_root: &Path,
        dir: &str,
        goals: &[String],
        lines: &[&str],
    ) -> Remade {
        let mut sources: Vec<String> = Vec::new();
        let add = |rel: String, sources: &mut Vec<String>| {
            if sources.contains(&rel) {
                return;
            }
            match sources.len() < MAX_SOURCES {
                true => sources.push(rel),
                false => super::cut(),
            }
        };
        let words = lines
            .iter()
            .flat_map(|line| line.split_whitespace())
            .map(|w| {
                w.trim_matches(['"', '\'', ';', '(', ')'])
                    .trim_start_matches("./")
            })
            .filter(|w| !w.is_empty() && !w.starts_with(['-', '$']) && !w.contains('%'))
            .take(MAX_WORDS)
            .map(str::to_string);
        let mut looked_for: Vec<(String, bool)> = Vec::new();
        let mut named: Vec<String> = Vec::new();
        for word in goals.iter().cloned().chain(words) {
            if !named.contains(&word) {
                named.push(word);
            }
        }
        for word in &named {
            for (rule, prerequisites) in self.making(word) {
                if rule.recipe.is_empty() {
                    continue;
                }
                // A prerequisite a rule makes in turn is an output (`main.o`
                // of `prog: main.o`), rewritten by each run: its own sources
                // are what count.
                // One not there yet is looked for: added, make remakes the
                // file from it.
                for p in prerequisites
                    .iter()
                    .filter(|p| !self.is_output(real_root, dir, p))
                {
                    let Some(rel) = crate::core::module_maps::join_rel(dir, p) else {
                        continue;
                    };
                    let there = real_root.join(&rel).is_file();
                    if there {
                        add(rel.clone(), &mut sources);
                    }
                    looked_for.push((rel, there));
                }
            }
        }
        // A loaded object runs inside make: itself, there or not.
        for load in &self.loads {
            if let Some(rel) = crate::core::module_maps::join_rel(dir, load) {
                let there = real_root.join(&rel).is_file();
                if there {
                    add(rel.clone(), &mut sources);
                }
                looked_for.push((rel, there));
            }
        }
        for goal in named.iter().filter(|g| !self.made_by_a_recipe(g)) {
            if looked_for.len() >= MAX_LOOKUPS {
                super::cut();
                break;
            }
            for candidate in built_in_sources(goal) {
                let Some(rel) = crate::core::module_maps::join_rel(dir, &candidate) else {
                    continue;
                };
                let there = real_root.join(&rel).is_file();
                if there {
                    add(rel.clone(), &mut sources);
                }
                looked_for.push((rel, there));
            }
        }
        Remade {
            sources,
            place: built_in_place(looked_for),
        }
    }

    /// Whether make writes `name` (run in `dir`): a rule with a recipe
    /// makes it, or a built-in rule from a source that is there (`main.o`
    /// beside `main.c`), so a run rewrites it.
    fn is_output(&self, real_root: &Path, dir: &str, name: &str) -> bool {
        self.made_by_a_recipe(name)
            || built_in_sources(name).iter().any(|source| {
                crate::core::module_maps::join_rel(dir, source)
                    .is_some_and(|rel| real_root.join(rel).is_file())
            })
    }

    /// Whether a rule with a recipe makes `name` (an output make writes).
    /// A match-anything rule (`%: %.in`) makes every name: it counts
    /// only with its source there.
    fn made_by_a_recipe(&self, name: &str) -> bool {
        self.making(name).iter().any(|(r, prerequisites)| {
            !r.recipe.is_empty()
                && (!r.targets.iter().any(|t| t == "%")
                    || prerequisites.iter().all(|p| {
                        crate::core::module_maps::join_rel(&self.dir, p)
                            .is_some_and(|rel| self.root.join(rel).is_file())
                    }))
        })
    }
}

/// The files make's built-in rules would make `goal` from, through
/// [`MAX_CHAIN`] rules (`tools/sum.sh`, `tools/sum.c`, `tools/sum.y`,
/// `tools/RCS/sum,v`, …).
fn built_in_sources(goal: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut made = vec![goal.to_string()];
    for level in 0..MAX_CHAIN {
        let mut next = Vec::new();
        for target in &made {
            let (folder, name) = match target.rsplit_once('/') {
                Some((folder, name)) => (format!("{folder}/"), name),
                None => (String::new(), target.as_str()),
            };
            if name.is_empty() || name.starts_with('.') && !name[1..].contains('.') {
                continue;
            }
            // A checkout from version control: the goal's own (its
            // sources' are a rarity the lookups would multiply).
            for form in VERSION_CONTROL.iter().filter(|_| level == 0) {
                out.push(format!("{folder}{}", form.replace("{}", name)));
            }
            // A match-anything rule (`%: %.c`) makes no file a specific
            // rule's target names (`x.o`), nor one made on the way.
            let specific = BUILT_IN
                .iter()
                .any(|(suffix, _)| !suffix.is_empty() && name.ends_with(suffix));
            for (suffix, sources) in BUILT_IN {
                if suffix.is_empty() && (level > 0 || specific) {
                    continue;
                }
                let Some(stem) = target.strip_suffix(suffix) else {
                    continue;
                };
                if stem.is_empty() || stem.ends_with('/') {
                    continue;
                }
                for source in sources.iter().map(|s| format!("{stem}{s}")) {
                    if !out.contains(&source) && &source != target {
                        next.push(source.clone());
                        out.push(source);
                    }
                }
            }
        }
        made = next;
    }
    out
}

/// One place for the sources make's rules, written and built in, were
/// looked for by: how many, and a hash of which are there (one appearing
/// changes it).
fn built_in_place(looked_for: Vec<(String, bool)>) -> Option<String> {
    use sha2::{Digest, Sha256};
    if looked_for.is_empty() {
        return None;
    }
    let mut hasher = Sha256::new();
    let mut there = 0usize;
    for (rel, is_there) in &looked_for {
        hasher.update(rel.as_bytes());
        hasher.update(if *is_there { b"\x01" } else { b"\x00" });
        there += usize::from(*is_there);
    }
    let hash: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Some(format!(
        "make: {} sources its rules look for ({there} there), sha256 {hash}",
        looked_for.len()
    ))
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

    /// Recheck 26: what make remakes before it runs a recipe (built-in
    /// rules, makefiles it read, `.SECONDEXPANSION`, `.DEFAULT`, `load`):
    /// a change there changes what the consent covers.
    #[test]
    fn what_make_remakes_first_is_covered() {
        type Change = fn(&Path);
        type Files = &'static [(&'static str, &'static str)];
        let cases: &[(&str, Files, Change)] = &[
            (
                "summary: tools/sum\n\t@sh tools/sum\n",
                &[("tools/sum", "echo hi\n")],
                |root| std::fs::write(root.join("tools/sum.sh"), "touch x\n").unwrap(),
            ),
            (
                "summary: tools/sum\n\t@./tools/sum\n",
                &[("tools/sum.c", "int main(void) { return 0; }\n")],
                |root| std::fs::write(root.join("tools/sum.c"), "int main;\n").unwrap(),
            ),
            (
                "include gen.mk\ngen.mk: gen.mk.in\n\tcp $< $@\n",
                &[
                    ("gen.mk", "summary:\n\t@echo\n"),
                    ("gen.mk.in", "summary:\n\t@echo\n"),
                ],
                |root| std::fs::write(root.join("gen.mk.in"), "summary:\n\t@touch x\n").unwrap(),
            ),
            (
                "include rules.mk\n%.mk: %.mk.in\n\tcp $< $@\n",
                &[("rules.mk", "summary:\n\t@echo\n")],
                |root| std::fs::write(root.join("rules.mk.in"), "summary:\n\t@touch x\n").unwrap(),
            ),
            (
                "Makefile: Makefile.in\n\tcp $< $@\nsummary:\n\t@echo\n",
                &[("Makefile.in", "summary:\n\t@echo\n")],
                |root| std::fs::write(root.join("Makefile.in"), "summary:\n\t@touch x\n").unwrap(),
            ),
            (
                ".SECONDEXPANSION:\nSUMSCRIPT = tools/sum.sh\nsummary: $$(SUMSCRIPT)\n\t@sh $<\n",
                &[("tools/sum.sh", "echo hi\n")],
                |root| std::fs::write(root.join("tools/sum.sh"), "touch x\n").unwrap(),
            ),
            (
                "summary: x\n\t@echo\n.DEFAULT:\n\t@sh tools/mk.sh $@\n",
                &[("tools/mk.sh", "echo hi\n")],
                |root| std::fs::write(root.join("tools/mk.sh"), "touch x\n").unwrap(),
            ),
            (
                "load tools/ext.so\nsummary:\n\t@echo\n",
                &[("tools/ext.so", "ELF")],
                |root| std::fs::write(root.join("tools/ext.so"), "ELF2").unwrap(),
            ),
            (
                "load tools/ext.so\nsummary:\n\t@echo\ntools/ext.so: tools/ext.c\n\tcc -shared -o $@ $<\n",
                &[("tools/ext.c", "int x;\n")],
                |root| std::fs::write(root.join("tools/ext.c"), "int y;\n").unwrap(),
            ),
            // Recheck 26 again: old-style suffix rules, `%.out: %`, a
            // missing `-include` a rule would make.
            (
                ".SUFFIXES: .in\n.in:\n\t@cp $< $@\nsummary: tools/sum\n\t@sh tools/sum\n",
                &[("tools/sum", "echo hi\n")],
                |root| std::fs::write(root.join("tools/sum.in"), "touch x\n").unwrap(),
            ),
            (
                ".SUFFIXES: .tpl .run\n.tpl.run:\n\t@cp $< $@\nsummary: tools/s.run\n\t@sh tools/s.run\n",
                &[("tools/s.tpl", "echo hi\n")],
                |root| std::fs::write(root.join("tools/s.tpl"), "touch x\n").unwrap(),
            ),
            (
                "summary: tools/sum.out\n\t@sh tools/sum.out\n",
                &[("tools/sum", "echo hi\n")],
                |root| std::fs::write(root.join("tools/sum"), "touch x\n").unwrap(),
            ),
            (
                "-include gen.mk\ngen.mk: gen.mk.in\n\tcp $< $@\nsummary:\n\t@echo\n",
                &[],
                |root| std::fs::write(root.join("gen.mk.in"), "summary:\n\t@touch x\n").unwrap(),
            ),
        ];
        let command = toml::Value::String("make -s summary".into());
        for &(makefile, files, change) in cases {
            let dir = tempfile::tempdir().unwrap();
            let root = dir.path();
            std::fs::create_dir_all(root.join("tools")).unwrap();
            std::fs::write(root.join("Makefile"), makefile).unwrap();
            for (name, text) in files {
                std::fs::write(root.join(name), text).unwrap();
            }
            let before = crate::core::trust::scripts::covered(root, &command);
            assert!(
                before.patterns.is_empty(),
                "{makefile}: {:?}",
                before.patterns
            );
            change(root);
            let after = crate::core::trust::scripts::covered(root, &command);
            assert_ne!(after, before, "{makefile}");
        }
    }

    /// A C program built and run: its objects and the program, written by
    /// the run, change nothing the consent covers.
    #[test]
    fn a_build_s_own_outputs_change_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(
            root.join("Makefile"),
            "summary: prog\n\t./prog\nprog: main.o util.o\n\tcc -o prog $^\n",
        )
        .unwrap();
        std::fs::write(root.join("main.c"), "int main(void) { return 0; }\n").unwrap();
        std::fs::write(root.join("util.c"), "int u;\n").unwrap();
        let command = toml::Value::String("make -s summary".into());
        let before = crate::core::trust::scripts::covered(root, &command);
        assert!(before.patterns.is_empty(), "{:?}", before.patterns);
        let paths: Vec<&str> = before.scripts.iter().map(|s| s.path.as_str()).collect();
        assert!(
            paths.contains(&"main.c") && paths.contains(&"util.c"),
            "{paths:?}"
        );
        for output in ["main.o", "util.o", "prog"] {
            std::fs::write(root.join(output), "built").unwrap();
        }
        // The outputs a line names are looked up as any word is; the
        // sources make's rules look for are as they were.
        let after = crate::core::trust::scripts::covered(root, &command);
        assert_eq!(after.places, before.places);
        assert!(before.places.iter().any(|p| p.starts_with("make: ")));
    }

    /// What make would read or load that is not followed is refused: a
    /// `MAKEFILES` a sub-make reads first, a `-lNAME` prerequisite, a
    /// `load` of a pattern (recheck 26).
    #[test]
    fn what_make_finds_by_searching_is_refused() {
        let command = toml::Value::String("make -s summary".into());
        for makefile in [
            "export MAKEFILES := extra.mk\nsummary:\n\t@$(MAKE) -s real\nreal:\n\t@echo\n",
            "summary: -lsum\n\t@sh $<\n",
            "load $(wildcard tools/*.so)\nsummary:\n\t@echo\n",
        ] {
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join("Makefile"), makefile).unwrap();
            let covered = crate::core::trust::scripts::covered(dir.path(), &command);
            assert!(!covered.patterns.is_empty(), "{makefile}");
        }
    }
}
