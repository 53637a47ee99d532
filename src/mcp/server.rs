//! The MCP side: the `rmcp` handler that lists the tools and the preset
//! resources (in pages, `resource_pages`), runs each call on a blocking
//! thread (the engine is synchronous and may read a whole tree), sends
//! the project's warnings as log messages, and turns every outcome into a
//! tool result.

// MCP's logging is deprecated (SEP-2577) for a successor the clients do
// not speak yet; log messages are what they show today.
#![allow(deprecated)]

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListResourcesResult, ListToolsResult, LoggingLevel, LoggingMessageNotificationParam,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    Resource, ResourceContents, ServerCapabilities, ServerConfig, SetLevelRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, Peer, RoleServer, ServerHandler};

use super::error::ToolError;
use super::request::{shown_description, shown_name};
use super::resource_pages;
use super::table;
use super::tools::{Engine, Outcome};
use super::uri::{PRESET_URI, preset_of, preset_uri};

/// The server: a handle on the shared engine.
#[derive(Clone)]
pub struct Server {
    engine: Arc<Engine>,
}

impl Server {
    pub fn new(engine: Engine) -> Self {
        Server {
            engine: Arc::new(engine),
        }
    }

    /// Run `work` on the engine off the protocol's thread; a panic in it
    /// is a failed call, not a dead server.
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Engine) -> T + Send + 'static,
    ) -> Result<T, ToolError> {
        let engine = self.engine.clone();
        tokio::task::spawn_blocking(move || work(&engine))
            .await
            .map_err(|e| ToolError::new(format!("internal error: {e}")))
    }
}

/// Send the call's warnings to the client as log messages.
async fn send_logs(peer: &Peer<RoleServer>, logs: &[String]) {
    for line in logs {
        let mut param =
            LoggingMessageNotificationParam::new(LoggingLevel::Warning, serde_json::json!(line));
        param.logger = Some("ctxcurate".into());
        // A client gone mid-call is noticed by the service loop itself.
        let _ = peer.notify_logging_message(param).await;
    }
}

/// A tool's outcome as its result: the text, then the stats as JSON; a
/// failure as an error result the model reads.
fn tool_result(result: Result<super::reply::Reply, ToolError>) -> CallToolResult {
    match result {
        Ok(reply) => {
            let mut content = Vec::new();
            if let Some(text) = reply.text {
                content.push(ContentBlock::text(text));
            }
            if let Some(stats) = reply.stats {
                content.push(ContentBlock::text(stats.to_string()));
            }
            CallToolResult::success(content)
        }
        Err(e) => CallToolResult::error(vec![ContentBlock::text(e.0)]),
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_logging()
                .build(),
        )
        .with_server_info(Implementation::new("ctxcurate", env!("CARGO_PKG_VERSION")))
        .with_instructions(
            "ctxcurate serves the context a person curated for this project: presets (named \
             file selections, each file in a view mode such as full, skeleton or masked \
             symbol by symbol). Start with list_presets, then build one; use pack to fit \
             target files and a task into a token budget.",
        )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(table::table(
            self.engine.allow_edits(),
        )))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let name = request.name.to_string();
        let args = request.arguments;
        let outcome = self
            .run(move |engine| engine.call(&name, args))
            .await
            .unwrap_or_else(|e| Outcome {
                result: Err(e),
                logs: Vec::new(),
            });
        send_logs(&context.peer, &outcome.logs).await;
        Ok(tool_result(outcome.result).into())
    }

    async fn set_level(
        &self,
        _request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        // Every message the server sends is a warning worth seeing.
        Ok(())
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let cursor = request.and_then(|r| r.cursor);
        let presets = self
            .run(|engine| engine.presets())
            .await
            .and_then(|r| r)
            .map_err(|e| McpError::internal_error(e.0, None))?;
        let resources = presets
            .into_iter()
            .map(|(name, description)| {
                let shown = shown_name(&name);
                let mut r = Resource::new(preset_uri(&name), shown.clone())
                    .with_title(format!("ctxcurate preset {shown}"))
                    .with_mime_type("text/markdown");
                if !description.is_empty() {
                    r = r.with_description(shown_description(&description));
                }
                r
            })
            .collect();
        let page = resource_pages::page(resources, cursor.as_deref(), self.engine.max_result())
            .map_err(|e| McpError::invalid_params(e, None))?;
        let mut result = ListResourcesResult::with_all_items(page.resources);
        result.next_cursor = page.next_cursor;
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let uri = request.uri;
        let Some(name) = preset_of(&uri) else {
            return Err(McpError::resource_not_found(
                format!(
                    "no resource {}: presets are {PRESET_URI}NAME",
                    shown_name(&uri)
                ),
                None,
            ));
        };
        let outcome = self
            .run(move |engine| engine.preset_text(&name))
            .await
            .unwrap_or_else(|e| Outcome {
                result: Err(e),
                logs: Vec::new(),
            });
        send_logs(&context.peer, &outcome.logs).await;
        match outcome.result {
            Ok(reply) => Ok(ReadResourceResult::new(vec![ResourceContents::text(
                reply.text.unwrap_or_default(),
                uri,
            )])
            .into()),
            Err(e) => Err(McpError::invalid_params(e.0, None)),
        }
    }
}
