//! Deliver a built context: the one secret rule (likely secrets refuse
//! every destination unless allowed), then the destination — back to the
//! caller, a named file, or the project's next numbered output file.

use std::io::Write;
use std::path::PathBuf;

use crate::core::model::Format;
use crate::core::secrets::Finding;

use super::Workspace;
use super::error::{BuildError, Refused};
use super::output_file::{self, SaveError};
use super::request::{BuildRequest, Built, Destination};

impl Workspace<'_> {
    /// Check `text` (whose scan found `findings`) against the secret rule
    /// and write it to `destination`; where it was written (`None`: back
    /// to the caller). The numbered output file stays inside the root
    /// unless trusted settings say otherwise; a number another process
    /// took is skipped.
    pub fn save(
        &self,
        text: &str,
        findings: &[Finding],
        format: Format,
        destination: &Destination,
        allow_secrets: bool,
    ) -> Result<Option<PathBuf>, BuildError> {
        output_file::check_secrets(findings, allow_secrets)?;
        match destination {
            // A text built in memory (a pack) comes back as it is.
            Destination::Caller | Destination::Stream => Ok(None),
            Destination::NextOutputFile => Ok(Some(output_file::write_next(
                &self.root,
                &self.settings,
                format,
                text,
            )?)),
            Destination::Path(path) => {
                output_file::check_named(&self.root, path).map_err(BuildError::Output)?;
                let written = output_file::write_named(&self.root, path, |file| {
                    file.write_all(text.as_bytes())
                });
                match written {
                    Ok(()) => Ok(Some(path.clone())),
                    Err(source) => Err(BuildError::Write {
                        path: path.clone(),
                        source,
                    }),
                }
            }
        }
    }

    /// [`Workspace::save`] of `built` as `req` says; a refusal keeps what
    /// was built.
    pub(super) fn deliver(
        &self,
        mut built: Built,
        req: &BuildRequest,
    ) -> Result<Built, Box<Refused>> {
        let saved = self.save(
            &built.text,
            &built.findings,
            req.compose.format,
            &req.destination,
            req.allow_secrets,
        );
        match saved {
            Ok(written) => {
                built.written = written;
                Ok(built)
            }
            Err(why) => Err(Refused::new(why, built)),
        }
    }
}

impl From<SaveError> for BuildError {
    fn from(e: SaveError) -> Self {
        match e {
            SaveError::Secrets { count, first } => BuildError::Secrets { count, first },
            SaveError::Output(e) => BuildError::Output(e),
        }
    }
}
