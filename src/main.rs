//! The `ctxcurate` binary: parses the command line, runs a subcommand and
//! turns the outcome into an exit code (0 ok, 1 user error, 2 internal;
//! a closed output pipe is not an error).

mod cli;
mod mcp;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;
use ctxcurate::text::terminal::TerminalWriter;

/// Standard error, escaped when it is a terminal (see `text::terminal`).
fn stderr() -> TerminalWriter<io::Stderr> {
    use std::io::IsTerminal;
    TerminalWriter::new(io::stderr(), io::stderr().is_terminal())
}

fn main() -> ExitCode {
    // SAFETY: first thing in the program, on its only thread, before any
    // parse.
    unsafe { ctxcurate::core::syntax::allocator::install() };
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    let _ = e.print();
                    ExitCode::SUCCESS
                }
                _ => {
                    // The message quotes arguments, which a shell glob may
                    // have filled with a hostile file name: plain and escaped.
                    let _ = write!(stderr(), "{}", e.render());
                    ExitCode::from(1)
                }
            };
        }
    };
    let cwd = match start_dir(cli.directory) {
        Ok(d) => d,
        Err(why) => {
            let _ = writeln!(stderr(), "ctxcurate: {why}");
            return ExitCode::from(1);
        }
    };
    let quiet = cli.quiet;
    let Some(command) = cli.command else {
        return run_tui(&cwd);
    };
    if let cli::Command::Mcp(args) = &command
        && !args.print_config
    {
        return run_mcp(&cwd, args);
    }
    // A headless command: see `memory::one_arena` (the TUI and the MCP
    // server keep glibc's default).
    ctxcurate::core::memory::one_arena();
    let stdout = io::stdout();
    let out_is_terminal = {
        use std::io::IsTerminal;
        stdout.is_terminal()
    };
    let mut out = TerminalWriter::new(io::BufWriter::new(stdout.lock()), out_is_terminal);
    let progress = {
        use std::io::IsTerminal;
        (!quiet && io::stderr().is_terminal()).then(indicatif::ProgressDrawTarget::stderr)
    };
    // A project lock another process holds is waited for out loud.
    ctxcurate::core::project::set_wait_notice(lock_wait_notice);
    let mut err = stderr();
    let mut ctx = cli::Ctx {
        cwd,
        out: &mut out,
        out_is_terminal,
        err: &mut err,
        progress,
    };
    let result = cli::run(command, &mut ctx).and_then(|()| Ok(out.flush()?));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if cli::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(err, "ctxcurate: {}", one_line(&e));
            if cli::is_user_error(&e) {
                ExitCode::from(1)
            } else {
                ExitCode::from(2)
            }
        }
    }
}

/// What the CLI says while it waits for a project lock another process
/// holds (see `core::project::lock`).
fn lock_wait_notice(lock: &std::path::Path) {
    let _ = writeln!(
        stderr(),
        "ctxcurate: waiting for {} held by another process…",
        lock.display()
    );
}

/// The directory to run in: `-C DIR` (which must be an existing directory:
/// a typo must not silently become an empty project), else the current
/// one.
fn start_dir(dir: Option<std::path::PathBuf>) -> Result<std::path::PathBuf, String> {
    let cwd = std::env::current_dir();
    let Some(dir) = dir else {
        return cwd.map_err(|e| format!("cannot read the current directory: {e}"));
    };
    let shown =
        ctxcurate::text::sanitize::display_line(&dir.display().to_string(), 500).into_owned();
    match std::fs::metadata(&dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => return Err(format!("-C {shown}: not a directory")),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(format!("-C {shown}: no such directory"));
        }
        Err(e) => return Err(format!("-C {shown}: {e}")),
    }
    Ok(match cwd {
        Ok(cwd) if dir.is_relative() => cwd.join(dir),
        _ => dir,
    })
}

/// `ctxcurate mcp`: the MCP server, before stdout is locked for a
/// subcommand's output (the server writes the protocol there itself).
fn run_mcp(cwd: &std::path::Path, args: &cli::args::McpArgs) -> ExitCode {
    ctxcurate::core::project::set_wait_notice(lock_wait_notice);
    let options = mcp::Options {
        allow_secrets: args.allow_secrets,
        allow_edits: args.allow_edits,
        max_result: args.max_result,
    };
    match mcp::run(cwd, options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(stderr(), "ctxcurate: {}", one_line(&e));
            if cli::is_user_error(&e) {
                ExitCode::from(1)
            } else {
                ExitCode::from(2)
            }
        }
    }
}

/// `ctxcurate` with no subcommand: the terminal UI.
fn run_tui(cwd: &std::path::Path) -> ExitCode {
    use std::io::IsTerminal;
    if !io::stdout().is_terminal() || !io::stdin().is_terminal() {
        let _ = writeln!(
            stderr(),
            "ctxcurate: the terminal UI needs a terminal; see `ctxcurate --help` for the CLI"
        );
        return ExitCode::from(1);
    }
    match ctxcurate::tui::run(cwd) {
        Ok(ended) => ExitCode::from(ended.exit_status()),
        Err(e) => {
            let _ = writeln!(stderr(), "ctxcurate: {}", one_line(&e));
            if e.chain()
                .any(|c| c.is::<ctxcurate::core::project::ProjectError>())
            {
                ExitCode::from(1)
            } else {
                ExitCode::from(2)
            }
        }
    }
}

/// An error and its causes as one line: the messages name files, paths
/// and arguments, and a newline or control in one must not forge a line
/// of output (to a pipe as much as to a terminal).
fn one_line(e: &anyhow::Error) -> String {
    ctxcurate::text::sanitize::escape_line(&format!("{e:#}")).into_owned()
}
