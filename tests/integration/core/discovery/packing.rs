//! How a pack spends its budget (issue 25), on a fixture with exact
//! expectations: the target at the user's own view first, imports reduced
//! before any is dropped and dropped before the target is reduced, the
//! `## Left out` note naming exactly what was dropped and counted in the
//! budget, and a target too big even reduced reported as before.

use crate::common;

use ctxcurate::core::compose::Sections;
use ctxcurate::core::discovery::pack::{self, PackOptions, Packed};
use ctxcurate::core::model::{
    FileItem, Format, MaskState, Preset, TokenizerKind, TreeMode, ViewMode,
};
use ctxcurate::core::sources::{Codebase, Sources};
use ctxcurate::core::{tokens, walk};

use common::Project;

/// A target with two functions importing a large module and a tiny one.
fn project() -> Project {
    let p = Project::empty();
    let body = |name: &str| -> String {
        let lines: String = (0..12)
            .map(|i| format!("    total_{name} = total_{name} + x * {i} - len(str(x))\n"))
            .collect();
        format!("def {name}(x):\n    total_{name} = 0\n{lines}    return total_{name}\n\n")
    };
    p.write(
        "app.py",
        &format!(
            "from big import engine_0, engine_1, engine_2\nfrom small import tiny\n\n{}{}",
            body("work"),
            body("other")
        ),
    );
    let big: String = (0..30)
        .map(|i| format!("def engine_{i}(alpha, beta):\n    value = alpha * beta + {i}\n    return value - alpha\n\n"))
        .collect();
    p.write("big.py", &big);
    p.write("small.py", "def tiny():\n    return 1\n");
    p
}

fn opts(budget: usize, format: Format) -> PackOptions {
    PackOptions {
        budget,
        map_budget: 0,
        tokenizer: TokenizerKind::O200k,
        format,
        max_messages: 0,
        include_dirs: Vec::new(),
        read: Default::default(),
        sections: Sections {
            tree: TreeMode::None,
            ..Sections::default()
        },
        hold: Vec::new(),
        fill: true,
    }
}

fn masked_target() -> Preset {
    let mut app = FileItem::new("app.py");
    app.view_mode = ViewMode::Masked;
    app.mask_default = MaskState::Sig;
    app.ast_mask.insert("work".to_string(), MaskState::Def);
    Preset {
        files: vec![app],
        ..Preset::default()
    }
}

fn packed(p: &Project, preset: &Preset, budget: usize, format: Format) -> Packed {
    let files = walk::walk_files(p.root());
    pack::pack(
        &Codebase::new(p.root(), &Sources::new()).with_walk(&files),
        preset,
        &["app.py".to_string()],
        &opts(budget, format),
    )
}

/// Each candidate's path and mode.
fn modes(packed: &Packed) -> Vec<(&str, Option<ViewMode>)> {
    packed
        .items
        .iter()
        .map(|i| (i.path.as_str(), i.mode))
        .collect()
}

const NOTE_HEAD: &str = "## Left out\n\nNot included, for lack of room (ask for them if needed):";

#[test]
fn imports_are_reduced_before_a_smaller_one_is_dropped() {
    let p = project();
    // Room for the target, big.py and small.py in full is 1,194 tokens;
    // big.py alone in full would leave no room for small.py: big.py goes
    // in as a skeleton, small.py in full (the packer used to keep big.py
    // whole and drop small.py).
    let k = packed(&p, &Preset::default(), 1185, Format::Markdown);
    assert_eq!(
        modes(&k),
        [
            ("app.py", Some(ViewMode::Full)),
            ("big.py", Some(ViewMode::Skeleton)),
            ("small.py", Some(ViewMode::Full)),
        ]
    );
    assert_eq!(k.stats.tokens, tokens::count(TokenizerKind::O200k, &k.text));
    assert!(!k.text.contains("## Left out"), "{}", k.text);
    let reduced: Vec<(&str, ViewMode, ViewMode)> = k
        .stats
        .reduced_files
        .iter()
        .map(|r| (r.path.as_str(), r.wanted, r.mode))
        .collect();
    assert_eq!(reduced, [("big.py", ViewMode::Full, ViewMode::Skeleton)]);
    // With room for all three, all three in full.
    let roomy = packed(&p, &Preset::default(), 1200, Format::Markdown);
    assert!(roomy.items.iter().all(|i| i.mode == Some(ViewMode::Full)));
}

#[test]
fn the_target_keeps_the_users_masked_view_while_imports_are_reduced() {
    let p = project();
    let k = packed(&p, &masked_target(), 700, Format::Markdown);
    assert_eq!(
        modes(&k),
        [
            ("app.py", Some(ViewMode::Masked)),
            ("big.py", Some(ViewMode::Skeleton)),
            ("small.py", Some(ViewMode::Full)),
        ]
    );
    assert_eq!(k.items[0].wanted, ViewMode::Masked);
    assert!(k.text.contains("### app.py [masked]\n"), "{}", k.text);
    // `work` in full, as the user kept it; `other` as its signature.
    assert!(
        k.text.contains("    total_work = total_work + x * 11"),
        "{}",
        k.text
    );
    assert!(!k.text.contains("total_other"), "{}", k.text);
    assert!(k.text.contains("def other(x):"), "{}", k.text);
    // Without the user's entry the target is wanted in full, and at this
    // budget only a skeleton of it fits with its imports dropped.
    let plain = packed(&p, &Preset::default(), 300, Format::Markdown);
    assert_eq!(plain.items[0].mode, Some(ViewMode::Skeleton));
    let masked = packed(&p, &masked_target(), 300, Format::Markdown);
    assert_eq!(masked.items[0].mode, Some(ViewMode::Masked));
}

#[test]
fn the_target_is_reduced_only_when_no_import_is_left_to_give_room() {
    let p = project();
    // The target in full fits alone with small.py (big.py, even as a
    // skeleton, does not): the target stays whole.
    let k = packed(&p, &Preset::default(), 600, Format::Markdown);
    assert_eq!(
        modes(&k),
        [
            ("app.py", Some(ViewMode::Full)),
            ("big.py", None),
            ("small.py", Some(ViewMode::Full)),
        ]
    );
    // Below the target's full size it is reduced, and the room left goes
    // to the imports again.
    let k = packed(&p, &Preset::default(), 440, Format::Markdown);
    assert_eq!(
        modes(&k),
        [
            ("app.py", Some(ViewMode::Skeleton)),
            ("big.py", Some(ViewMode::Skeleton)),
            ("small.py", Some(ViewMode::Full)),
        ]
    );
}

#[test]
fn the_left_out_note_names_exactly_what_was_dropped_and_counts() {
    let p = project();
    let k = packed(&p, &Preset::default(), 600, Format::Markdown);
    assert_eq!(k.stats.dropped_files, ["big.py"]);
    assert!(
        k.text
            .ends_with(&format!("{NOTE_HEAD}\n- `big.py` (at least 312 tokens)\n")),
        "{}",
        k.text
    );
    let exact = tokens::count(TokenizerKind::O200k, &k.text);
    assert_eq!(k.stats.tokens, exact);
    assert!(exact <= 600, "{exact}");
    let left_out = serde_json::to_value(&k.stats.left_out).expect("json");
    assert_eq!(
        left_out,
        serde_json::json!([
            {"path": "big.py", "role": "import", "why": "budget", "tokens": 312}
        ])
    );

    // XML: one element after the documents, inside the root, parsed.
    let k = packed(&p, &Preset::default(), 600, Format::Xml);
    let doc = roxmltree::Document::parse(&k.text).expect("well-formed");
    let note = doc
        .descendants()
        .find(|n| n.has_tag_name("left_out"))
        .expect("a left_out element");
    let files: Vec<(Option<&str>, Option<&str>)> = note
        .children()
        .filter(|n| n.has_tag_name("file"))
        .map(|n| (n.attribute("tokens"), n.text()))
        .collect();
    let needs = k.items[1].needs.map(|n| n.to_string());
    assert_eq!(files, [(needs.as_deref(), Some("big.py"))]);
    assert!(tokens::count(TokenizerKind::O200k, &k.text) <= 600);

    // Nothing dropped, no note.
    let k = packed(&p, &Preset::default(), 5000, Format::Markdown);
    assert!(!k.text.contains("## Left out") && k.stats.left_out.is_empty());
}

#[test]
fn a_target_too_big_even_reduced_is_the_same_error() {
    let p = project();
    for preset in [Preset::default(), masked_target()] {
        let k = packed(&p, &preset, 30, Format::Markdown);
        assert_eq!(k.missing_targets.len(), 1, "{:?}", k.items);
        let missing = &k.missing_targets[0];
        let size = missing.tokens.expect("tried");
        assert_eq!(
            missing.to_string(),
            format!(
                "target app.py does not fit the budget: it takes {size} tokens even as an \
                 outline (with the headings), the budget is 30"
            )
        );
        // Its cheapest size is the smallest budget that holds it.
        let fits = packed(&p, &preset, size, Format::Markdown);
        assert!(fits.missing_targets.is_empty(), "{:?}", fits.items);
        assert_eq!(fits.items[0].mode, Some(ViewMode::Outline));
        assert_eq!(
            packed(&p, &preset, size - 1, Format::Markdown)
                .missing_targets
                .len(),
            1
        );
    }
}

/// A pack parses at most 16 MiB of discovered source for skeletons and
/// outlines (240 files of 900 KB took a packed build minutes, recheck 17
/// F17-8): past that, a file is tried whole only, and the pack says so.
/// Here a 17 MiB file the task names comes before the imports and uses the
/// bound up (it is binary: counted, never parsed).
#[test]
fn past_the_source_bound_discovered_files_are_tried_whole_only_with_a_note() {
    let p = project();
    std::fs::create_dir(p.root().join("data")).unwrap();
    let data = std::fs::File::create(p.root().join("data/blob.py")).unwrap();
    data.set_len(17 << 20).unwrap();
    let pack_for = |task: &str| {
        let files = walk::walk_files(p.root());
        let mut o = opts(1185, Format::Markdown);
        o.read.max_file_size = 64 << 20;
        o.fill = false;
        let preset = Preset {
            task: task.to_string(),
            ..Preset::default()
        };
        pack::pack(
            &Codebase::new(p.root(), &Sources::new()).with_walk(&files),
            &preset,
            &["app.py".to_string()],
            &o,
        )
    };
    let mode_of = |k: &Packed, path: &str| k.items.iter().find(|i| i.path == path).map(|i| i.mode);
    // Within the bound: big.py in as a skeleton, as above.
    let within = pack_for("make engine_1 faster");
    assert_eq!(mode_of(&within, "big.py"), Some(Some(ViewMode::Skeleton)));
    assert!(
        !within.problems.iter().any(|p| p.contains("MiB")),
        "{:?}",
        within.problems
    );
    // Past it: big.py would fit only reduced, so it is left out, and said.
    let past = pack_for("make engine_1 faster, see data/blob.py");
    assert_eq!(mode_of(&past, "big.py"), Some(None), "{:?}", past.items);
    assert_eq!(mode_of(&past, "small.py"), Some(Some(ViewMode::Full)));
    assert_eq!(mode_of(&past, "app.py"), Some(Some(ViewMode::Full)));
    assert!(
        past.problems.iter().any(|p| p
            == "the pack parsed at most 16 MiB of its candidates' source (targets aside) for \
                skeletons and outlines; 1 later file was tried only whole and left out"),
        "{:?}",
        past.problems
    );
    // Named as left out, without a size: its cheapest form is not known
    // (its whole size is no lower bound).
    let big = past.items.iter().find(|i| i.path == "big.py").unwrap();
    assert!(big.unreduced && big.needs.is_none(), "{big:?}");
    assert!(past.text.contains("\n- `big.py`\n"), "{}", past.text);
}

/// The bound reached among the target's own imports (fitted as a group):
/// the imports past it are tried whole only, and one that does not fit so
/// is named as left out without a size.
#[test]
fn past_the_source_bound_imports_are_tried_whole_only() {
    let p = project();
    let app = std::fs::read_to_string(p.root().join("app.py")).unwrap();
    p.write(
        "main.py",
        &format!("from a_blob import a, b, c, d, e\n{app}"),
    );
    let mut blob = std::fs::File::create(p.root().join("a_blob.py")).unwrap();
    std::io::Write::write_all(&mut blob, b"x = 1\n").unwrap();
    blob.set_len(17 << 20).unwrap();
    let files = walk::walk_files(p.root());
    let mut o = opts(1185, Format::Markdown);
    o.read.max_file_size = 64 << 20;
    o.fill = false;
    let packed = pack::pack(
        &Codebase::new(p.root(), &Sources::new()).with_walk(&files),
        &Preset::default(),
        &["main.py".to_string()],
        &o,
    );
    let item = |path: &str| packed.items.iter().find(|i| i.path == path).unwrap();
    assert_eq!(item("main.py").mode, Some(ViewMode::Full));
    assert_eq!(item("small.py").mode, Some(ViewMode::Full));
    let big = item("big.py");
    assert!(
        big.mode.is_none() && big.unreduced && big.needs.is_none(),
        "{:?} {:?}",
        packed.items,
        packed.problems
    );
    assert!(packed.text.contains("\n- `big.py`"), "{}", packed.text);
    assert!(
        packed
            .problems
            .iter()
            .any(|p| p.contains("1 later file was tried only whole")),
        "{:?}",
        packed.problems
    );
}
