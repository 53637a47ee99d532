//! The command line, declared with clap: every subcommand, flag and its
//! one-line help lives here, so `--help` and the parser cannot drift apart.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use ctxcurate::core::model::{Format, MaskState, Strategy, TokenizerKind, TreeMode, ViewMode};

/// Curate the context you hand to an LLM: pick files, choose how much of
/// each the model sees, count tokens, compose, copy.
#[derive(Debug, Parser)]
#[command(name = "ctxcurate", version, about, long_about = None)]
pub struct Cli {
    /// Run as if started in DIR.
    #[arg(short = 'C', long = "directory", global = true, value_name = "DIR")]
    pub directory: Option<PathBuf>,

    /// No progress line on stderr (there is none on a pipe either).
    #[arg(short, long, global = true)]
    pub quiet: bool,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compose the context of a preset (stdout by default). With
    /// `--target` or `--budget`, pack it: discover what the targets import
    /// and fill the budget without ever exceeding it.
    Build(BuildArgs),
    /// Print the repo map: the project's files ranked by relevance to the
    /// targets, the top ones with outlines, sized to fit a token budget.
    Map(MapArgs),
    /// Print one file's rendered view (works without a project file).
    View {
        path: PathBuf,
        /// The view mode to render.
        #[arg(long, short, value_parser = named::<ViewMode>("ViewMode"), default_value = "full")]
        mode: ViewMode,
        /// Read the file whatever its size, as `force_full = true` on a
        /// preset entry does (`max_file_size` applies otherwise).
        #[arg(long)]
        force_full: bool,
    },
    /// Print a file's symbol tree.
    Symbols {
        path: PathBuf,
        /// As JSON: each symbol with path, name, kind, start_line, end_line,
        /// signature, children, and tokens (what hiding it takes off, in
        /// the project's tokenizer, nested symbols included).
        #[arg(long)]
        json: bool,
        /// Read the file whatever its size, as `force_full = true` on a
        /// preset entry does (`max_file_size` applies otherwise).
        #[arg(long)]
        force_full: bool,
    },
    /// Add files or globs to a preset (or, with `--changed`, the files
    /// git sees changed).
    Add {
        #[arg(required_unless_present = "changed", value_name = "PATH_OR_GLOB")]
        paths: Vec<String>,
        /// Add the files changed against REF instead (default: HEAD, i.e.
        /// the working tree and index), plus untracked files that are not
        /// ignored. Needs a git repository.
        #[arg(long, value_name = "REF", num_args = 0..=1,
              default_missing_value = "HEAD", conflicts_with = "paths")]
        changed: Option<String>,
        /// View mode of the new entries.
        #[arg(long, short, value_parser = named::<ViewMode>("ViewMode"))]
        mode: Option<ViewMode>,
        #[command(flatten)]
        target: PresetTarget,
    },
    /// Remove entries from a preset.
    Rm {
        #[arg(required = true, value_name = "PATH_OR_GLOB")]
        paths: Vec<String>,
        #[command(flatten)]
        target: PresetTarget,
    },
    /// Change how an entry renders.
    Set {
        path: String,
        #[arg(long, short, value_parser = named::<ViewMode>("ViewMode"))]
        mode: Option<ViewMode>,
        /// Render the file in full whatever its mode.
        #[arg(long, overrides_with = "no_force_full")]
        force_full: bool,
        /// Stop forcing full.
        #[arg(long)]
        no_force_full: bool,
        /// List the file but do not render it.
        #[arg(long, overrides_with = "aggregate")]
        no_aggregate: bool,
        /// Render the file again.
        #[arg(long)]
        aggregate: bool,
        /// The state of symbols not named in the mask.
        #[arg(long, value_parser = named::<MaskState>("MaskState"))]
        mask_default: Option<MaskState>,
        #[command(flatten)]
        target: PresetTarget,
    },
    /// Mask one symbol of a file (switches the file to `masked`).
    Mask {
        path: String,
        /// Symbol path, e.g. `App.run` or `ns::Class::method`.
        symbol: String,
        #[arg(value_parser = named::<MaskState>("MaskState"))]
        state: MaskState,
        #[command(flatten)]
        target: PresetTarget,
    },
    /// Add an anchored line slice to a file (switches the file to `custom`).
    Slice {
        path: String,
        /// First line, 1-based.
        start: usize,
        /// Last line, inclusive.
        end: usize,
        #[arg(long)]
        tag: Option<String>,
        #[arg(long)]
        comment: Option<String>,
        #[command(flatten)]
        target: PresetTarget,
    },
    /// List a file's slices and how each resolves against the file as it
    /// is now (kept, moved by N, re-anchored, stale).
    Slices {
        path: String,
        /// Read this preset instead of the active one.
        #[arg(long, short)]
        preset: Option<String>,
    },
    /// Where the tokens go: the preset's files by tokens, largest first,
    /// each with its share of the budget, and the rest of the text.
    Stats {
        /// The preset to count (default: the active one).
        #[arg(long, short)]
        preset: Option<String>,
        #[arg(long, short, value_parser = named::<TokenizerKind>("TokenizerKind"))]
        tokenizer: Option<TokenizerKind>,
        /// As JSON: tokenizer, budget, total, other, and files with path,
        /// mode, tokens and error (packed: also `left_out` and `reduced`).
        #[arg(long)]
        json: bool,
        /// Count the pack around this file (repeatable) as `build --target`
        /// makes it, and list what it left out.
        #[arg(long = "target", value_name = "FILE")]
        targets: Vec<std::path::PathBuf>,
        /// The pack's budget (as `build --budget`; packs without a target
        /// too).
        #[arg(long, value_name = "N")]
        budget: Option<usize>,
        /// Count the pack for this task (as `build --task`): every file
        /// ranked for it, each pick with its reasons.
        #[arg(long, value_name = "TEXT")]
        task: Option<String>,
    },
    /// Print a completion script for SHELL; e.g. for bash:
    /// `ctxcurate completions bash > ~/.local/share/bash-completion/completions/ctxcurate`.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Internal: serve stdin's text as the desktop clipboard until another
    /// program takes it over (the TUI hands its copies to this, so they
    /// outlive the app).
    #[command(name = "clipboard-hold", hide = true)]
    ClipboardHold,
    /// Print the man page (roff); e.g.
    /// `ctxcurate man > ~/.local/share/man/man1/ctxcurate.1`.
    Man,
    /// Inspect or clear the on-disk cache (`.ctxcurate/cache`: summaries).
    #[command(subcommand)]
    Cache(CacheCommand),
    /// Manage presets.
    #[command(subcommand)]
    Preset(PresetCommand),
    /// Print the terminal UI's key bindings as a Markdown table (with your
    /// global config's `[keymap]` overrides).
    Keys,
    /// Review and allow what this project's ctxcurate.toml asks for beyond
    /// what it may do on its own: settings that run a program or reach
    /// outside the project (summary_command and the scripts it names,
    /// allow_outside_root, an output_dir or namespace leading out) and
    /// preset entries to credential files, version control folders or
    /// ignored files. Shows them, then asks (y/N) on a terminal; consent
    /// covers exactly what was shown, and a change needs it again.
    Trust {
        /// Withdraw the consent instead.
        #[arg(long, conflicts_with_all = ["yes", "show"])]
        revoke: bool,
        /// Allow without asking (for scripts): what is shown is recorded.
        #[arg(long, short = 'y', conflicts_with = "show")]
        yes: bool,
        /// Only show what would be allowed; record nothing.
        #[arg(long)]
        show: bool,
    },
    /// Count the tokens of files' raw content (the active preset's files
    /// when no path is given; `-` reads standard input; a folder of the
    /// project counts its files as `add` would take them). A file named
    /// here is counted whatever its size, with a note over `max_file_size`.
    Tokens {
        paths: Vec<PathBuf>,
        #[arg(long, short, value_parser = named::<TokenizerKind>("TokenizerKind"))]
        tokenizer: Option<TokenizerKind>,
        /// Count the preset's files whatever their size, as `force_full =
        /// true` on an entry does (`max_file_size` applies otherwise).
        #[arg(long)]
        force_full: bool,
    },
    /// The discussion history rendered after the files (`## Discussion
    /// History`): add a message, a compaction point, list or clear it.
    #[command(subcommand)]
    Discuss(DiscussCommand),
    /// Screenshots listed in the context (`## Screenshots`): image files
    /// inside the project (png, jpg, jpeg, gif, webp, svg).
    #[command(subcommand)]
    Shot(ShotCommand),
    /// The preset's task for the model (`## Task`, last in the context).
    #[command(subcommand)]
    Task(TaskCommand),
    /// Serve the presets and their context to agents over MCP (stdio);
    /// read-only unless `--allow-edits`. `--print-config` shows how to
    /// register it.
    Mcp(McpArgs),
}

/// `ctxcurate mcp`.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// Offer the tools that change a preset (include, exclude, set_mode,
    /// mask, save_preset), saved like the CLI's edits.
    #[arg(long)]
    pub allow_edits: bool,
    /// Deliver contexts with likely secrets (refused by default, naming
    /// each finding's file and line).
    #[arg(long)]
    pub allow_secrets: bool,
    /// The most one tool result holds, in bytes; a longer text comes in
    /// parts, fetched with the `more` tool.
    #[arg(long, value_name = "BYTES", default_value_t = 100_000)]
    pub max_result: usize,
    /// Print the snippets that register this server in common MCP
    /// clients (Claude Code, Cursor, VS Code, Codex), then exit.
    #[arg(long)]
    pub print_config: bool,
}

/// Where a message or a task comes from: the argument, a file, or stdin.
#[derive(Debug, Args)]
pub struct TextSource {
    /// The text; `-` reads it from stdin.
    #[arg(
        value_name = "TEXT",
        required_unless_present = "file",
        conflicts_with = "file"
    )]
    pub text: Option<String>,
    /// Read the text from FILE (`-`: stdin).
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Keep the text even if it holds likely secrets (private keys, API
    /// tokens, passwords); without it such a text is refused.
    #[arg(long)]
    pub allow_secrets: bool,
}

#[derive(Debug, Subcommand)]
pub enum DiscussCommand {
    /// Add a message.
    Add {
        /// Who said it: User, Assistant, or another plain word.
        #[arg(long, short, default_value = "User")]
        role: String,
        #[command(flatten)]
        source: TextSource,
        #[command(flatten)]
        target: PresetTarget,
    },
    /// Add a compaction point: the rendered history starts there, with
    /// TEXT (optional) summing up what came before.
    Compact {
        #[arg(value_name = "TEXT")]
        text: Option<String>,
        /// Keep the summary even if it holds likely secrets.
        #[arg(long)]
        allow_secrets: bool,
        #[command(flatten)]
        target: PresetTarget,
    },
    /// List the messages: number, role and first line.
    List {
        /// Read this preset instead of the active one.
        #[arg(long, short)]
        preset: Option<String>,
    },
    /// Remove every message and compaction point.
    Clear {
        #[command(flatten)]
        target: PresetTarget,
    },
}

#[derive(Debug, Subcommand)]
pub enum ShotCommand {
    /// Add image files to the screenshots.
    Add {
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<String>,
        #[command(flatten)]
        target: PresetTarget,
    },
    /// Remove screenshots.
    Rm {
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<String>,
        #[command(flatten)]
        target: PresetTarget,
    },
}

#[derive(Debug, Subcommand)]
pub enum TaskCommand {
    /// Set the task (replacing the one there is).
    Set {
        #[command(flatten)]
        source: TextSource,
        #[command(flatten)]
        target: PresetTarget,
    },
    /// Print the task.
    Show {
        /// Read this preset instead of the active one.
        #[arg(long, short)]
        preset: Option<String>,
    },
    /// Remove the task.
    Clear {
        #[command(flatten)]
        target: PresetTarget,
    },
}

#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The preset to compose (default: the active one).
    #[arg(long, short)]
    pub preset: Option<String>,
    #[arg(long, short, value_parser = named::<Strategy>("Strategy"))]
    pub strategy: Option<Strategy>,
    #[arg(long, short, value_parser = named::<Format>("Format"))]
    pub format: Option<Format>,
    /// Write to FILE instead of stdout.
    #[arg(long, short, value_name = "FILE", conflicts_with = "save")]
    pub output: Option<PathBuf>,
    /// Write to {output_dir}/{namespace}_{NNN}.md (.xml for XML), the next
    /// free number; inside the project unless your global config (or a
    /// trusted project file) says otherwise.
    #[arg(long)]
    pub save: bool,
    #[arg(long, short, value_parser = named::<TokenizerKind>("TokenizerKind"))]
    pub tokenizer: Option<TokenizerKind>,
    /// The directory tree before the files: included (the context's
    /// files), all (the project's), none (default: `tree` from the config).
    #[arg(long, value_name = "MODE", value_parser = named::<TreeMode>("TreeMode"))]
    pub tree: Option<TreeMode>,
    /// Pack around this file (repeatable; adds to the preset's targets):
    /// targets in full, their imports in full, transitive imports as
    /// skeletons, a repo map, then the preset's entries.
    #[arg(long = "target", value_name = "FILE")]
    pub targets: Vec<PathBuf>,
    /// Pack into at most N tokens (default with --target: `budget` from the
    /// config).
    #[arg(long, value_name = "N")]
    pub budget: Option<usize>,
    /// Tokens kept for the repo map of a packed build before the preset's
    /// own entries (after targets and imports; default: `repo_map_budget`).
    #[arg(long, value_name = "N")]
    pub map_budget: Option<usize>,
    /// Print the packing stats to stderr as JSON.
    #[arg(long)]
    pub stats_json: bool,
    /// The task for the model, rendered verbatim as `## Task` after the
    /// discussion (replaces the preset's `task`); in a packed build it is
    /// counted first, never dropped, and every file is ranked for it (its
    /// words, the paths, scopes, modules and identifiers it names, the
    /// import graph): the best files fill the budget after the targets.
    /// A task alone (no preset files) packs.
    #[arg(long, value_name = "TEXT", conflicts_with = "task_file")]
    pub task: Option<String>,
    /// Read the task from FILE (as `--task`; `-` reads standard input).
    #[arg(long, value_name = "FILE")]
    pub task_file: Option<PathBuf>,
    /// Build even if a target does not fit the budget (it is left out,
    /// with a warning); without it such a build fails.
    #[arg(long)]
    pub allow_partial: bool,
    /// A focus build: these files in full whatever their mode, every other
    /// code file as a skeleton (a path, a basename or a path suffix;
    /// repeatable). `force_full` files count as focus files.
    #[arg(long, value_name = "FILE", num_args = 1..,
          conflicts_with_all = ["targets", "budget"])]
    pub focus: Vec<String>,
    /// Compose the files changed against REF on top of the preset
    /// (default: HEAD, i.e. the working tree and index), plus untracked
    /// files that are not ignored. Needs a git repository.
    #[arg(long, value_name = "REF", num_args = 0..=1, default_missing_value = "HEAD")]
    pub changed: Option<String>,
    /// Append a `## Changes` section: the unified diff of the working tree
    /// against REF (default: HEAD), counted in the budget; untracked files
    /// are listed. Needs a git repository.
    #[arg(long, value_name = "REF", num_args = 0..=1, default_missing_value = "HEAD")]
    pub diff: Option<String>,
    /// Write the composition even if it holds likely secrets (private
    /// keys, API tokens, passwords); without it such a build fails.
    #[arg(long)]
    pub allow_secrets: bool,
    /// Build, then build again whenever an included file, a new or
    /// deleted file, an ignore file or ctxcurate.toml changes, rewriting
    /// the -o FILE (needed) with one line per rebuild, until Ctrl-C.
    #[arg(long, conflicts_with = "save")]
    pub watch: bool,
}

#[derive(Debug, Args)]
pub struct MapArgs {
    /// Rank around this file (repeatable; default: the preset's targets,
    /// else the whole project evenly).
    #[arg(long = "target", value_name = "FILE")]
    pub targets: Vec<PathBuf>,
    /// Tokens the map may take (default: `repo_map_budget`, 2048).
    #[arg(long, value_name = "N")]
    pub budget: Option<usize>,
    /// The preset whose targets to use (default: the active one).
    #[arg(long, short)]
    pub preset: Option<String>,
    #[arg(long, short, value_parser = named::<TokenizerKind>("TokenizerKind"))]
    pub tokenizer: Option<TokenizerKind>,
    /// Print the map's size and the unresolved imports to stderr as JSON.
    #[arg(long)]
    pub stats_json: bool,
}

#[derive(Debug, Subcommand)]
pub enum CacheCommand {
    /// Entries and bytes per bucket.
    Stats,
    /// Remove every entry.
    Clear,
}

/// Which preset an edit applies to.
#[derive(Debug, Args)]
pub struct PresetTarget {
    /// Edit this preset instead of the active one.
    #[arg(long, short)]
    pub preset: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum PresetCommand {
    /// List project and global presets (`*` marks the active one).
    List,
    /// Show a preset's entries (default: the active one).
    Show { name: Option<String> },
    /// Save the active preset under a new name and switch to it.
    Save { name: String },
    /// Make a preset the active one.
    Apply { name: String },
    /// Rename a project preset.
    Rename { old: String, new: String },
    /// Delete a project preset.
    Delete { name: String },
}

/// What each value of the enums that `--help` lists means. A test checks
/// that every variant of each enum has exactly one line here.
pub const VALUE_HELP: &[(&str, &[(&str, &str)])] = &[
    (
        "ViewMode",
        &[
            ("full", "the whole file"),
            (
                "summary",
                "a short summary (heuristic, or your summary_command)",
            ),
            ("skeleton", "signatures and docstrings, bodies elided"),
            ("outline", "one line per symbol"),
            ("masked", "per-symbol: each symbol as def, sig, agg or hide"),
            ("custom", "only the file's anchored line slices"),
            ("none", "listed, content left out"),
        ],
    ),
    (
        "MaskState",
        &[
            ("def", "the whole definition"),
            ("sig", "signature and docstring"),
            ("agg", "signature and a one-line summary"),
            ("hide", "left out"),
        ],
    ),
    (
        "Strategy",
        &[
            (
                "auto",
                "each file in its own view mode; summaries over the budget",
            ),
            ("summarize", "every file as a summary"),
            ("full", "every file in full, whatever its mode"),
        ],
    ),
    (
        "Format",
        &[
            ("markdown", "Markdown sections with fenced code"),
            (
                "xml",
                "one <document> per file (Anthropic's long-context layout)",
            ),
        ],
    ),
    (
        "TreeMode",
        &[
            ("included", "a compact tree of the included files"),
            ("all", "a compact tree of every file of the project"),
            ("none", "no tree"),
        ],
    ),
    (
        "TokenizerKind",
        &[
            ("o200k", "exact count for GPT-4o and later (o200k_base)"),
            ("cl100k", "exact count for GPT-4 and GPT-3.5 (cl100k_base)"),
            ("estimate", "characters / 4, rounded up: fast, approximate"),
        ],
    ),
];

/// A clap parser for the named enum `T` that lists its values with what
/// each means (`--help`) and rejects anything else.
fn named<T>(kind: &str) -> impl clap::builder::TypedValueParser<Value = T>
where
    T: std::str::FromStr<Err = String> + Clone + Send + Sync + 'static,
{
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = VALUE_HELP
        .iter()
        .find(|(k, _)| *k == kind)
        .map_or(&[][..], |(_, v)| *v)
        .iter()
        .map(|(name, help)| PossibleValue::new(*name).help(*help));
    PossibleValuesParser::new(values).try_map(|s: String| s.parse::<T>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ctxcurate::core::model::{Format, MaskState, Strategy, TokenizerKind, TreeMode, ViewMode};

    fn names(kind: &str) -> Vec<&'static str> {
        VALUE_HELP
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, v)| v.iter().map(|(n, _)| *n).collect())
            .unwrap_or_default()
    }

    /// `--help` describes every value, and only real ones.
    #[test]
    fn every_value_has_its_help_line() {
        let all = |v: Vec<&'static str>| v;
        assert_eq!(
            names("ViewMode"),
            all(ViewMode::ALL.iter().map(|v| v.as_str()).collect())
        );
        assert_eq!(
            names("MaskState"),
            all(MaskState::ALL.iter().map(|v| v.as_str()).collect())
        );
        assert_eq!(
            names("Strategy"),
            all(Strategy::ALL.iter().map(|v| v.as_str()).collect())
        );
        assert_eq!(
            names("Format"),
            all(Format::ALL.iter().map(|v| v.as_str()).collect())
        );
        assert_eq!(
            names("TreeMode"),
            all(TreeMode::ALL.iter().map(|v| v.as_str()).collect())
        );
        assert_eq!(
            names("TokenizerKind"),
            all(TokenizerKind::ALL.iter().map(|v| v.as_str()).collect())
        );
    }

    #[test]
    fn the_command_line_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
