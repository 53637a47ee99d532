//! No data loss: the real binary is SIGKILLed at random moments while it
//! saves `ctxcurate.toml`, many times over; after every kill the file must
//! parse and be exactly the old or the new version, never a mix or empty.

#![cfg(unix)]

use crate::common;

use std::process::Stdio;
use std::time::{Duration, Instant};

use common::Project;
use ctxcurate::core::model::{ProjectFile, ViewMode};

/// A tiny xorshift generator: random enough for kill delays, and the seed
/// is printed so a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn mode_of(p: &Project) -> ViewMode {
    let text = p.read("ctxcurate.toml");
    let file: ProjectFile = toml::from_str(&text)
        .unwrap_or_else(|e| panic!("the project file does not parse after a kill: {e}\n{text}"));
    let preset = &file.presets["default"];
    assert_eq!(preset.files.len(), 3001, "entries were lost");
    preset.item("src/app.py").expect("entry kept").view_mode
}

#[test]
fn sigkill_during_saves_leaves_the_old_or_the_new_file() {
    let p = Project::fixture();
    // A big file, so a save takes long enough to be cut in the middle.
    let mut text = String::from("[presets.default]\nfiles = [\"src/app.py\"");
    for i in 0..3000 {
        text.push_str(&format!(", \"gen/module_{i:04}.py\""));
    }
    text.push_str("]\n");
    p.write("ctxcurate.toml", &text);

    let runs: u64 = std::env::var("CTXCURATE_KILL_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
        | 1;
    eprintln!("kill_during_save seed {seed}");
    let mut rng = Rng(seed);

    // Time uninterrupted runs to spread the kills over a whole run (the
    // save is at its end, after start-up and parsing).
    let mut full_run = 1;
    for _ in 0..3 {
        let started = Instant::now();
        p.ok(&["set", "src/app.py", "--mode", "skeleton"]);
        full_run = full_run.max(started.elapsed().as_micros() as u64);
    }

    let (mut killed, mut finished) = (0, 0);
    let mut expected = ViewMode::Skeleton;
    for _ in 0..runs {
        let next = if expected == ViewMode::Skeleton {
            ViewMode::Summary
        } else {
            ViewMode::Skeleton
        };
        let mut child = p
            .cmd(&["set", "src/app.py", "--mode", next.as_str()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn ctxcurate");
        std::thread::sleep(Duration::from_micros(rng.below(full_run * 5 / 4)));
        let _ = child.kill(); // SIGKILL on unix
        let status = child.wait().expect("wait");
        if status.success() {
            finished += 1;
        } else {
            killed += 1;
        }
        let now = mode_of(&p);
        assert!(
            now == expected || now == next,
            "after a kill the mode is {now}, neither {expected} nor {next}"
        );
        if status.success() {
            assert_eq!(now, next, "a finished save is on disk");
        }
        expected = now;
    }
    eprintln!("{runs} runs of ~{full_run} µs: {killed} killed, {finished} finished");
    assert!(killed > 0, "no run was killed: the test tested nothing");
    // Killed saves may leave hidden temporaries; they never hold the only
    // copy and are removed by a later save once stale.
    let leftovers: Vec<String> = std::fs::read_dir(p.root())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(
        leftovers.iter().all(|n| n.starts_with(".ctxcurate-")),
        "{leftovers:?}"
    );
}
