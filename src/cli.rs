//! The headless CLI: parses arguments, runs one subcommand against the
//! core, and maps failures to exit codes (0 ok, 1 user error, 2 internal).
//!
//! Output goes through a `Write` handed in by `main`, so a closed pipe
//! (`ctxcurate build | head`) is an ordinary error that `main` turns into
//! exit 0 instead of a panic. `main` wraps both stdout and stderr in a
//! [`TerminalWriter`](ctxcurate::text::terminal::TerminalWriter): whatever
//! a subcommand prints to a terminal is escaped there, whatever goes to a
//! pipe stays byte-exact. Print only through `ctx.out` / `ctx.err`.

pub mod args;
mod build;
mod cache;
mod changed;
mod discuss;
mod edit;
mod inspect;
mod map;
mod mcp_config;
mod presets;
mod progress;
mod stats;
mod trust;
mod watch;

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use ctxcurate::core::paths;
use ctxcurate::core::project::{self, Project};

pub use args::{Cli, Command};

/// A mistake of the user's (bad argument, missing file, unknown preset):
/// exit code 1 with a one-line reason.
#[derive(Debug)]
pub struct UserError(pub String);

impl fmt::Display for UserError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UserError {}

/// Return early with a [`UserError`].
macro_rules! user_err {
    ($($arg:tt)*) => {
        return Err(anyhow::Error::new($crate::cli::UserError(format!($($arg)*))))
    };
}
pub(crate) use user_err;

/// Where a command runs: the working directory and what it writes to.
pub struct Ctx<'a> {
    pub cwd: PathBuf,
    pub out: &'a mut dyn Write,
    /// `out` is a terminal. `out` and `err` already escape for a terminal
    /// (see `text::terminal`); this only picks a nicer layout for one.
    pub out_is_terminal: bool,
    pub err: &'a mut dyn Write,
    /// Where a progress line may be drawn: stderr when it is a terminal
    /// and `--quiet` was not given (`main` opens it), else `None`.
    pub progress: Option<indicatif::ProgressDrawTarget>,
}

impl Ctx<'_> {
    /// The project around the working directory.
    pub fn project(&mut self) -> Result<Project> {
        let p = Project::open(&self.cwd)?;
        self.warn_about(&p)?;
        Ok(p)
    }

    /// Print what opening `p` warned about (a broken global config, a
    /// guarded setting ignored until `trust`).
    fn warn_about(&mut self, p: &Project) -> Result<()> {
        for w in &p.warnings {
            writeln!(
                self.err,
                "warning: {}",
                ctxcurate::text::sanitize::display_line(w, 500)
            )?;
        }
        Ok(())
    }

    /// The project around the working directory for a command that only
    /// reads (`view`, `symbols`, `tokens FILE`): one whose project file
    /// does not parse still runs, with the default settings, and says so.
    pub fn project_or_defaults(&mut self) -> Result<Option<Project>> {
        match Project::open(&self.cwd) {
            Ok(p) => {
                self.warn_about(&p)?;
                Ok(Some(p))
            }
            Err(e) => {
                writeln!(
                    self.err,
                    "warning: {}; reading with the default settings",
                    ctxcurate::text::sanitize::display_line(&format!("{e:#}"), 500)
                )?;
                Ok(None)
            }
        }
    }

    /// A command-line path as a root-relative `/` path, refusing paths
    /// outside the project and the root itself.
    pub fn rel_path(&self, root: &Path, arg: &Path) -> Result<String> {
        match self.project_path(root, arg)? {
            rel if rel.is_empty() => user_err!(
                "{} is the project root {}, not a file in it",
                arg.display(),
                root.display()
            ),
            rel => Ok(rel),
        }
    }

    /// A command-line path as a root-relative `/` path, `""` for the root
    /// itself (`.`, `./`, the root's absolute path, `../<root>` from
    /// inside it); refusing paths outside the project.
    pub fn project_path(&self, root: &Path, arg: &Path) -> Result<String> {
        let abs = if arg.is_absolute() {
            arg.to_path_buf()
        } else {
            self.cwd.join(arg)
        };
        match paths::normalize_rel(root, &abs) {
            Some(rel) => Ok(rel),
            None => user_err!(
                "{} is outside the project root {}",
                arg.display(),
                root.display()
            ),
        }
    }
}

/// Write file-derived `text` to stdout: byte for byte to a pipe or file
/// (the content must stay exact); to a terminal line by line with tabs
/// expanded and a CRLF's CR dropped (the writer escapes the rest anyway).
pub fn write_content(ctx: &mut Ctx, text: &str) -> Result<()> {
    if ctx.out_is_terminal {
        for line in ctxcurate::text::sanitize::display_lines(text, usize::MAX) {
            writeln!(ctx.out, "{line}")?;
        }
    } else {
        ctx.out.write_all(text.as_bytes())?;
        if !text.is_empty() && !text.ends_with('\n') {
            writeln!(ctx.out)?;
        }
    }
    Ok(())
}

/// The text of `rel` under `root`, or a user error naming the problem.
pub fn read_text(root: &Path, rel: &str) -> Result<String> {
    match ctxcurate::core::walk::read_content(root, rel) {
        ctxcurate::core::walk::Content::Text { text, .. } => Ok(text.to_string()),
        ctxcurate::core::walk::Content::Unreadable(problem) => user_err!("{rel}: {problem}"),
    }
}

/// Run one subcommand.
pub fn run(command: Command, ctx: &mut Ctx) -> Result<()> {
    match command {
        Command::Build(args) if args.watch => {
            watch::build_watch(&build::task_from_stdin(args)?, ctx)
        }
        Command::Build(args) => build::build(build::task_from_stdin(args)?, ctx),
        Command::Map(args) => map::map(args, ctx),
        Command::View {
            path,
            mode,
            force_full,
        } => inspect::view(&path, mode, force_full, ctx),
        Command::Symbols {
            path,
            json,
            force_full,
        } => inspect::symbols(&path, json, force_full, ctx),
        Command::Tokens {
            paths,
            tokenizer,
            force_full,
        } => inspect::tokens(&paths, tokenizer, force_full, ctx),
        Command::Preset(cmd) => presets::run(cmd, ctx),
        Command::Cache(cmd) => cache::run(cmd, ctx),
        Command::Slices { path, preset } => cache::slices(&path, preset.as_deref(), ctx),
        Command::Stats {
            preset,
            tokenizer,
            json,
            targets,
            budget,
            task,
        } => {
            let pack = stats::PackAsk {
                targets,
                budget,
                task,
            };
            stats::stats(preset.as_deref(), tokenizer, json, &pack, ctx)
        }
        Command::Completions { shell } => stats::completions(shell, ctx),
        Command::Man => stats::man(ctx),
        Command::ClipboardHold => {
            ctxcurate::tui::clipboard::serve(std::io::stdin().lock(), &mut *ctx.out)?;
            Ok(())
        }
        Command::Trust { revoke, yes, show } => trust::run(
            match (revoke, yes, show) {
                (true, _, _) => trust::Mode::Revoke,
                (_, true, _) => trust::Mode::Yes,
                (_, _, true) => trust::Mode::Show,
                _ => trust::Mode::Ask,
            },
            ctx,
        ),
        Command::Keys => {
            let project = ctx.project()?;
            let (keymap, problems) =
                ctxcurate::tui::input::keymap::Keymap::load(project.global.extra.get("keymap"));
            for p in problems {
                writeln!(ctx.err, "warning: {p}")?;
            }
            ctx.out.write_all(keymap.markdown_table().as_bytes())?;
            Ok(())
        }
        Command::Add {
            changed: Some(rev),
            mode,
            target,
            ..
        } => changed::add(&rev, mode, target, ctx),
        Command::Discuss(cmd) => discuss::discuss(cmd, ctx),
        Command::Shot(cmd) => discuss::shot(cmd, ctx),
        Command::Task(cmd) => discuss::task(cmd, ctx),
        // Serving owns stdout, so `main` runs it before this; only the
        // config snippet is printed here.
        Command::Mcp(_) => mcp_config::print(&ctx.cwd, ctx.out),
        edit_cmd => edit::run(edit_cmd, ctx),
    }
}

/// `true` when the error is the user's (exit 1) rather than ours (exit 2).
pub fn is_user_error(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.is::<UserError>()
            || e.is::<project::ProjectError>()
            || e.is::<ctxcurate::core::curation::CurationError>()
            || e.is::<clap::Error>()
    })
}

/// `true` when the error is a closed output pipe.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(text: &str, terminal: bool) -> String {
        let mut out = Vec::new();
        let mut err = Vec::new();
        let mut ctx = Ctx {
            cwd: PathBuf::from("."),
            out: &mut out,
            out_is_terminal: terminal,
            err: &mut err,
            progress: None,
        };
        write_content(&mut ctx, text).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn file_content_is_escaped_for_a_terminal_only() {
        let evil = "a\x1b]52;c;aGFjaw==\x07b\u{9b}2J\u{202e}c\n";
        let shown = written(evil, true);
        assert!(
            !shown.contains(['\x1b', '\x07', '\u{9b}', '\u{202e}']),
            "{shown:?}"
        );
        assert!(shown.starts_with("a␛]52;c;aGFjaw==␇b"), "{shown:?}");
        assert_eq!(written(evil, false), evil);
    }
}
