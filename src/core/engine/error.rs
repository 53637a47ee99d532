//! Why the engine refused to build or deliver ([`BuildError`]), with what
//! it had built up to then ([`Refused`]): a front end reports that part
//! (the notes and warnings before the refusal) and then the refusal in its
//! own words (a flag to pass, a key to press).

use std::io;
use std::path::PathBuf;

use thiserror::Error;

use crate::core::discovery::pack::MissingTarget;
use crate::core::engine::output_file::OutputError;
use crate::core::engine::request::Built;

/// A refusal: the build stops here.
#[derive(Debug, Error)]
pub enum BuildError {
    /// A packed build's `## Changes` take more than the whole budget (and
    /// `allow_partial` was not given).
    #[error("the changes against {against} take {tokens} tokens, over the budget of {budget}")]
    ChangesOverBudget {
        against: String,
        tokens: usize,
        budget: usize,
    },
    /// The task (never dropped) and the headings alone are over the
    /// budget: without room for the task, no context.
    #[error(
        "the task ({task_tokens} tokens) and the headings do not fit the budget of {budget} tokens"
    )]
    TaskDoesNotFit { task_tokens: usize, budget: usize },
    /// Targets did not fit the budget (and `allow_partial` was not given);
    /// never empty.
    #[error("{}", missing.first().map(ToString::to_string).unwrap_or_default())]
    TargetsDoNotFit { missing: Vec<MissingTarget> },
    /// The secret scan found likely secrets and they were not allowed.
    #[error("{}, first {first}", crate::text::words::plural(*count, "likely secret"))]
    Secrets { count: usize, first: String },
    /// The numbered output file could not be written.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The file the request named could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write { path: PathBuf, source: io::Error },
}

/// A refused build: why, and what was built before the refusal (its
/// notes, problems, files and findings, as far as the build came).
#[derive(Debug, Error)]
#[error("{why}")]
pub struct Refused {
    pub why: BuildError,
    pub so_far: Box<Built>,
}

impl Refused {
    pub(super) fn new(why: BuildError, so_far: Built) -> Box<Refused> {
        Box::new(Refused {
            why,
            so_far: Box::new(so_far),
        })
    }
}
