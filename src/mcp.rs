//! `ctxcurate mcp`: a Model Context Protocol server over stdio, the third
//! front end on `core::engine` beside the CLI and the TUI. Agents get the
//! presets a person curated, packs that fit a budget, files' views and
//! symbols — built by the same engine calls as `ctxcurate build`, so the
//! text is the same bytes.
//!
//! Modules: `server` (the `rmcp` handler: tools, resources, log messages),
//! `table` (the tools' names, descriptions and schemas), `uri` (the
//! presets' resource URIs), `tools` (what
//! each tool asks the engine), `args` (each tool's arguments and JSON
//! schema), `request` (arguments as engine requests, paths kept inside the
//! root), `reply` (results and refusals as tool output), `warm` (the
//! sources kept between calls), `paging` (long results in parts),
//! `resource_pages` (`resources/list` in pages within `--max-result`), `edits`
//! (the tools that change a preset, offered with `--allow-edits`),
//! `frames` (stdio lines: a message nested too deep answered with an
//! error), `error`. `main` turns the command line into [`Options`]
//! (`--print-config` is the CLI's, `cli::mcp_config`), so the server
//! imports nothing of the CLI.
//!
//! Read-only by default: without `--allow-edits` no tool changes a preset,
//! and no tool ever writes anything else.

mod args;
mod edit_globs;
mod edits;
mod error;
mod frames;
mod glob_links;
mod in_flight;
mod paging;
mod reply;
mod request;
mod resource_pages;
mod server;
mod table;
mod tools;
mod uri;
mod warm;

use std::path::Path;

use anyhow::{Context, Result};
use rmcp::ServiceExt;
use rmcp::service::ServerInitializeError;

pub use tools::Options;

/// Serve the project around `cwd` on stdin/stdout until the client closes
/// the connection. Stdout is the protocol's: nothing else is printed there.
pub fn run(cwd: &Path, options: Options) -> Result<()> {
    // A project file that does not open (malformed, unreadable, a FIFO)
    // does not stop the server: each call opens it again and says why as
    // a tool error, and serves once it is fixed, at the start as mid-session.
    let root = ctxcurate::core::paths::find_root(cwd);
    let engine = tools::Engine::new(warm::Warm::new(cwd), options);
    let server = server::Server::new(engine);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async move {
        // stdin → the depth check → rmcp; rmcp's lines and the check's
        // answers → stdout, each line whole.
        let (to_rmcp, from_stdin) = tokio::io::duplex(1 << 16);
        let out = frames::LineOut::default();
        tokio::spawn(frames::filter_stdin(to_rmcp, out.clone()));
        let running = match server.serve((from_stdin, out)).await {
            Ok(running) => running,
            // A client that goes before it says hello is no failure.
            Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
            Err(e) => {
                return Err(e).with_context(|| format!("MCP handshake for {}", root.display()));
            }
        };
        running.waiting().await.context("the MCP service stopped")?;
        Ok(())
    })
}
