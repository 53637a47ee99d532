//! The engine on a temp project: a build is the composition every front
//! end showed before (same text, findings and count, whether it keeps the
//! sources or lets them go), a pack is the pack, and a save follows the
//! one secret rule and numbers its files.

use std::path::Path;

use super::*;
use crate::core::compose::{Bodies, tree};
use crate::core::discovery::context;
use crate::core::discovery::pack::{self, PackOptions};
use crate::core::model::{FileItem, Preset};
use crate::core::secrets::Scanner;

const SECRET: &str = "TOKEN = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"\n";

fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (rel, text) in files {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    dir
}

fn sample() -> tempfile::TempDir {
    project(&[
        ("app.py", "from pkg.core import App\n\nApp().run()\n"),
        ("pkg/__init__.py", ""),
        (
            "pkg/core.py",
            "from pkg.util import helper\n\nclass App:\n    def run(self):\n        return helper()\n",
        ),
        ("pkg/util.py", "def helper():\n    return 1\n"),
        ("notes/a.md", "# A\n\nsome notes\n"),
        ("notes/b.md", "# B\n\nmore notes\n"),
    ])
}

fn preset(files: &[&str]) -> Preset {
    Preset {
        files: files.iter().map(|f| FileItem::new(*f)).collect(),
        ..Preset::default()
    }
}

fn open(root: &Path) -> crate::core::project::Project {
    crate::core::project::Project::open_at(root, None).expect("project")
}

/// The text, count and findings of composing whole and scanning the
/// whole (what the TUI's `w` and `y` did before the engine).
fn composed_whole(root: &Path, req: &BuildRequest) -> (String, usize, Vec<String>) {
    let sources = Sources::new();
    let codebase = Codebase::new(root, &sources);
    let c = context::parts(&codebase, &req.preset, &req.compose, &req.map).assemble(
        &req.preset,
        &req.compose,
        Bodies::Keep,
    );
    let findings = Scanner::new(&codebase).composition(&c, &req.preset, req.compose.max_messages);
    let tokens = sources.count(req.tokenizer(), &c.text);
    (
        c.text,
        tokens,
        findings.iter().map(ToString::to_string).collect(),
    )
}

fn findings(built: &Built) -> Vec<String> {
    built.findings.iter().map(ToString::to_string).collect()
}

/// The build scans the bodies first and releases them as the text is
/// put together, in a one-shot workspace (which lets its sources go) and
/// a shared one alike: the text, the count and the findings are those
/// of composing whole and scanning the whole.
#[test]
fn a_build_is_the_whole_composition_scanned() {
    let dir = sample();
    std::fs::write(dir.path().join("pkg/secret.py"), SECRET).expect("write");
    let project = open(dir.path());
    let mut p = preset(&["app.py", "pkg/*.py", "notes/a.md"]);
    p.task = "Fix App.run".into();
    let mut req = BuildRequest::new(p, &project.settings);
    req.kind = BuildKind::Compose;
    req.allow_secrets = true;
    let (text, tokens, found) = composed_whole(dir.path(), &req);
    assert!(text.contains("### pkg/util.py"), "{text}");
    assert!(!found.is_empty(), "the planted secret is found");

    let sources = Sources::new();
    let built = Workspace::open(&project, &sources)
        .build(req.clone())
        .expect("built");
    assert_eq!(built.text, text);
    assert_eq!((built.tokens, built.exact), (tokens, true));
    assert_eq!(findings(&built), found);
    assert!(built.packed.is_none() && built.written.is_none());
    // The bodies went as the text was written; their places stay.
    assert!(built.files.iter().all(|f| f.text.is_empty()));
    let util = built.files.iter().find(|f| f.path == "pkg/util.py");
    let at = util.and_then(|f| f.body_at.clone()).expect("placed");
    assert_eq!(&built.text[at], "def helper():\n    return 1\n");

    // The TUI's `y` (sources kept) and `w` (released as the CLI does).
    for releasing in [false, true] {
        let shared = Sources::new();
        let mut workspace = Workspace::shared(dir.path(), project.settings.clone(), &shared);
        if releasing {
            workspace = workspace.releasing();
        }
        let again = workspace.build(req.clone()).expect("built");
        assert_eq!((&again.text, again.tokens), (&text, tokens), "{releasing}");
        assert_eq!(findings(&again), found, "{releasing}");
    }
}

/// Likely secrets refuse every destination unless allowed, and the
/// refusal keeps what was built (the front end reports it).
#[test]
fn a_save_refuses_secrets_unless_allowed() {
    let dir = project(&[("secret.py", SECRET)]);
    let project = open(dir.path());
    let sources = Sources::new();
    let mut req = BuildRequest::new(preset(&["secret.py"]), &project.settings);
    req.destination = Destination::NextOutputFile;
    let refused = Workspace::open(&project, &sources)
        .build(req.clone())
        .expect_err("refused");
    assert!(
        matches!(refused.why, BuildError::Secrets { count: 1, .. }),
        "{refused}"
    );
    assert_eq!(refused.so_far.findings.len(), 1);
    assert!(refused.so_far.written.is_none());
    let written: Vec<_> = std::fs::read_dir(dir.path())
        .expect("read_dir")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(written, ["secret.py"], "nothing written");

    req.destination = Destination::Caller;
    let refused = Workspace::open(&project, &sources).build(req.clone());
    assert!(refused.is_err(), "back to the caller is refused too");

    req.allow_secrets = true;
    let text = Workspace::open(&project, &sources)
        .build(req.clone())
        .expect("allowed")
        .text;
    req.destination = Destination::NextOutputFile;
    let built = Workspace::open(&project, &sources)
        .build(req)
        .expect("allowed");
    let path = built.written.expect("written");
    assert!(built.text.is_empty(), "streamed to the file, not kept");
    assert_eq!(std::fs::read_to_string(path).expect("read"), text);
}

/// Each save takes the next number; a named path is written as asked,
/// its folders made.
#[test]
fn saves_are_numbered_and_paths_written() {
    let dir = sample();
    let project = open(dir.path());
    let sources = Sources::new();
    let mut req = BuildRequest::new(preset(&["app.py"]), &project.settings);
    let text = Workspace::open(&project, &sources)
        .build(req.clone())
        .expect("caller")
        .text;
    req.destination = Destination::NextOutputFile;
    let first = Workspace::open(&project, &sources)
        .build(req.clone())
        .expect("first");
    let second = Workspace::open(&project, &sources)
        .build(req.clone())
        .expect("second");
    let (a, b) = (
        first.written.expect("first path"),
        second.written.expect("second path"),
    );
    assert_ne!(a, b);
    assert!(a.starts_with(dir.path()) && b.starts_with(dir.path()));
    assert!(a.to_string_lossy().ends_with("_001.md"), "{}", a.display());
    assert!(b.to_string_lossy().ends_with("_002.md"), "{}", b.display());
    assert_eq!(std::fs::read_to_string(&b).expect("read"), text);

    let out = dir.path().join("out/deep/ctx.md");
    req.destination = Destination::Path(out.clone());
    let built = Workspace::open(&project, &sources)
        .build(req)
        .expect("path");
    assert_eq!(built.written.as_deref(), Some(out.as_path()));
    assert_eq!(std::fs::read_to_string(out).expect("read"), text);
}

/// Targets make a build pack (`BuildKind::Auto`): the same text as the
/// pack itself, with its report; a target over the budget refuses the
/// build unless partial builds are allowed.
#[test]
fn targets_pack_and_a_target_that_does_not_fit_refuses() {
    let dir = sample();
    let project = open(dir.path());
    let sources = Sources::new();
    let mut req = BuildRequest::new(Preset::default(), &project.settings);
    req.targets = vec!["app.py".into()];
    req.budget = Some(2_000);
    let built = Workspace::open(&project, &sources)
        .build(req.clone())
        .expect("packed");
    let report = built.packed.as_ref().expect("a pack");
    assert!(report.missing_targets.is_empty());
    assert!(built.text.contains("### app.py"), "{}", built.text);

    let opts = PackOptions {
        budget: 2_000,
        ..PackOptions::from_settings(&project.settings)
    };
    let walked = crate::core::walk::walk_files_with(dir.path(), &Default::default());
    let packed = pack::pack(
        &Codebase::new(dir.path(), &Sources::new()).with_walk(&walked),
        &Preset::default(),
        &req.targets,
        &opts,
    );
    assert_eq!(built.text, packed.text);
    assert_eq!(built.tokens, packed.stats.tokens);

    req.budget = Some(5);
    let refused = Workspace::open(&project, &sources)
        .build(req.clone())
        .expect_err("too small");
    assert!(
        matches!(&refused.why, BuildError::TargetsDoNotFit { missing } if missing[0].path == "app.py"),
        "{refused}"
    );
    req.allow_partial = true;
    let partial = Workspace::open(&project, &sources)
        .build(req)
        .expect("partial");
    assert_eq!(partial.packed.expect("pack").missing_targets.len(), 1);
}

/// A composition made before (the TUI's shown discovery) is scanned,
/// counted and delivered as it is.
#[test]
fn a_ready_composition_is_delivered_as_it_is() {
    let dir = project(&[("secret.py", SECRET)]);
    let project = open(dir.path());
    let sources = Sources::new();
    let workspace = Workspace::shared(dir.path(), project.settings.clone(), &sources);
    let mut req = BuildRequest::new(preset(&["secret.py"]), &project.settings);
    let ready = workspace.compose(&req.preset, &req.compose, &req.map);
    let (text, tokens, found) = composed_whole(dir.path(), &req);
    assert_eq!(ready.text, text);
    req.reuse = Some(Arc::new(ready));
    req.allow_secrets = true;
    let mut workspace = workspace;
    let built = workspace.build(req).expect("built");
    assert_eq!((&built.text, built.tokens), (&text, tokens));
    assert_eq!(findings(&built), found);
}

/// The block of one file is the composition's block of it, counted.
#[test]
fn a_files_block_and_copy() {
    let dir = sample();
    let project = open(dir.path());
    let sources = Sources::new();
    let workspace = Workspace::shared(dir.path(), project.settings.clone(), &sources);
    let req = BuildRequest::new(preset(&["pkg/util.py"]), &project.settings);
    let block = workspace.block(FileItem::new("pkg/util.py"), &req.compose, req.tokenizer());
    let whole = workspace.compose(&req.preset, &req.compose, &req.map);
    assert!(whole.text.contains(&block.text), "{}", block.text);
    assert_eq!(block.tokens, sources.count(req.tokenizer(), &block.text));
    let copy = workspace.file_copy(FileItem::new("pkg/util.py"), &req.compose, req.tokenizer());
    assert_eq!(copy.text, "def helper():\n    return 1\n");
    assert!(copy.label.starts_with("pkg/util.py ["), "{}", copy.label);
    assert!(copy.findings.is_empty());
}

/// Many files (over a chunk of them, over a count segment), some binary,
/// missing, listed only, with fences, markup and control characters, a
/// secret in a path and one at a body's edge: a build streamed to a file,
/// to the next numbered file and to a spool has the bytes of the
/// composition made whole (the preview's), the same count and the same
/// findings, in both formats; refused, it writes nothing.
#[test]
fn a_streamed_build_is_the_whole_composition() {
    let mut files: Vec<(String, String)> = Vec::new();
    for i in 0..600 {
        let body = format!(
            "def f{i}(x):\n    return x < {i} && x > 0  # ]]> ```` \n\n\nclass C{i}:\n    pass\n"
        )
        .repeat(1 + i % 60);
        files.push((format!("pkg/m{:03}/mod_{i}.py", i / 50), body));
    }
    files.push(("pkg/bell.txt".into(), "bell \u{7} here\n".repeat(50)));
    files.push((
        "pkg/edge.py".into(),
        format!("{SECRET}{}", "x = 1\n".repeat(200)),
    ));
    files.push((
        "pkg/ghp_zyxwvutsrqponmlkjihgfedcba9876543210.py".into(),
        "y = 2\n".into(),
    ));
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let dir = project(&refs);
    std::fs::write(dir.path().join("pkg/blob.bin"), b"\0\x01\x02binary").expect("write");
    let project = open(dir.path());
    let mut p = preset(&["pkg/**", "missing.py"]);
    p.files.push(FileItem {
        auto_aggregate: false,
        ..FileItem::new("notes/listed.md")
    });
    p.task = "Stream it".into();
    for format in [
        crate::core::model::Format::Markdown,
        crate::core::model::Format::Xml,
    ] {
        let mut req = BuildRequest::new(p.clone(), &project.settings);
        req.compose.format = format;
        req.kind = BuildKind::Compose;
        req.allow_secrets = true;
        let (text, tokens, found) = composed_whole(dir.path(), &req);
        assert!(text.len() > 1 << 20, "{format:?}: over a count segment");
        assert!(found.len() >= 2, "{format:?}: {found:?}");
        let sources = Sources::new();
        let caller = Workspace::open(&project, &sources)
            .build(req.clone())
            .expect("caller");
        assert!(caller.text == text, "{format:?}: the caller's text");
        assert_eq!(caller.tokens, tokens, "{format:?}");
        assert_eq!(findings(&caller), found, "{format:?}");

        let out = dir.path().join("out/ctx.txt");
        for destination in [
            Destination::Path(out.clone()),
            Destination::NextOutputFile,
            Destination::Stream,
        ] {
            req.destination = destination.clone();
            let built = Workspace::open(&project, &sources)
                .build(req.clone())
                .expect("streamed");
            assert!(built.text.is_empty(), "{format:?} {destination:?}");
            let bytes = match (&built.written, &built.spooled) {
                (Some(path), None) => std::fs::read(path).expect("read"),
                (None, Some(spooled)) => {
                    let mut bytes = Vec::new();
                    spooled.write_to(&mut bytes).expect("spooled");
                    assert_eq!(spooled.len(), bytes.len() as u64);
                    bytes
                }
                other => panic!("{format:?} {destination:?}: {other:?}"),
            };
            assert!(
                bytes == text.as_bytes(),
                "{format:?} {destination:?}: bytes"
            );
            assert_eq!(built.tokens, tokens, "{format:?} {destination:?}");
            assert_eq!(findings(&built), found, "{format:?} {destination:?}");
            // Of a file shown whole with nothing more to tell, the path
            // is kept; the others' records, for the report: the same
            // files, errors and notes as the caller's.
            assert!(built.plain.iter().any(|p| p == "pkg/edge.py"), "{format:?}");
            assert!(
                built
                    .files
                    .iter()
                    .all(|f| !tree::in_tree(f) || !f.notes.is_empty()),
                "{format:?}: only the files with more to tell"
            );
            assert!(
                built
                    .files
                    .iter()
                    .any(|f| f.path == "missing.py" && f.error.is_some())
            );
            assert!(
                built
                    .files
                    .iter()
                    .any(|f| f.path == "notes/listed.md" && !f.aggregate)
            );
            assert_eq!(built.rendered(), caller.rendered(), "{format:?}");
            assert_eq!(built.with_errors(), caller.with_errors(), "{format:?}");
            let mut paths: Vec<&str> = built.paths().collect();
            let mut all: Vec<&str> = caller.paths().collect();
            paths.sort_unstable();
            all.sort_unstable();
            assert_eq!(paths, all, "{format:?}");
        }

        // Refused: no file, an older output left as it was.
        std::fs::write(&out, "older").expect("write");
        let before = std::fs::read_dir(out.parent().expect("dir"))
            .expect("dir")
            .count();
        req.allow_secrets = false;
        req.destination = Destination::Path(out.clone());
        let refused = Workspace::open(&project, &sources)
            .build(req.clone())
            .expect_err("refused");
        assert!(
            matches!(refused.why, BuildError::Secrets { .. }),
            "{refused}"
        );
        assert_eq!(std::fs::read_to_string(&out).expect("read"), "older");
        let after = std::fs::read_dir(out.parent().expect("dir"))
            .expect("dir")
            .count();
        assert_eq!(before, after, "{format:?}: no file left behind");
        std::fs::remove_file(&out).expect("rm");
    }
}

/// A destination that cannot be written (its folder is a file) refuses
/// the build with the path, and leaves nothing.
#[test]
fn an_unwritable_destination_is_refused_by_name() {
    let dir = sample();
    std::fs::write(dir.path().join("blocker"), "a file").expect("write");
    let project = open(dir.path());
    let sources = Sources::new();
    let mut req = BuildRequest::new(preset(&["app.py"]), &project.settings);
    let out = dir.path().join("blocker/ctx.md");
    req.destination = Destination::Path(out.clone());
    let refused = Workspace::open(&project, &sources)
        .build(req)
        .expect_err("refused");
    assert!(
        matches!(&refused.why, BuildError::Write { path, .. } if *path == out),
        "{refused}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("blocker")).expect("read"),
        "a file"
    );
}

#[test]
fn an_ask_is_resolved_as_the_user_said_it() {
    let dir = sample();
    std::fs::write(dir.path().join("task.txt"), "make it run\n").expect("task");
    let project = open(dir.path());
    let cwd = dir.path().join("pkg");
    let ask = |f: &dyn Fn(&mut BuildAsk)| {
        let mut ask = BuildAsk {
            cwd: cwd.clone(),
            ..BuildAsk::default()
        };
        f(&mut ask);
        ask::resolve(&project, ask)
    };
    // Targets as typed from `cwd`, once each; the task read from its file.
    let asked = ask(&|a| {
        a.targets = vec!["core.py".into(), "../pkg/core.py".into()];
        a.task = Some(TaskText::File("../task.txt".into()));
        a.exclude = vec!["notes/**".into()];
    })
    .expect("resolved");
    assert_eq!(asked.req.targets, ["pkg/core.py"]);
    assert_eq!(asked.req.preset.task, "make it run\n");
    assert_eq!(asked.req.preset.exclude, ["notes/**"]);
    assert_eq!(asked.said, []);
    // Nothing asked of an empty preset: said so.
    let asked = ask(&|_| {}).expect("resolved");
    assert_eq!(
        asked.said,
        [Said::Empty {
            preset: project.active_preset_name().to_string()
        }]
    );
    // Each refusal, typed, with what was said before it.
    let why = |f: &dyn Fn(&mut BuildAsk)| ask(f).expect_err("refused").why.to_string();
    assert_eq!(
        why(&|a| a.targets = vec![".".into()]),
        "pkg is a folder: targets are files"
    );
    assert_eq!(
        why(&|a| a.targets = vec!["gone.py".into()]),
        "target not found: pkg/gone.py"
    );
    assert!(why(&|a| a.targets = vec!["../..".into()]).contains("is outside the project root"));
    assert!(why(&|a| a.preset = Some("nope".into())).starts_with("no preset named `nope`"));
    assert!(
        why(&|a| a.task = Some(TaskText::File("none.txt".into())))
            .starts_with("cannot read the task file")
    );
    let refused = ask(&|a| {
        a.changed = Some("HEAD".into());
    })
    .expect_err("no repository");
    assert!(
        matches!(refused.why, AskError::Git { diff: false, .. }),
        "{:?}",
        refused.why
    );
}

#[test]
fn a_map_ask_is_resolved_as_the_user_said_it() {
    let dir = sample();
    let project = open(dir.path());
    let ask = |f: &dyn Fn(&mut MapAsk)| {
        let mut ask = MapAsk {
            cwd: dir.path().join("pkg"),
            ..MapAsk::default()
        };
        f(&mut ask);
        map::map_asked(&project, ask, |_| ())
    };
    // Targets as typed from `cwd`, left out of the map they rank; the
    // budget and tokenizer the settings', unless asked.
    let answered = ask(&|a| a.targets = vec!["core.py".into()]).expect("made");
    assert_eq!(answered.targets, ["pkg/core.py"]);
    assert_eq!(answered.budget, project.settings.repo_map_budget);
    assert_eq!(answered.tokenizer, project.settings.tokenizer);
    assert!(answered.built.map.text.contains("pkg/util.py"));
    assert!(!answered.built.map.text.contains("pkg/core.py"));
    let answered = ask(&|a| {
        a.budget = Some(7);
        a.tokenizer = Some(crate::core::model::TokenizerKind::Estimate);
    })
    .expect("made");
    assert_eq!(answered.budget, 7);
    assert_eq!(
        answered.tokenizer,
        crate::core::model::TokenizerKind::Estimate
    );
    assert!(answered.targets.is_empty());
    // Each refusal, typed, as for a build.
    let why = |f: &dyn Fn(&mut MapAsk)| ask(f).expect_err("refused").to_string();
    assert_eq!(
        why(&|a| a.targets = vec![".".into()]),
        "pkg is a folder: targets are files"
    );
    assert!(why(&|a| a.preset = Some("nope".into())).starts_with("no preset named `nope`"));
}

/// A one-shot build lets each chunk's texts go, but not the project's
/// C/C++ macros: their definitions are read once per build (read again
/// for every chunk of files, a cold skeleton build of /usr/include took
/// twice the time of one without them).
#[test]
fn a_one_shot_build_reads_the_projects_macros_once() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let files: Vec<(String, String)> = (0..600)
        .map(|i| (format!("src/f{i:03}.c"), format!("API int f{i}(void);\n")))
        .collect();
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let dir = project(&files);
    let project = open(dir.path());
    let sources = project.run_cache();
    let loads = Arc::new(AtomicUsize::new(0));
    let counted = loads.clone();
    sources.set_c_macros(crate::core::syntax::CMacros::new(&[]).with_project(
        "p".into(),
        Vec::new(),
        move || {
            counted.fetch_add(1, Ordering::SeqCst);
            vec!["#define API static\n".to_string()]
        },
    ));
    let mut item = FileItem::new("src/*.c");
    item.view_mode = crate::core::model::ViewMode::Skeleton;
    let p = Preset {
        files: vec![item],
        ..Preset::default()
    };
    let built = Workspace::open(&project, &sources)
        .build(BuildRequest::new(p, &project.settings))
        .expect("built");
    assert!(built.text.contains("### src/f599.c"), "{}", built.text);
    assert_eq!(loads.load(Ordering::SeqCst), 1);
}
