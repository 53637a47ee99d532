//! `ctxcurate trust`: review what the project file asks for beyond what it
//! may do on its own — settings that run a program or reach outside the
//! project (with the scripts a command names), and preset entries to
//! credential files, version control folders and ignored files — then
//! ask, on a terminal, before recording consent to exactly that.
//! `--yes` records without asking (scripts), `--show` only reviews,
//! `--revoke` forgets. The rules live in `core::trust`; this only shows,
//! asks and records.

use std::io::{BufRead, IsTerminal};

use anyhow::{Context as _, Result};
use ctxcurate::core::project::{Project, Scope};
use ctxcurate::core::trust::entries::{EntryConsent, Held};
use ctxcurate::core::trust::{Pending, TrustStore};
use ctxcurate::text::sanitize::display_line;

use super::{Ctx, user_err};

/// What `trust` was asked to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Show, then ask on a terminal.
    Ask,
    /// Show and record without asking.
    Yes,
    /// Show only.
    Show,
    /// Forget the consent.
    Revoke,
}

pub fn run(mode: Mode, ctx: &mut Ctx) -> Result<()> {
    // Opening, the warning and the review each resolve the settings: one
    // scan of the scripts serves them all.
    ctxcurate::core::trust::one_scan::run(|| run_once(mode, ctx))
}

fn run_once(mode: Mode, ctx: &mut Ctx) -> Result<()> {
    let project = Project::open(&ctx.cwd)?;
    // The other warnings as every command prints them; not the one that
    // says to run this very command.
    let untrusted = project.resolve().warning(&project.path);
    for w in project
        .warnings
        .iter()
        .filter(|w| Some(*w) != untrusted.as_ref())
    {
        writeln!(ctx.err, "warning: {}", display_line(w, 500))?;
    }
    let store = TrustStore::user().context("cannot find where to keep the consent")?;
    let root = display_line(&project.root.display().to_string(), 500).into_owned();
    let file = display_line(&project.path.display().to_string(), 500).into_owned();
    if mode == Mode::Revoke {
        let had = store.revoke(&project.root)?;
        if had {
            writeln!(ctx.out, "no longer trusted: {root}")?;
        } else {
            writeln!(ctx.out, "was not trusted: {root}")?;
        }
        return Ok(());
    }
    // What is shown is what is recorded: both come from this one reading
    // of the file and the disk.
    let pending = Pending::at(&project.file.project, &project.root);
    let held = held_entries(&project);
    if pending.is_empty() && held.is_empty() {
        writeln!(
            ctx.out,
            "nothing to trust: {file} sets nothing that runs a program or reaches outside \
             the project, and its presets name none of your credential or ignored files"
        )?;
        return Ok(());
    }
    show(&pending, &held, &file, ctx)?;
    if let Some(refusal) = pending.refusal() {
        user_err!("cannot trust {file}: {}", display_line(&refusal, 500));
    }
    match mode {
        Mode::Show => {
            writeln!(ctx.out, "nothing recorded (--show)")?;
            return Ok(());
        }
        Mode::Ask if !ask(ctx)? => {
            writeln!(ctx.out, "not trusted: nothing recorded")?;
            return Ok(());
        }
        _ => {}
    }
    if !pending.is_empty() {
        store.grant_pending(&project.root, &pending)?;
    }
    // Each for what it leads to now (a link's target is in its key).
    let allowed: Vec<String> = held.iter().map(|(h, _)| h.key.clone()).collect();
    store.allow(&project.root, allowed.iter().map(String::as_str))?;
    writeln!(
        ctx.out,
        "recorded for {root}; a change to these settings or scripts needs `ctxcurate trust` \
         again (`ctxcurate trust --revoke` withdraws it)"
    )?;
    Ok(())
}

/// The explicit entries of every project preset that are held now, each
/// once, with the presets naming it.
fn held_entries(project: &Project) -> Vec<(Held, Vec<String>)> {
    // What the project would read once trusted: its own
    // `allow_outside_root` counts (it is among the settings shown).
    let outside = project.settings.allow_outside_root
        || project
            .file
            .project
            .get("allow_outside_root")
            .and_then(toml::Value::as_bool)
            == Some(true);
    let consent = EntryConsent::project(project.allowed.clone(), outside);
    let mut named: Vec<(String, Vec<String>)> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = Default::default();
    for (name, _) in project.preset_names() {
        // The user's own (global) presets are never held.
        let Some((preset, Scope::Project)) = project.preset(&name) else {
            continue;
        };
        // Its targets are entries too (a packed build reads them).
        let paths = preset.files.iter().map(|i| &i.path).chain(&preset.targets);
        for path in paths {
            match index.get(path) {
                Some(&i) if !named[i].1.contains(&name) => named[i].1.push(name.clone()),
                Some(_) => {}
                None => {
                    index.insert(path.clone(), named.len());
                    named.push((path.clone(), vec![name.clone()]));
                }
            }
        }
    }
    let items: Vec<_> = named
        .iter()
        .map(|(p, _)| ctxcurate::core::model::FileItem::new(p.as_str()))
        .collect();
    let patterns = ctxcurate::core::walk::WalkPatterns::from_settings(&project.settings);
    consent
        .held(&project.root, &items, None, &patterns)
        .into_iter()
        .map(|h| {
            let presets = index
                .get(&h.path)
                .map(|&i| named[i].1.clone())
                .unwrap_or_default();
            (h, presets)
        })
        .collect()
}

/// The review: every value with what it does, every script with its
/// hash, every held entry with why. The repository's text, escaped and
/// shown whole.
fn show(pending: &Pending, held: &[(Held, Vec<String>)], file: &str, ctx: &mut Ctx) -> Result<()> {
    writeln!(ctx.out, "{file} asks for:")?;
    if !pending.is_empty() {
        writeln!(
            ctx.out,
            "settings that run a program or reach outside the project:"
        )?;
        for line in pending.lines() {
            writeln!(ctx.out, "  {}", display_line(&line, usize::MAX))?;
        }
    }
    if !held.is_empty() {
        writeln!(
            ctx.out,
            "preset entries that would send your own files (left out until allowed):"
        )?;
        for (h, presets) in held {
            // A link is shown with where it leads: that is what is allowed.
            let to = h
                .target()
                .map(|t| format!(" -> {}", display_line(t, usize::MAX)))
                .unwrap_or_default();
            writeln!(
                ctx.out,
                "  {}{to}   ({}; preset {})",
                display_line(&h.path, usize::MAX),
                h.reason.describe(),
                display_line(&presets.join(", "), 500)
            )?;
        }
    }
    Ok(())
}

/// Ask on the terminal; refuse without one (a script says `--yes`).
fn ask(ctx: &mut Ctx) -> Result<bool> {
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        user_err!(
            "not trusted: no terminal to ask on; review the above and run \
             `ctxcurate trust --yes` to allow it"
        );
    }
    write!(ctx.err, "allow all of the above for this checkout? [y/N] ")?;
    ctx.err.flush()?;
    let mut answer = String::new();
    // A closed or unreadable stdin is a no.
    if stdin.lock().read_line(&mut answer).is_err() {
        return Ok(false);
    }
    Ok(matches!(answer.trim(), "y" | "Y" | "yes" | "Yes" | "YES"))
}
