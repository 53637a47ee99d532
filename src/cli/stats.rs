//! `ctxcurate stats`: where the tokens of a preset's composition go, file
//! by file (the table of `core::token_map`), as text or JSON; and the
//! `completions` and `man` commands, which print what clap derives.

use anyhow::Result;
use clap::CommandFactory;
use ctxcurate::core::compose::ComposeOptions;
use ctxcurate::core::engine::{MapOptions, Workspace};
use ctxcurate::core::model::TokenizerKind;
use ctxcurate::core::project::Project;
use ctxcurate::core::token_map::TokenMap;
use ctxcurate::text::sanitize::{display_line, escape_line};

use super::Ctx;
use super::build::chosen_preset;

/// Width of the bar column of the text table.
const BAR_WIDTH: usize = 20;

pub fn stats(
    preset: Option<&str>,
    tokenizer: Option<TokenizerKind>,
    json: bool,
    ctx: &mut Ctx,
) -> Result<()> {
    let project = ctx.project()?;
    let consent = project.entry_consent(preset.unwrap_or(project.active_preset_name()));
    let preset = chosen_preset(&project, preset)?;
    let mut opts = ComposeOptions::from_settings(&project.settings);
    opts.consent = consent;
    let kind = tokenizer.unwrap_or(project.settings.tokenizer);
    let sources = project.run_cache();
    let map = MapOptions {
        tokenizer: kind,
        ..MapOptions::from_settings(&project.settings)
    };
    let composition = Workspace::open(&project, &sources).compose(&preset, &opts, &map);
    for problem in &composition.problems {
        writeln!(ctx.err, "warning: {}", display_line(problem, 300))?;
    }
    let map = TokenMap::of(&composition, &sources, kind, project.settings.budget);
    if json {
        serde_json::to_writer_pretty(&mut *ctx.out, &map)?;
        writeln!(ctx.out)?;
    } else {
        // One row per file, whatever its name: a newline or a control in
        // a path is shown, never printed (JSON escapes them itself).
        let mut shown = map;
        for row in &mut shown.files {
            row.path = escape_line(&row.path).into_owned();
        }
        ctx.out.write_all(shown.table(BAR_WIDTH).as_bytes())?;
    }
    Ok(())
}

/// A completion script for `shell` on stdout. Preset names complete too:
/// the presets of the project in the current directory (and the global
/// config) when the script is generated, written into it as a list (run
/// `completions` again after adding presets). clap_complete's dynamic
/// completion would ask the binary at each Tab, but it is an unstable
/// feature of the crate.
pub fn completions(shell: clap_complete::Shell, ctx: &mut Ctx) -> Result<()> {
    let names = completable_presets(ctx);
    let mut command = with_preset_names(super::Cli::command(), &names);
    // Into a buffer first: clap_complete panics on a write error, and a
    // closed pipe (`| head`) must stay an ordinary error.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "ctxcurate", &mut script);
    ctx.out.write_all(&script)?;
    Ok(())
}

/// The preset names a completion script may offer. A name goes into a
/// shell script the user sources, and a cloned repository chooses its
/// names: only plain ones (letters, digits, `.`, `_`, `-`) are offered,
/// so no quoting rule of any shell is relied on. No project: none.
/// `'static` because clap (without its `string` feature) takes only
/// static values; leaked once, by a command that prints and exits.
fn completable_presets(ctx: &Ctx) -> Vec<&'static str> {
    let Ok(project) = Project::open(&ctx.cwd) else {
        return Vec::new();
    };
    project
        .preset_names()
        .into_iter()
        .map(|(name, _)| name)
        .filter(|name| {
            !name.is_empty()
                && !name.starts_with('-')
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
        })
        .map(|name| &*Box::leak(name.into_boxed_str()))
        .collect()
}

/// `command` with `names` as the values of every argument that takes a
/// preset: `--preset`/`-p` anywhere, and `preset show|apply|delete NAME`
/// and `preset rename OLD`. Only the script is generated from it; parsing
/// still takes any name (and says when there is no such preset).
fn with_preset_names(command: clap::Command, names: &[&'static str]) -> clap::Command {
    if names.is_empty() {
        return command;
    }
    let values = || clap::builder::PossibleValuesParser::new(names.iter().copied());
    let command = command.mut_args(|arg| {
        if arg.get_id() == "preset" {
            arg.value_parser(values())
        } else {
            arg
        }
    });
    let is_presets = command.get_name() == "preset";
    command.mut_subcommands(|sub| {
        let sub = with_preset_names(sub, names);
        match (is_presets, sub.get_name()) {
            (true, "show" | "apply" | "delete") => {
                sub.mut_arg("name", |a| a.value_parser(values()))
            }
            (true, "rename") => sub.mut_arg("old", |a| a.value_parser(values())),
            _ => sub,
        }
    })
}

/// The man page, in roff, on stdout.
pub fn man(ctx: &mut Ctx) -> Result<()> {
    clap_mangen::Man::new(super::Cli::command()).render(&mut ctx.out)?;
    Ok(())
}
