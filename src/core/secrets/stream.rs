//! The secret scan of a composition that is written as it is made (the
//! engine's streamed build): the files' bodies are scanned chunk by chunk
//! before their blocks are written ([`StreamScan::add_files`]), and the
//! text around them is scanned as it goes by ([`compose::Sink`]), a few
//! lines into each body at its edges, so a match across an edge is still
//! seen; only the current stretch between two bodies is held.
//!
//! The findings are those [`Scanner::composition`] makes of the whole
//! text, in the same order and numbered by the same lines, with one
//! difference: a section named for a finding in the text around the
//! bodies is the last heading or tag met outside the bodies' middles.

use std::ops::Range;
use std::sync::Arc;

use super::{
    FileFindings, Finding, MIN_SKIPPED_BODY, Place, RuleSet, Scanner, after_lines, before_lines,
    section_starts, unescape_xml,
};
use crate::core::compose::{self, Sink};
use crate::core::model::Preset;
use crate::core::secret_scan::DecodeBudget;

/// One stretch of the text around the bodies, waiting to be scanned.
#[derive(Debug, Default)]
struct Part {
    text: String,
    /// Line breaks before it, from the start of the stream.
    line: usize,
    /// The bodies' edges in it (a match wholly inside one was the file's
    /// own scan's to report).
    bodies: Vec<Range<usize>>,
}

/// A match in the text around the bodies, before it is checked against
/// the secrets reported earlier in the text.
#[derive(Debug)]
struct Pending {
    finding: Finding,
    secret: String,
}

/// A streamed composition's scan in progress (see the module doc).
pub struct StreamScan<'r> {
    rules: &'r RuleSet,
    /// The scanner's decode budget, which every part's scan shares.
    budget: Arc<DecodeBudget>,
    /// Lines a rule reaches, plus one: how far into a body its edges go.
    reach: usize,
    files: FileFindings,
    /// The screenshots' and the discussion's findings.
    preset: Vec<Finding>,
    /// What the parts scanned so far matched, in text order.
    rest: Vec<Pending>,
    part: Part,
    /// The first part, scanned at the end with the text before the stream.
    first: Option<Part>,
    /// Line breaks streamed so far.
    lines: usize,
    /// The last section met before `part`.
    section: String,
}

impl<'a> Scanner<'a> {
    /// A scan of a composition of `preset` that will be streamed; the
    /// screenshots and the discussion (up to `max_messages`) are scanned
    /// now.
    pub fn stream(&self, preset: &Preset, max_messages: usize) -> StreamScan<'a> {
        self.budget
            .clone()
            .run(|| self.stream_within(preset, max_messages))
    }

    /// [`Scanner::stream`], run within the budget.
    fn stream_within(&self, preset: &Preset, max_messages: usize) -> StreamScan<'a> {
        let mut files = FileFindings::default();
        let mut found = Vec::new();
        for (i, shot) in preset.screenshots.iter().enumerate() {
            for hit in self.rules.scan_unnamed(shot) {
                files.seen.insert(shot[hit.span.clone()].to_string());
                found.push(Finding::new(Place::Screenshot { index: i + 1 }, hit));
            }
        }
        let messages = compose::visible_discussion(&preset.discussion, max_messages);
        for (i, m) in messages.iter().enumerate() {
            let content = m.content.trim();
            for hit in self.rules.scan_unnamed(content) {
                files.seen.insert(content[hit.span.clone()].to_string());
                let place = Place::Discussion {
                    message: i + 1,
                    line: hit.line,
                };
                found.push(Finding::new(place, hit));
            }
        }
        StreamScan {
            rules: self.rules,
            budget: Arc::clone(&self.budget),
            reach: self.rules.reach() + 1,
            files,
            preset: found,
            rest: Vec::new(),
            part: Part::default(),
            first: None,
            lines: 0,
            section: String::new(),
        }
    }
}

impl StreamScan<'_> {
    /// The findings of the next files' own scan ([`Scanner::files`]),
    /// before their blocks are streamed.
    pub fn add_files(&mut self, found: FileFindings) {
        // Which files were scanned is not needed here: every body that
        // streams by was scanned just before.
        self.files.findings.extend(found.findings);
        self.files.seen.extend(found.seen);
    }

    /// Whether anything was found so far (the files and the preset).
    pub fn found_any(&self) -> bool {
        !self.files.findings.is_empty() || !self.preset.is_empty() || !self.rest.is_empty()
    }

    /// Every finding, once the stream is over: `head` and `tail` are the
    /// text before and after it.
    pub fn finish(mut self, head: &str, tail: &str) -> Vec<Finding> {
        let head_lines = newlines(head);
        let mut last = std::mem::take(&mut self.part);
        last.text.push_str(tail);
        let mut first = match self.first.take() {
            Some(first) => first,
            None => std::mem::take(&mut last),
        };
        first.text.insert_str(0, head);
        for b in &mut first.bodies {
            *b = b.start + head.len()..b.end + head.len();
        }
        let mut pending = self.scan(&first, 0, "");
        for p in &mut self.rest {
            shift(&mut p.finding, head_lines);
        }
        pending.append(&mut self.rest);
        if !last.text.is_empty() {
            let section = std::mem::take(&mut self.section);
            pending.extend(self.scan(&last, head_lines, &section));
        }
        let FileFindings {
            mut findings,
            mut seen,
            ..
        } = self.files;
        findings.append(&mut self.preset);
        findings.extend(
            pending
                .into_iter()
                .filter(|p| seen.insert(p.secret.clone()))
                .map(|p| p.finding),
        );
        findings
    }

    /// The current part ends (a body's middle follows): scanned now, or
    /// kept when it is the first.
    fn flush(&mut self) {
        let part = std::mem::take(&mut self.part);
        let last_section = section_starts(&part.text).pop().map(|(_, name)| name);
        if self.first.is_none() {
            self.first = Some(part);
        } else {
            let mut found = self.scan(&part, 0, &self.section);
            self.rest.append(&mut found);
        }
        if let Some(name) = last_section {
            self.section = name;
        }
    }

    /// The matches in `part` outside its bodies' edges, their lines
    /// counted `extra` lines further and their section `section` unless
    /// one starts in the part before them.
    fn scan(&self, part: &Part, extra: usize, section: &str) -> Vec<Pending> {
        let text = &part.text;
        let mut sections: Option<Vec<(usize, String)>> = None;
        let mut out = Vec::new();
        for hit in self.budget.run(|| self.rules.scan(text)) {
            let from = hit.start.min(hit.span.start);
            let inside = part
                .bodies
                .iter()
                .any(|b| b.start <= from && hit.span.end <= b.end);
            if inside {
                continue;
            }
            let secret = unescape_xml(&text[hit.span.clone()]);
            let sections = sections.get_or_insert_with(|| section_starts(text));
            let at = sections.partition_point(|(start, _)| *start <= hit.span.start);
            let name = at
                .checked_sub(1)
                .map_or_else(|| section.to_string(), |i| sections[i].1.clone());
            let place = Place::Output {
                section: name,
                line: part.line + extra + hit.line,
            };
            out.push(Pending {
                finding: Finding::new(place, hit),
                secret,
            });
        }
        out
    }
}

impl Sink for StreamScan<'_> {
    fn text(&mut self, s: &str) {
        self.part.text.push_str(s);
        self.lines += newlines(s);
    }

    /// A body's edges join the text around it; its middle is left to
    /// the file's own scan.
    fn body(&mut self, s: &str) {
        let head_end = after_lines(s, 0, s.len(), self.reach);
        let tail_start = before_lines(s, 0, s.len(), self.reach);
        if s.len() < MIN_SKIPPED_BODY || head_end >= tail_start {
            return self.text(s);
        }
        let at = self.part.text.len();
        self.part.text.push_str(&s[..head_end]);
        self.part.bodies.push(at..self.part.text.len());
        self.lines += newlines(&s[..tail_start]);
        self.flush();
        let tail = &s[tail_start..];
        self.part = Part {
            text: tail.to_string(),
            line: self.lines,
            bodies: std::iter::once(0..tail.len()).collect(),
        };
        self.lines += newlines(tail);
    }
}

/// A finding's line, `n` lines further down.
fn shift(f: &mut Finding, n: usize) {
    if let Place::Output { line, .. } = &mut f.place {
        *line += n;
    }
}

fn newlines(s: &str) -> usize {
    s.bytes().filter(|&b| b == b'\n').count()
}
