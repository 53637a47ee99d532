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
    /// Whether a built-in rule compiles a source that is there: its recipe
    /// (`$(CC) $(CFLAGS) …`) runs then, with what the variables name.
    pub compiles: bool,
}

/// How many written pattern rules are chained (`%.S: %.S.tpl` then
/// `%.s: %.S`, each written).
const MAX_WRITTEN_CHAIN: usize = 4;

/// A name make may remake, with how it was reached.
#[derive(Clone)]
struct Link {
    name: String,
    /// The written pattern rules (their indices) it was reached through.
    chain: Vec<usize>,
    /// It is a source a built-in rule looks for.
    built_in: bool,
    /// A line runs it (or what it is made into): its sources' own
    /// sources count too.
    runs: bool,
}

/// The sources found for one make run, and every name looked for.
#[derive(Default)]
struct Found {
    sources: Vec<String>,
    looked_for: Vec<(String, bool)>,
    /// `looked_for` by name.
    known: std::collections::HashMap<String, bool>,
    compiles: bool,
}

impl Found {
    /// Look for root-relative `rel`: one there is a source (past
    /// [`MAX_SOURCES`] the reading is cut). Whether it is there.
    fn look(&mut self, real_root: &Path, rel: String) -> bool {
        if let Some(there) = self.known.get(&rel) {
            return *there;
        }
        let there = real_root.join(&rel).is_file();
        self.known.insert(rel.clone(), there);
        if there && !self.sources.contains(&rel) {
            self.compiles |= COMPILED.iter().any(|c| rel.ends_with(c));
            match self.sources.len() < MAX_SOURCES {
                true => self.sources.push(rel.clone()),
                false => super::cut(),
            }
        }
        self.looked_for.push((rel, there));
        there
    }
}

/// The suffixes of the sources make's built-in rules compile.
const COMPILED: &[&str] = &[
    ".c", ".cc", ".cpp", ".C", ".s", ".S", ".f", ".F", ".r", ".m", ".p", ".mod", ".o",
];

/// What make's built-in compiling rules run, as a recipe line: the
/// programs and the options they are given (`-include tools/pre.h`,
/// `@tools/cflags` name files the review then covers).
pub(super) const BUILT_IN_COMPILE: &str = "$(CC) $(CFLAGS) $(CXX) $(CXXFLAGS) $(CPPFLAGS) \
     $(LDFLAGS) $(TARGET_ARCH) $(LDLIBS) $(AS) $(ASFLAGS) $(FC) $(FFLAGS) $(LD)";

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
        let mut found = Found::default();
        let words: Vec<String> = words.collect();
        let mut named: Vec<String> = Vec::new();
        for word in goals.iter().chain(&words) {
            if !named.contains(word) {
                named.push(word.clone());
            }
        }
        // A loaded object runs inside make: itself, there or not.
        for load in &self.loads {
            if let Some(rel) = crate::core::module_maps::join_rel(dir, load) {
                found.look(real_root, rel);
            }
        }
        // Each name with the written pattern rules it was reached
        // through (make uses no rule twice in one chain) and whether a
        // built-in rule's source (their own chains are `built_in_sources`').
        let mut work: Vec<Link> = named
            .into_iter()
            .map(|name| Link {
                runs: words.contains(&name),
                name,
                chain: Vec::new(),
                built_in: false,
            })
            .collect();
        let mut seen: std::collections::HashSet<(String, bool)> = Default::default();
        let mut at = 0;
        while at < work.len() {
            if found.looked_for.len() >= MAX_LOOKUPS || work.len() >= MAX_LOOKUPS {
                super::cut();
            }
            if super::was_cut() {
                break;
            }
            let link = work[at].clone();
            at += 1;
            if !seen.insert((link.name.clone(), link.built_in)) {
                continue;
            }
            let next = self.written_sources(real_root, dir, &link, &mut found);
            let by_recipe = self.made_by_a_recipe(&link.name, &link.chain);
            if !link.built_in && !by_recipe {
                work.extend(self.built_in_looked_for(real_root, dir, &link, &mut found));
            }
            // What a line runs is made from its sources, and theirs; a
            // goal's own prerequisites only (data a recipe copies).
            if link.runs {
                work.extend(
                    next.into_iter()
                        .filter(|l| l.chain.len() <= MAX_WRITTEN_CHAIN),
                );
            }
        }
        self.add_headers(real_root, &mut found.sources, &mut found.looked_for);
        Remade {
            sources: found.sources,
            place: built_in_place(found.looked_for),
            compiles: found.compiles,
        }
    }

    /// Whether pattern rule `rule` is one of `chain`'s.
    fn in_chain(&self, rule: &super::Rule, chain: &[usize]) -> bool {
        rule.targets.iter().any(|t| t.contains('%'))
            && self
                .rules
                .iter()
                .position(|r| std::ptr::eq(r, rule))
                .is_some_and(|i| chain.contains(&i))
    }

    /// What the written rules with a recipe that make `link`'s name make
    /// it from (none already in its chain): each looked for in `found`,
    /// one not there yet too (added, make remakes the file from it); a
    /// prerequisite a rule makes in turn is an output (`main.o` of `prog:
    /// main.o`), rewritten by each run, not looked for. Each, to follow
    /// in turn.
    fn written_sources(
        &self,
        real_root: &Path,
        dir: &str,
        link: &Link,
        found: &mut Found,
    ) -> Vec<Link> {
        let mut next = Vec::new();
        for (rule, prerequisites) in self.making(&link.name) {
            if rule.recipe.is_empty() || self.in_chain(rule, &link.chain) {
                continue;
            }
            let index = self.rules.iter().position(|r| std::ptr::eq(r, rule));
            let pattern = rule.targets.iter().any(|t| t.contains('%'));
            let mut chain = link.chain.clone();
            chain.extend(index.filter(|_| pattern));
            // A match-anything rule (`%: %.in`) makes any name: followed
            // only from a source that is there, as in `recipes_of`.
            let anything = rule.targets.iter().any(|t| t == "%");
            for p in prerequisites {
                if super::was_cut() || found.looked_for.len() >= MAX_LOOKUPS {
                    super::cut();
                    return next;
                }
                if anything {
                    let there = crate::core::module_maps::join_rel(dir, &p)
                        .is_some_and(|rel| found.look(real_root, rel));
                    if !there {
                        continue;
                    }
                } else if !self.is_output(real_root, dir, &p, &chain) {
                    // Where make looks for it: there, then the `vpath`
                    // folders.
                    for at in std::iter::once(p.clone()).chain(self.vpath_names(&p)) {
                        if let Some(rel) = crate::core::module_maps::join_rel(dir, &at) {
                            found.look(real_root, rel);
                        }
                    }
                }
                next.push(Link {
                    name: p,
                    chain: chain.clone(),
                    built_in: false,
                    runs: link.runs,
                });
            }
        }
        next
    }

    /// The sources make's built-in rules would make `link`'s name from,
    /// looked for in `found` where make looks: there, and in the
    /// `vpath`/`VPATH` folders (recheck 26: `vpath %.sh src` found a new
    /// `src/sum.sh` for `sum`). Those not there, for the written rules
    /// that could make them (`%.S: %.S.tpl` before `%: %.S`, recheck 27).
    fn built_in_looked_for(
        &self,
        real_root: &Path,
        dir: &str,
        link: &Link,
        found: &mut Found,
    ) -> Vec<Link> {
        let mut missing = Vec::new();
        for candidate in built_in_sources(&link.name) {
            let mut there = false;
            for at in std::iter::once(candidate.clone()).chain(self.vpath_names(&candidate)) {
                if let Some(rel) = crate::core::module_maps::join_rel(dir, &at) {
                    there |= found.look(real_root, rel);
                }
            }
            if !there {
                missing.push(Link {
                    name: candidate,
                    chain: link.chain.clone(),
                    built_in: true,
                    runs: link.runs,
                });
            }
        }
        missing
    }

    /// The project headers the C-family `sources` include (`#include
    /// "sum.h"`: recheck 26), and theirs: looked for beside the file and
    /// in the `-I` folders the compiler options name; one there is covered,
    /// one not there beside the file is looked for (added, it is the one
    /// included).
    fn add_headers(
        &self,
        real_root: &Path,
        sources: &mut Vec<String>,
        looked_for: &mut Vec<(String, bool)>,
    ) {
        let folders = self.include_folders();
        let mut at = 0;
        while at < sources.len() && at < MAX_SOURCES {
            let source = sources[at].clone();
            at += 1;
            let c_family = source
                .rsplit_once('.')
                .is_some_and(|(_, ext)| C_FAMILY.contains(&ext));
            if !c_family {
                continue;
            }
            let Some(text) = crate::core::trust::imports::small_text(&real_root.join(&source))
            else {
                continue;
            };
            let here = source.rsplit_once('/').map_or("", |(dir, _)| dir);
            for name in quoted_includes(&text) {
                let beside = crate::core::module_maps::join_rel(here, &name);
                let found = beside
                    .iter()
                    .cloned()
                    .chain(
                        folders
                            .iter()
                            .filter_map(|f| crate::core::module_maps::join_rel(f, &name)),
                    )
                    .find(|rel| real_root.join(rel).is_file());
                match found {
                    Some(rel) if !sources.contains(&rel) => {
                        if sources.len() >= MAX_SOURCES {
                            super::cut();
                            return;
                        }
                        sources.push(rel);
                    }
                    Some(_) => {}
                    None => looked_for.extend(beside.map(|rel| (rel, false))),
                }
            }
        }
    }

    /// The `-I` folders the compiler options of the makefiles name
    /// (relative to where make runs, joined to the root-relative folder).
    fn include_folders(&self) -> Vec<String> {
        let mut out = Vec::new();
        for name in ["CFLAGS", "CPPFLAGS", "CXXFLAGS"] {
            let Some(value) = self.variables.get(name) else {
                continue;
            };
            let mut words = value.split_whitespace();
            while let Some(word) = words.next() {
                let folder = match word {
                    "-I" | "-iquote" => words.next(),
                    w => w.strip_prefix("-I").or_else(|| w.strip_prefix("-iquote")),
                };
                if let Some(folder) = folder.filter(|f| !f.is_empty() && !f.contains('$'))
                    && let Some(rel) = crate::core::module_maps::join_rel(&self.dir, folder)
                    && out.len() < 64
                {
                    out.push(rel);
                }
            }
        }
        out
    }

    /// A refusal for each compiler option among the flags variables and
    /// recipe `lines` that makes the compiler run a program or load code
    /// from a path (`-Btools/`, `-wrapper`, `-fplugin=`, `-specs=`:
    /// recheck 26): what is there is not reviewed.
    pub(super) fn refuse_compiler_programs(&self, lines: &[&str]) {
        let flags = [
            "CFLAGS", "CPPFLAGS", "CXXFLAGS", "LDFLAGS", "ASFLAGS", "CC", "CXX",
        ]
        .iter()
        .filter_map(|name| self.variables.get(*name).map(String::as_str));
        for text in flags.chain(lines.iter().copied()) {
            for word in text.split_whitespace() {
                let word = word.trim_matches(['"', '\'']);
                // The linker's own `-Bstatic`, `-Bsymbolic`, … are none.
                let linker = [
                    "-Bstatic",
                    "-Bdynamic",
                    "-Bsymbolic",
                    "-Bshareable",
                    "-Bno-",
                ]
                .iter()
                .any(|o| word.starts_with(o));
                let runs = ["-B", "-wrapper", "-fplugin=", "-specs=", "--specs="]
                    .iter()
                    .any(|o| word.starts_with(o));
                let runs = runs && !linker;
                if runs {
                    super::refuse(format!(
                        "gives the compiler `{word}`, which makes it run programs or load code \
                         from a path that is not reviewed"
                    ));
                }
            }
        }
    }

    /// `name` in each folder `vpath` (for a pattern it matches) and
    /// `VPATH` name, at most 16.
    fn vpath_names(&self, name: &str) -> Vec<String> {
        if name.starts_with('/') {
            return Vec::new();
        }
        self.vpath_folders(name)
            .into_iter()
            .filter(|f| !f.contains('$'))
            .take(16)
            .map(|folder| format!("{}/{name}", folder.trim_end_matches('/')))
            .collect()
    }

    /// Whether make writes `name` (run in `dir`): a rule with a recipe
    /// makes it, or a built-in rule from a source that is there (`main.o`
    /// beside `main.c`), so a run rewrites it.
    fn is_output(&self, real_root: &Path, dir: &str, name: &str, chain: &[usize]) -> bool {
        self.made_by_a_recipe(name, chain)
            || built_in_sources(name).iter().any(|source| {
                crate::core::module_maps::join_rel(dir, source)
                    .is_some_and(|rel| real_root.join(rel).is_file())
            })
    }

    /// Whether a rule with a recipe makes `name` (an output make writes),
    /// not one of the pattern rules of `chain` (make uses none twice in
    /// one chain). A match-anything rule (`%: %.in`) makes every name: it
    /// counts only with its source there.
    fn made_by_a_recipe(&self, name: &str, chain: &[usize]) -> bool {
        self.making(name).iter().any(|(r, prerequisites)| {
            !r.recipe.is_empty()
                && !self.in_chain(r, chain)
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

/// The extensions of C-family sources and headers whose `#include "…"`
/// are followed.
const C_FAMILY: &[&str] = &[
    "c", "cc", "cpp", "cxx", "C", "h", "hh", "hpp", "hxx", "S", "m",
];

/// The names of the `#include "…"` lines of C text `text` (not `<…>`: a
/// system header), each once, at most 256.
fn quoted_includes(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        let line = line.trim_start();
        let Some(rest) = line.strip_prefix('#') else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix("include") else {
            continue;
        };
        let Some(name) = rest
            .trim_start()
            .strip_prefix('"')
            .and_then(|r| r.split('"').next())
        else {
            continue;
        };
        if !name.is_empty() && !out.iter().any(|n| n == name) && out.len() < 256 {
            out.push(name.to_string());
        }
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
    let hash = crate::core::tokens::hex(&hasher.finalize());
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
            // A written rule before a built-in one (recheck 27): make
            // makes `tools/sum.S` from a new `.tpl`, then `tools/sum`.
            (
                "%.S: %.S.tpl\n\t@cp $< $@\nsummary: tools/sum\n\t@./tools/sum\n",
                &[("tools/sum", "echo hi\n")],
                |root| std::fs::write(root.join("tools/sum.S.tpl"), "main:\n").unwrap(),
            ),
            // Recheck 28: a written link rule whose target pattern matches
            // its own source (`tools/%: tools/%.o`, used once in a chain),
            // over a built-in `.S` compile; two written rules over a
            // built-in one; a static pattern rule; a chain through vpath.
            (
                "tools/%: tools/%.o\n\t@$(CC) -o $@ $<\nsummary: tools/sum\n\t@./tools/sum\n",
                &[("tools/sum", "echo hi\n")],
                |root| std::fs::write(root.join("tools/sum.S"), "main:\n").unwrap(),
            ),
            (
                "%.S: %.S.in\n\t@cp $< $@\n%.S.in: %.S.tpl\n\t@cp $< $@\n\
                 summary: tools/sum\n\t@./tools/sum\n",
                &[("tools/sum", "echo hi\n")],
                |root| std::fs::write(root.join("tools/sum.S.tpl"), "main:\n").unwrap(),
            ),
            (
                "bin/sum: bin/%: src/%.c\n\t@cc -o $@ $<\n%.c: %.c.in\n\t@cp $< $@\n\
                 summary: bin/sum\n\t@./bin/sum\n",
                &[("bin/sum", "echo hi\n")],
                |root| std::fs::write(root.join("src/sum.c.in"), "int main;\n").unwrap(),
            ),
            (
                "vpath %.c.in src\n%.c: %.c.in\n\t@cp $< $@\nsummary: sum\n\t@./sum\n",
                &[("sum", "echo hi\n")],
                |root| std::fs::write(root.join("src/sum.c.in"), "int main;\n").unwrap(),
            ),
            // A built-in rule before a written one: `tools/gen.sh` from a
            // new `tools/gen.sh.c` made by `%.c: %.y`… from a `.y`.
            (
                "tools/%.sh: tools/%.c\n\t@make-sh $@\nsummary: tools/gen.sh\n\t@sh tools/gen.sh\n",
                &[("tools/gen.sh", "echo hi\n")],
                |root| std::fs::write(root.join("tools/gen.y"), "%%\n").unwrap(),
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
            (
                "vpath %.sh tools\nsummary: sum\n\t@sh sum\n",
                &[("sum", "echo hi\n")],
                |root| std::fs::write(root.join("tools/sum.sh"), "touch x\n").unwrap(),
            ),
            (
                "VPATH = tools\nsummary: sum\n\t@sh sum\n",
                &[("sum", "echo hi\n")],
                |root| std::fs::write(root.join("tools/sum.c"), "int main;\n").unwrap(),
            ),
            (
                "CFLAGS = -O2 -Wall -Iinclude\nCPPFLAGS = -include tools/pre.h\n\
                 summary: tools/sum\n\t@./tools/sum\n",
                &[
                    ("tools/sum.c", "int main(void) { return 0; }\n"),
                    ("tools/pre.h", "\n"),
                ],
                |root| std::fs::write(root.join("tools/pre.h"), "#define X 1\n").unwrap(),
            ),
            (
                "CFLAGS = @tools/cflags\nsummary: tools/sum\n\t@./tools/sum\n",
                &[
                    ("tools/sum.c", "int main(void) { return 0; }\n"),
                    ("tools/cflags", "-O2\n"),
                ],
                |root| std::fs::write(root.join("tools/cflags"), "-wrapper x\n").unwrap(),
            ),
            (
                "summary: tools/sum\n\t@./tools/sum\n",
                &[
                    (
                        "tools/sum.c",
                        "#include \"sum.h\"\nint main(void) { return 0; }\n",
                    ),
                    ("tools/sum.h", "#include \"../tools/deep.h\"\n"),
                    ("tools/deep.h", "\n"),
                ],
                |root| std::fs::write(root.join("tools/deep.h"), "#define X 1\n").unwrap(),
            ),
            (
                "CPPFLAGS = -Iinc\nsummary: tools/sum\n\t@./tools/sum\n",
                &[
                    ("tools/sum.c", "#include \"cfg.h\"\n#include <stdio.h>\n"),
                    ("inc/cfg.h", "\n"),
                ],
                |root| std::fs::write(root.join("tools/cfg.h"), "#define X 1\n").unwrap(),
            ),
        ];
        let command = toml::Value::String("make -s summary".into());
        for &(makefile, files, change) in cases {
            let dir = tempfile::tempdir().unwrap();
            let root = dir.path();
            std::fs::create_dir_all(root.join("tools")).unwrap();
            for folder in ["inc", "src", "bin"] {
                std::fs::create_dir_all(root.join(folder)).unwrap();
            }
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
            "CFLAGS = -Btools/\nsummary: tools/sum\n\t@./tools/sum\n",
            "summary:\n\tgcc -wrapper tools/w.sh -o x x.c\n",
        ] {
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join("Makefile"), makefile).unwrap();
            let covered = crate::core::trust::scripts::covered(dir.path(), &command);
            assert!(!covered.patterns.is_empty(), "{makefile}");
        }
    }
}
