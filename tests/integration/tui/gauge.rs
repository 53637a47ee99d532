//! The gauge's kept sum over the included files (patched where an edit or
//! a count touched a few paths, see `State::refresh_gauge`) always equals
//! a sum made anew: random keypresses through the real keymap, with the
//! worker's answers applied in full, counts only, or not at all.

use ctxcurate::tui::messages::{Effect, Job};
use ctxcurate::tui::run::harness::Harness;

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for i in 0..6 {
        for folder in ["a", "b/c"] {
            let path = dir.path().join(folder);
            std::fs::create_dir_all(&path).expect("mkdir");
            std::fs::write(
                path.join(format!("m{i}.py")),
                format!("class C{i}:\n    def run(self):\n        return {i}\n"),
            )
            .expect("write");
            std::fs::write(path.join(format!("n{i}.txt")), format!("note {i}\n")).expect("write");
        }
    }
    std::fs::write(
        dir.path().join("ctxcurate.toml"),
        "[presets.default]\nfiles = [\"**/*.py\", \"a/n1.txt\"]\nexclude = [\"b/c/m5.py\"]\n",
    )
    .expect("write preset");
    dir
}

#[test]
fn the_kept_sum_equals_a_sum_made_anew() {
    let dir = project();
    let mut h = Harness::open(dir.path(), None, 120, 40).expect("open");
    // Every folder open, so the cursor reaches every file.
    h.goto("b/c/m0.py");
    h.goto("a/m0.py");
    let keys = [
        "j", "j", "k", "space", "space", "m", "a", "f", "u", "ctrl-r", "G", "g", "enter",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((seed >> 33) % n as u64) as usize
    };
    let mut patched = 0;
    for step in 0..400 {
        let key = keys[next(keys.len())];
        let effects = h.press(key);
        let kept = h.state.verify_gauge_sum();
        assert!(kept.is_ok(), "step {step} after {key}: {kept:?}");
        patched += usize::from(h.state.walk.resolver.patched > 0);
        match next(3) {
            0 => h.run(effects),
            1 => {
                let counts: Vec<Effect> = effects
                    .into_iter()
                    .filter(|e| matches!(e, Effect::Job(job) if matches!(**job, Job::Count { .. })))
                    .collect();
                h.run(counts);
            }
            _ => {}
        }
        let kept = h.state.verify_gauge_sum();
        assert!(kept.is_ok(), "step {step} after {key}'s jobs: {kept:?}");
    }
    assert!(
        patched > 0,
        "no edit was patched: the test did not reach the kept sum"
    );
}
