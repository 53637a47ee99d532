//! A tool's failure as the client sees it: a message in the tool's result
//! (`isError`), never a protocol error or a crashed server.

use thiserror::Error;

/// Why a tool call could not answer, worded for the model that asked.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
#[error("{0}")]
pub struct ToolError(pub String);

impl ToolError {
    pub fn new(why: impl Into<String>) -> Self {
        ToolError(why.into())
    }
}
