//! Nothing the user wrote in `ctxcurate.toml` is lost (docs/ARCHITECTURE.md, "core::project";
//! issue 38): undo, redo and a jump in the history (`U`, Enter) take back
//! or make again the app's own changes on the file as it is on disk, so a
//! setting, an unknown key and the comments written outside the app (and
//! reloaded) survive them, and the tables keep their order. A property
//! test drives random edits, outside rewrites, reloads, jumps and undos
//! through the real keymap over a commented file.

use crate::common;

use common::Project;
use ctxcurate::tui::run::harness::Harness;

const HAND: &str = r#"# Team context: keep this line.
[project]
budget = 9000 # tokens

[presets.default]
files = [
    "src/app.py",   # the app
]
note = "unknown keys stay"
"#;

/// The issue's steps: two changes in the app, an outside edit (a comment,
/// `model_window`, an unknown key) the app reloads, then `U`, Enter on
/// the state before both changes, then `u`.
#[test]
fn a_jump_past_an_outside_edit_keeps_it_and_its_comments() {
    let p = Project::fixture();
    p.write("ctxcurate.toml", HAND);
    let mut h = Harness::open(p.root(), None, 120, 24).expect("open the TUI");
    h.goto("src/util.c");
    h.keys("space m");
    let after_app = p.read("ctxcurate.toml");
    assert!(
        after_app.contains("{ path = \"src/util.c\", view_mode = \"summary\" }"),
        "{after_app}"
    );
    // Written outside the app, and reloaded.
    let outside = after_app.replace(
        "budget = 9000 # tokens\n",
        "budget = 9000 # tokens\n# model_window: the team agreed on 128k\n\
         model_window = 128000\nteam_only = \"ours\" # not a setting\n",
    );
    p.write("ctxcurate.toml", &outside);
    h.check_disk();
    assert_eq!(h.state.project.settings.model_window, 128000);
    let status = h.state.status.clone().expect("a status").0;
    assert!(
        status.starts_with("ctxcurate.toml changed on disk: reloaded"),
        "{status}"
    );

    // Back to the oldest state: util.c goes, what was written outside stays.
    h.key("U");
    h.keys("g enter");
    let jumped = p.read("ctxcurate.toml");
    assert_eq!(
        jumped,
        "# Team context: keep this line.\n[project]\nbudget = 9000 # tokens\n\
         # model_window: the team agreed on 128k\nmodel_window = 128000\n\
         team_only = \"ours\" # not a setting\n\n[presets.default]\nfiles = [\n    \
         \"src/app.py\",   # the app\n]\nnote = \"unknown keys stay\"\n"
    );
    assert_eq!(h.state.project.settings.model_window, 128000);

    // `u` brings the app's changes back on that same text.
    h.key("u");
    assert_eq!(p.read("ctxcurate.toml"), outside);
    // And `ctrl-r` goes to the jump's state again.
    h.key("ctrl-r");
    assert_eq!(p.read("ctxcurate.toml"), jumped);
}

mod property {
    use super::*;
    use proptest::prelude::*;

    #[derive(Debug, Clone)]
    enum Op {
        /// `space` on a file: included or excluded.
        Include(usize),
        /// `m` on a file: its view mode cycles.
        Mode(usize),
        /// Another program rewrites the file: a comment on top, one
        /// beside a key, and an unknown key in `[project]`.
        Outside,
        /// The idle look at the disk (a reload when it changed).
        Reload,
        Undo,
        Redo,
        /// `U`, the cursor on row `n` (from the top), Enter.
        Jump(usize),
    }

    const FILES: [&str; 3] = ["src/app.py", "src/util.c", "docs/guide.md"];

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            3 => (0..FILES.len()).prop_map(Op::Include),
            2 => (0..FILES.len()).prop_map(Op::Mode),
            2 => Just(Op::Outside),
            1 => Just(Op::Reload),
            2 => Just(Op::Undo),
            1 => Just(Op::Redo),
            2 => (0..6usize).prop_map(Op::Jump),
        ]
    }

    /// The file rewritten by another program (`n`: how many rewrites
    /// came before): its comments and unknown key are what must stay.
    fn rewrite(text: &str, n: usize) -> String {
        let key = format!("outside_{n} = {n} # beside {n}\n");
        let body = match text.find("[project]\n") {
            Some(at) => {
                let after = at + "[project]\n".len();
                format!("{}{key}{}", &text[..after], &text[after..])
            }
            None => format!("{text}\n[project]\n{key}"),
        };
        format!("# outside comment {n}\n{body}")
    }

    /// Every comment written (the hand file's and each rewrite's) and
    /// every unknown key is in `text`, the keys with their values.
    fn check(text: &str, rewrites: usize) -> Result<(), TestCaseError> {
        let mut comments = vec![
            "# Team context: keep this line.".to_string(),
            "# tokens".to_string(),
            "# the app".to_string(),
        ];
        for n in 0..rewrites {
            comments.push(format!("# outside comment {n}"));
            comments.push(format!("# beside {n}"));
        }
        for c in &comments {
            prop_assert!(text.contains(c.as_str()), "{c} lost:\n{text}");
        }
        let table: toml::Table =
            toml::from_str(text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let project = table.get("project").and_then(|p| p.as_table());
        for n in 0..rewrites {
            let v = project.and_then(|p| p.get(&format!("outside_{n}")));
            prop_assert_eq!(
                v.and_then(|v| v.as_integer()),
                Some(n as i64),
                "outside_{} lost:\n{}",
                n,
                text
            );
        }
        prop_assert_eq!(
            table
                .get("presets")
                .and_then(|p| p.get("default"))
                .and_then(|d| d.get("note"))
                .and_then(|n| n.as_str()),
            Some("unknown keys stay"),
            "{}",
            text
        );
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn nothing_written_is_lost(ops in proptest::collection::vec(op(), 1..16)) {
            let p = Project::fixture();
            p.write("ctxcurate.toml", HAND);
            let mut h = Harness::open(p.root(), None, 120, 24).expect("open the TUI");
            let mut rewrites = 0;
            for op in &ops {
                match *op {
                    Op::Include(f) => {
                        h.goto(FILES[f]);
                        h.key("space");
                    }
                    Op::Mode(f) => {
                        h.goto(FILES[f]);
                        h.key("m");
                    }
                    Op::Outside => {
                        let text = rewrite(&p.read("ctxcurate.toml"), rewrites);
                        p.write("ctxcurate.toml", &text);
                        rewrites += 1;
                    }
                    Op::Reload => h.check_disk(),
                    Op::Undo => h.key("u"),
                    Op::Redo => h.key("ctrl-r"),
                    Op::Jump(n) => {
                        h.key("U");
                        h.key("g");
                        for _ in 0..n {
                            h.key("j");
                        }
                        h.key("enter");
                    }
                }
                check(&p.read("ctxcurate.toml"), rewrites)?;
            }
            // Whatever the app holds now is what the disk holds, and a
            // last change of the app's keeps it all too.
            h.check_disk();
            h.goto(FILES[0]);
            h.key("m");
            check(&p.read("ctxcurate.toml"), rewrites)?;
        }
    }
}
