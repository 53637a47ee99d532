//! `ctxcurate trust`: show the project file's settings that run a program
//! or reach outside the project, and remember the user's consent to
//! exactly those values (`--revoke` forgets it). The rules live in
//! `core::trust`; this only prints and records.

use anyhow::{Context as _, Result};
use ctxcurate::core::project::Project;
use ctxcurate::core::trust::{Pending, TrustStore};
use ctxcurate::tui::sanitize::display_line;

use super::Ctx;

pub fn run(revoke: bool, ctx: &mut Ctx) -> Result<()> {
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
    if revoke {
        let had = store.revoke(&project.root)?;
        if had {
            writeln!(ctx.out, "no longer trusted: {root}")?;
        } else {
            writeln!(ctx.out, "was not trusted: {root}")?;
        }
        return Ok(());
    }
    // What is shown is what is recorded: both come from this one reading
    // of the file.
    let pending = Pending::of(&project.file.project);
    if pending.is_empty() {
        writeln!(
            ctx.out,
            "nothing to trust: {} sets nothing that runs a program or reaches outside the project",
            display_line(&project.path.display().to_string(), 500)
        )?;
        return Ok(());
    }
    writeln!(
        ctx.out,
        "trusting {} with these settings:",
        display_line(&project.path.display().to_string(), 500)
    )?;
    for line in pending.lines() {
        // The repository's text: escaped, and shown whole.
        writeln!(ctx.out, "  {}", display_line(&line, usize::MAX))?;
    }
    store.grant(&project.root, &pending.fingerprint())?;
    writeln!(
        ctx.out,
        "recorded for {root}; a change to them needs `ctxcurate trust` again \
         (`ctxcurate trust --revoke` withdraws it)"
    )?;
    Ok(())
}
