//! `ctxcurate build --watch -o FILE`: build once, then watch the project
//! (`core::watch`) and build again when a change can alter the output —
//! an included file written or deleted, a file appearing or leaving the
//! walk (a glob may take it), a new folder, an ignore file, ctxcurate.toml
//! — each rebuild's report ending in one line that names what changed.
//! When ctxcurate.toml changes its `[project] ignore`/`unignore`, the
//! watch follows the new patterns (the folders it watches, what it
//! reports), as it follows a changed ignore file by itself. Without `-p`,
//! a `ctxcurate preset apply` (or a tokenizer or strategy switch) from
//! another shell rebuilds too: the user's own state file is looked at
//! about once a second. A
//! failed rebuild is reported and the watch goes on (fix the file, it
//! builds again). Ctrl-C, SIGTERM or SIGHUP end it between two builds,
//! with exit status 0: the output is never left half written by them.
//!
//! The output, when it lies in the project, is left out of its own
//! composition. Without `-o` it refuses: stdout has no place to rewrite;
//! nor does it start when the output leads through a link out of the
//! project (`output_file::check_named`).

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use anyhow::{Context as _, Result};
use ctxcurate::core::engine::output_file;
use ctxcurate::core::project::{PersonalStore, Project};
use ctxcurate::core::walk::{self, WalkPatterns};
use ctxcurate::core::watch::{Changes, ProjectWatch, WatchReport, is_control_file};
use ctxcurate::text::sanitize::display_line;
use ctxcurate::text::words::plural;

use super::args::BuildArgs;
use super::build::{Rebuild, build_once, output_rel};
use super::{Ctx, user_err};

/// How often the loop looks at the stop flag while nothing changes.
const TICK: Duration = Duration::from_millis(200);

pub fn build_watch(args: &BuildArgs, ctx: &mut Ctx) -> Result<()> {
    let Some(output) = &args.output else {
        user_err!(
            "--watch rewrites a file: give it with -o FILE (standard output cannot be rewritten)"
        );
    };
    let stop = stop_on_signals()?;
    let project = ctx.project()?;
    let root = project.root.clone();
    // A link out of the project refuses every rebuild: said once, up front.
    if let Err(e) = output_file::check_named(&root, &ctx.cwd.join(output)) {
        user_err!("{}", display_line(&e.to_string(), 500));
    }
    let mut patterns = WalkPatterns::from_settings(&project.settings);
    // The output itself may lie in the project (and be walked): its own
    // rewrite is no change.
    let own = output_rel(&root, &ctx.cwd.join(output));
    let mut included = Vec::new();
    let first = Rebuild {
        note: None,
        output: own.as_deref(),
    };
    if let Err(e) = build_once(args, ctx, &first, Some(&mut included)) {
        report_failure(&e, ctx)?;
    }
    // The folder watched: a rebuild goes by the root's path, so a project
    // moved away and replaced (a link elsewhere) would be read and written
    // there (sweep 13, W2). The watch stops instead.
    let identity = folder_identity(&root);
    let moved = || identity.is_none() || folder_identity(&root) != identity;
    let mut walked = walk::walk_files_with(&root, &patterns);
    // The user's own choices (`preset apply`), when no `-p` overrides them.
    let store = PersonalStore::user().ok().filter(|_| args.preset.is_none());
    let mut personal = store.as_ref().map(|s| s.peek(&root).map(|st| st.project));
    let mut ticks = 0u32;
    let (tx, rx) = mpsc::channel();
    let watch = ProjectWatch::start(&root, patterns.clone(), move |r| tx.send(r).is_ok());
    while !stop.load(Ordering::Relaxed) {
        let mut changes = match rx.recv_timeout(TICK) {
            Ok(WatchReport::Watching { folders }) => {
                writeln!(
                    ctx.err,
                    "watching {} ({}) for changes (Ctrl-C stops)",
                    display_line(&root.display().to_string(), 300),
                    plural(folders, "folder")
                )?;
                continue;
            }
            Ok(WatchReport::Changed(c)) => c,
            Ok(WatchReport::Failed(e)) => {
                user_err!("stopped watching: {}", ctxcurate::text::error_chain(&e))
            }
            Err(RecvTimeoutError::Timeout) => {
                ticks = ticks.wrapping_add(1);
                let now = match &store {
                    Some(s) if ticks.is_multiple_of(5) => Some(s.peek(&root).map(|st| st.project)),
                    _ => None,
                };
                if let Some(now) = now
                    && Some(&now) != personal.as_ref()
                {
                    personal = Some(now);
                    if moved() {
                        stopped_moved(&root)?;
                    }
                    let note = "your own preset or settings changed";
                    let rebuild = Rebuild {
                        note: Some(note),
                        output: own.as_deref(),
                    };
                    if let Err(e) = build_once(args, ctx, &rebuild, Some(&mut included)) {
                        report_failure(&e, ctx)?;
                    }
                }
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => break,
        };
        if let Some(own) = &own {
            changes.paths.retain(|p| p != own);
        }
        if changes.overflowed || changes.paths.iter().any(|p| p == "ctxcurate.toml") {
            follow_patterns(&ctx.cwd, &watch, &mut patterns);
        }
        let Some(what) = matters(&root, &changes, &included, &mut walked, &patterns) else {
            continue;
        };
        if moved() {
            stopped_moved(&root)?;
        }
        let note = format!("{what} changed");
        let rebuild = Rebuild {
            note: Some(&note),
            output: own.as_deref(),
        };
        if let Err(e) = build_once(args, ctx, &rebuild, Some(&mut included)) {
            report_failure(&e, ctx)?;
        }
    }
    writeln!(ctx.err, "stopped watching")?;
    Ok(())
}

/// The device and inode of the folder at `path` (links followed): what
/// the watch started on, to know it is still there.
fn folder_identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path)
        .ok()
        .filter(std::fs::Metadata::is_dir)
        .map(|m| (m.dev(), m.ino()))
}

/// The error that ends a watch whose project folder moved.
fn stopped_moved(root: &Path) -> Result<()> {
    user_err!(
        "stopped watching: the project folder {} was moved, removed or replaced; \
         nothing was built there (start the watch again where the project is)",
        display_line(&root.display().to_string(), 300)
    )
}

/// The project's ignore patterns as ctxcurate.toml gives them now: when
/// they changed, the watch and the walk follow them. A file that does not
/// open (a parse error) keeps the patterns as they were; the rebuild says
/// what is wrong.
fn follow_patterns(cwd: &Path, watch: &ProjectWatch, patterns: &mut WalkPatterns) {
    let Ok(project) = Project::open(cwd) else {
        return;
    };
    let now = WalkPatterns::from_settings(&project.settings);
    if now != *patterns {
        watch.set_patterns(now.clone());
        *patterns = now;
    }
}

/// Ctrl-C, SIGTERM and SIGHUP set the returned flag instead of ending the
/// process: the loop ends between two builds. A second one (a long build
/// the user will not wait for) ends the process at once, status 1.
fn stop_on_signals() -> Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
    ] {
        // Registered first, so it sees the flag as the earlier signal left it.
        signal_hook::flag::register_conditional_shutdown(sig, 1, stop.clone())
            .and_then(|_| signal_hook::flag::register(sig, stop.clone()))
            .context("cannot watch for termination signals")?;
    }
    Ok(stop)
}

/// A failed rebuild: said, and the watch goes on.
fn report_failure(e: &anyhow::Error, ctx: &mut Ctx) -> Result<()> {
    writeln!(
        ctx.err,
        "ctxcurate: {} (still watching)",
        display_line(&format!("{e:#}"), 500)
    )?;
    Ok(())
}

/// What, of `changes`, can change the output (named for the report's
/// line), or `None`; `walked` is kept up to date on the way (a full walk
/// again when a folder came or the report overflowed).
fn matters(
    root: &Path,
    changes: &Changes,
    included: &[String],
    walked: &mut Vec<String>,
    patterns: &WalkPatterns,
) -> Option<String> {
    let mut hits = Vec::new();
    let mut rewalk = changes.overflowed;
    for p in &changes.paths {
        let path = root.join(p);
        let is_dir = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir());
        let was = walked.binary_search(p);
        let is_file = !is_dir && path.is_file();
        let control = is_control_file(p);
        let entered_or_left = match was {
            Ok(i) if !is_file => {
                walked.remove(i);
                true
            }
            Err(i) if is_file => {
                walked.insert(i, p.clone());
                true
            }
            _ => false,
        };
        rewalk |= is_dir || control;
        if is_dir || control || entered_or_left || included.binary_search(p).is_ok() {
            hits.push(p.as_str());
        }
    }
    if rewalk {
        *walked = walk::walk_files_with(root, patterns);
    }
    match (hits.as_slice(), changes.overflowed) {
        (_, true) => Some("many files".to_string()),
        ([], false) => None,
        ([one], false) => Some(one.to_string()),
        ([first, rest @ ..], false) => Some(format!("{first} (and {} more)", rest.len())),
    }
}
