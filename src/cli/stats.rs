//! `ctxcurate stats`: where the tokens of a preset's composition go, file
//! by file (the table of `core::token_map`), as text or JSON — or of the
//! pack `build --target … --budget …` makes, with what it left out and
//! why; and the `completions` and `man` commands, which print what clap
//! derives.

use anyhow::Result;
use clap::CommandFactory;
use ctxcurate::core::compose::Composition;
use ctxcurate::core::discovery::pack::left_out::Why;
use ctxcurate::core::engine::{
    BuildAsk, BuildKind, BuildRequest, PackReport, TaskText, Workspace, ask,
};
use ctxcurate::core::model::TokenizerKind;
use ctxcurate::core::project::Project;
use ctxcurate::core::token_map::TokenMap;
use ctxcurate::text::sanitize::{display_line, escape_line};
use ctxcurate::text::words::thousands;

use super::Ctx;
use super::build::refuse;

/// Width of the bar column of the text table.
const BAR_WIDTH: usize = 20;

/// What `stats` packs around (nothing: it counts the composition).
pub struct PackAsk {
    pub targets: Vec<std::path::PathBuf>,
    pub budget: Option<usize>,
    /// The task the pack is ranked for (else the preset's).
    pub task: Option<String>,
}

pub fn stats(
    preset: Option<&str>,
    tokenizer: Option<TokenizerKind>,
    json: bool,
    pack: &PackAsk,
    ctx: &mut Ctx,
) -> Result<()> {
    let project = ctx.project()?;
    // The engine resolves the flags as for `build` (what it says there,
    // an empty preset or a missing entry, is not a count's concern).
    let ask = BuildAsk {
        cwd: ctx.cwd.clone(),
        preset: preset.map(str::to_string),
        task: pack.task.clone().map(TaskText::Text),
        targets: pack.targets.clone(),
        tokenizer,
        budget: pack.budget,
        allow_partial: true,
        allow_secrets: true,
        ..BuildAsk::default()
    };
    let req = match ask::resolve(&project, ask) {
        Ok(asked) => asked.req,
        Err(refused) => return refuse(refused.why),
    };
    if !pack.targets.is_empty() || pack.budget.is_some() || pack.task.is_some() {
        return packed_stats(&project, req, json, ctx);
    }
    let kind = req.tokenizer();
    let sources = project.run_cache();
    let composition =
        Workspace::open(&project, &sources).compose(&req.preset, &req.compose, &req.map);
    for problem in &composition.problems {
        writeln!(ctx.err, "warning: {}", display_line(problem, 300))?;
    }
    let map = TokenMap::of(&composition, &sources, kind, project.settings.budget);
    print_map(map, json, ctx)
}

/// The table (or JSON) of `map`.
fn print_map(map: TokenMap, json: bool, ctx: &mut Ctx) -> Result<()> {
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

/// `stats --target … --budget …`: the pack's files by tokens, then what
/// it reduced and what it left out, and why (JSON: the map with `left_out`
/// and `reduced` added). The pack is the one `build` makes (the engine's),
/// its text never printed: a target that does not fit is listed as left
/// out, and likely secrets do not stop a count.
fn packed_stats(project: &Project, mut req: BuildRequest, json: bool, ctx: &mut Ctx) -> Result<()> {
    req.kind = BuildKind::Pack;
    let kind = req.tokenizer();
    let sources = project.run_cache();
    let built = match Workspace::open(project, &sources).build(req) {
        Ok(built) => built,
        Err(refused) => *refused.so_far,
    };
    for problem in &built.problems {
        writeln!(ctx.err, "warning: {}", display_line(problem, 300))?;
    }
    let Some(packed) = &built.packed else {
        return Ok(());
    };
    let composition = Composition {
        text: built.text.clone(),
        files: built.files.clone(),
        problems: Vec::new(),
        left_out_notes: 0,
        skipped: Vec::new(),
        map: None,
    };
    let map = TokenMap::of(&composition, &sources, kind, packed.stats.budget)
        .with_repo_map(packed.stats.map_tokens);
    if json {
        let mut value = serde_json::to_value(&map)?;
        value["left_out"] = serde_json::to_value(&packed.stats.left_out)?;
        value["reduced"] = serde_json::to_value(&packed.stats.reduced_files)?;
        serde_json::to_writer_pretty(&mut *ctx.out, &value)?;
        writeln!(ctx.out)?;
        return Ok(());
    }
    print_map(map, false, ctx)?;
    ctx.out.write_all(pack_notes(packed).as_bytes())?;
    Ok(())
}

/// The reduced files and what was left out, one line each, after the
/// table.
fn pack_notes(packed: &PackReport) -> String {
    let s = &packed.stats;
    let mut out = String::new();
    for item in packed.items.iter().filter(|i| !i.reasons.is_empty()) {
        let place = if item.mode.is_some() {
            "why"
        } else {
            "why not"
        };
        out.push_str(&format!(
            "{place:<10} {}: {}\n",
            escape_line(&item.path),
            escape_line(&item.reasons.join("; "))
        ));
    }
    for r in &s.reduced_files {
        out.push_str(&format!(
            "reduced    {} ({} → {})\n",
            escape_line(&r.path),
            r.wanted,
            r.mode
        ));
    }
    for d in &s.left_out {
        let why = match d.why {
            Why::Budget => match d.tokens {
                Some(t) => format!("no room: at least {} tokens", thousands(t)),
                None => "no room".to_string(),
            },
            Why::Excluded => "the preset excludes it".to_string(),
            Why::Sensitive => "a credential file".to_string(),
            Why::Secret => format!(
                "held: likely secret at {}",
                escape_line(d.at.as_deref().unwrap_or(&d.path))
            ),
        };
        out.push_str(&format!("left out   {} ({why})\n", escape_line(&d.path)));
    }
    out
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
