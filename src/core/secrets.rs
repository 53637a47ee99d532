//! Likely secrets in a context about to leave the machine: private keys
//! (PEM, PuTTY, kubeconfig, and bodies that lost their `BEGIN` line),
//! provider tokens (AWS, GCP, GitHub, GitLab, Slack, OpenAI, Anthropic,
//! Stripe, Vault, …), JWTs, `Bearer` and `Basic` credentials, passwords in
//! URLs and connection strings, and random-looking values assigned to names
//! like `password`, `token` or `DB_PASS`.
//!
//! The rules are data (`config/secrets.toml`, see [`crate::core::secret_scan::rules`]); [`scan()`]
//! applies them to one text. [`Scanner`] applies them to everything a
//! composed context holds — each file's rendered view, the repo map, the
//! screenshot paths, the discussion, and finally the whole output text, so
//! a section added later cannot slip through; for a view that is not the
//! file itself (and the repo map's outlines), also the file's own text,
//! whose secrets count where the view shows their beginning, cut short as
//! it may be (see [`crate::core::secret_scan`]'s `shown`) — and names each finding by
//! where the user can fix it: a file's own line number in every view mode
//! (a skeleton's line 3 is the file's line 40), a discussion message, a
//! screenshot entry.
//!
//! The CLI's `build` refuses to write a context with findings (unless
//! `--allow-secrets`) and the TUI asks before copying one. A finding shows
//! a *masked* form of the match: the secret itself is never echoed in full,
//! so the warning cannot leak it into a terminal scrollback or a log.

mod clean;
pub mod fixtures;
mod prose;
mod stream;

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use rayon::prelude::*;

use crate::core::compose::{self, Composition, RenderedFile};
use crate::core::discovery::pack::Packed;
use crate::core::model::{Preset, ViewMode};
use crate::core::sources::Codebase;
use crate::core::walk;

use crate::core::secret_scan::DecodeBudget;
pub use crate::core::secret_scan::rules::{RuleSet, RulesError};
pub use crate::core::secret_scan::{Hit, entropy, mask, scan, scan_unnamed, shown_secrets};
pub use clean::CleanTexts;
pub use stream::StreamScan;

/// Where a finding is, in terms the user can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// A line of a file, numbered as in the file itself (whatever the view).
    File { path: String, line: usize },
    /// A line of a file whose outline in the repo map shows the secret.
    MapFile { path: String, line: usize },
    /// A line of a file's rendered view only: the view does not show the
    /// secret as the file has it (an external summary, say).
    View {
        path: String,
        mode: ViewMode,
        line: usize,
    },
    /// A line of the repo map not tied to a file.
    RepoMap { line: usize },
    /// A line of a discussion message (1-based, as numbered in the output).
    Discussion { message: usize, line: usize },
    /// A screenshot entry (1-based).
    Screenshot { index: usize },
    /// Elsewhere in the composed output: its line, under `section`.
    Output { section: String, line: usize },
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::File { path, line } => write!(f, "{path}:{line}"),
            Place::MapFile { path, line } => write!(f, "{path}:{line} (repo map)"),
            Place::View { path, mode, line } => {
                write!(f, "{path} (line {line} of the {mode} view)")
            }
            Place::RepoMap { line } => write!(f, "repo map, line {line}"),
            Place::Discussion { message, line } => {
                write!(f, "discussion message {message}, line {line}")
            }
            Place::Screenshot { index } => write!(f, "screenshot {index}"),
            Place::Output { section, line } if section.is_empty() => {
                write!(f, "context line {line}")
            }
            Place::Output { section, line } => write!(f, "context line {line} ({section})"),
        }
    }
}

/// One likely secret in a context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub place: Place,
    /// The rule's id (`github-token`).
    pub rule: Arc<str>,
    /// The rule's short human name (`GitHub token`).
    pub kind: Arc<str>,
    pub masked: String,
}

impl Finding {
    fn new(place: Place, hit: Hit) -> Self {
        Finding {
            place,
            rule: hit.rule,
            kind: hit.kind,
            masked: hit.masked,
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} {}", self.place, self.kind, self.masked)
    }
}

/// What the files' own scan found (see [`Scanner::files`]), with each
/// secret's text so the scan of the rest reports it only once.
#[derive(Debug, Default)]
pub struct FileFindings {
    findings: Vec<Finding>,
    seen: HashSet<String>,
    /// The files whose bodies were scanned.
    scanned: HashSet<String>,
}

/// Scans contexts composed over `codebase`; its sources supply the
/// files' own text, to number findings as the files do.
pub struct Scanner<'a> {
    codebase: Codebase<'a>,
    rules: &'a RuleSet,
    /// Files' texts found clean before (not scanned again), and where the
    /// clean ones found now are noted.
    clean: Option<&'a CleanTexts>,
    /// What every text this scanner reads may decode in all (round 22: the
    /// files shared one budget, but each batch of a streamed build had its
    /// own, and the text around the bodies, which holds their edges, a
    /// budget per stretch: 300 small files of compressed bombs took
    /// minutes).
    budget: Arc<DecodeBudget>,
}

impl<'a> Scanner<'a> {
    /// A scanner with the built-in rules.
    pub fn new(codebase: &Codebase<'a>) -> Self {
        Scanner::with_rules(codebase, RuleSet::builtin())
    }

    /// A scanner with `rules` (see [`RuleSet::compile_builtin`]).
    pub fn with_rules(codebase: &Codebase<'a>, rules: &'a RuleSet) -> Self {
        Scanner {
            codebase: *codebase,
            rules,
            clean: None,
            budget: DecodeBudget::new(),
        }
    }

    /// This scanner, passing over the files' texts `clean` knows hold
    /// nothing, and telling it the clean ones it scans.
    pub fn remembering(self, clean: &'a CleanTexts) -> Self {
        Scanner {
            clean: Some(clean),
            ..self
        }
    }

    /// The findings in a composition of `preset` (its discussion shown up
    /// to `max_messages`).
    pub fn composition(
        &self,
        c: &Composition,
        preset: &Preset,
        max_messages: usize,
    ) -> Vec<Finding> {
        self.composition_after(self.files(&c.files), c, preset, max_messages)
    }

    /// The findings in the files' bodies alone, for a caller that scans them
    /// before assembling the text without them (see
    /// [`compose::Parts::assemble`]); [`Scanner::composition_after`] adds
    /// the rest.
    pub fn files(&self, files: &[RenderedFile]) -> FileFindings {
        // Files are scanned on every core; their findings keep file order.
        // What their encoded values decode shares one budget (round 21).
        let per_file: Vec<Vec<(Finding, String)>> = files
            .par_iter()
            .map(|f| self.budget.run(|| self.file_secrets(f)))
            .collect();
        let mut found = FileFindings {
            scanned: files
                .iter()
                .filter(|f| !f.text.is_empty())
                .map(|f| f.path.clone())
                .collect(),
            ..FileFindings::default()
        };
        for (file, findings) in files.iter().zip(per_file) {
            for (finding, secret) in findings {
                if !self.is_fixture(file, &finding) && !self.is_prose(file, &finding, &secret) {
                    found.findings.push(finding);
                }
                found.seen.insert(secret);
            }
        }
        found
    }

    /// Whether `finding`, in `file`, is a fixture of the project's tests
    /// or documents (a password hash a test checks against), not reported;
    /// its text still counts as seen, so the scan of the whole output
    /// does not report it either.
    fn is_fixture(&self, file: &RenderedFile, finding: &Finding) -> bool {
        self.rules.fixture_in_tests(&finding.rule) && fixtures::is_test_or_doc(&file.path)
    }

    /// Whether `finding` (of `secret`), in `file`, is on a line of
    /// documentation in code (a comment, a docstring) or in a comment
    /// after code on its line, and its rule reads prose's shapes there
    /// ([`prose`]): not reported, its text still counts as seen.
    fn is_prose(&self, file: &RenderedFile, finding: &Finding, secret: &str) -> bool {
        let Place::File { line, .. } = finding.place else {
            return false;
        };
        if !self.rules.quiet_in_prose(&finding.rule) {
            return false;
        }
        let prose = |text: &str| {
            prose::is_documentation(&file.path, text, line)
                || prose::in_comment_after_code(&file.path, text, line, secret)
        };
        if file.mode == ViewMode::Full && !file.text.is_empty() {
            return prose(&file.text);
        }
        let source = self.codebase.sources.file(self.codebase.root, &file.path);
        source.text().is_some_and(prose)
    }

    /// [`Scanner::composition`] when the files were scanned already (`c`'s
    /// bodies may be released: the scan then trusts their `body_at`).
    pub fn composition_after(
        &self,
        files: FileFindings,
        c: &Composition,
        preset: &Preset,
        max_messages: usize,
    ) -> Vec<Finding> {
        self.rest(files, &c.files, None, preset, max_messages, &c.text)
    }

    /// The findings in a packed context.
    pub fn packed(&self, p: &Packed, preset: &Preset, max_messages: usize) -> Vec<Finding> {
        let files = self.files(&p.files);
        self.rest(
            files,
            &p.files,
            Some(&p.map.text),
            preset,
            max_messages,
            &p.text,
        )
    }

    /// The findings in a repo map's text, each placed at the line of the
    /// file whose outline holds it where that is known.
    pub fn map(&self, map: &str) -> Vec<Finding> {
        self.budget
            .run(|| self.rules.scan(map))
            .into_iter()
            .map(|hit| Finding::new(self.map_place(map, &hit), hit))
            .collect()
    }

    /// The findings in one rendered file (none when it is not rendered).
    pub fn file(&self, f: &RenderedFile) -> Vec<Finding> {
        self.budget
            .run(|| self.file_secrets(f))
            .into_iter()
            .filter(|(finding, secret)| {
                !self.is_fixture(f, finding) && !self.is_prose(f, finding, secret)
            })
            .map(|(finding, _)| finding)
            .collect()
    }

    /// After the files' findings: the map, screenshots, discussion, then
    /// the whole `text` for anything not yet reported, within the
    /// scanner's decode budget.
    fn rest(
        &self,
        found: FileFindings,
        files: &[RenderedFile],
        map: Option<&str>,
        preset: &Preset,
        max_messages: usize,
        text: &str,
    ) -> Vec<Finding> {
        self.budget
            .run(|| self.rest_within(found, files, map, preset, max_messages, text))
    }

    /// [`Scanner::rest`], run within the budget.
    fn rest_within(
        &self,
        found: FileFindings,
        files: &[RenderedFile],
        map: Option<&str>,
        preset: &Preset,
        max_messages: usize,
        text: &str,
    ) -> Vec<Finding> {
        let FileFindings {
            mut findings,
            mut seen,
            scanned,
        } = found;
        if let Some(map) = map {
            for hit in self.rules.scan(map) {
                seen.insert(map[hit.span.clone()].to_string());
                let place = self.map_place(map, &hit);
                findings.push(Finding::new(place, hit));
            }
            for (finding, secret) in self.map_shown(map) {
                if seen.insert(secret) {
                    findings.push(finding);
                }
            }
        }
        for (i, shot) in preset.screenshots.iter().enumerate() {
            for hit in self.rules.scan_unnamed(shot) {
                seen.insert(shot[hit.span.clone()].to_string());
                findings.push(Finding::new(Place::Screenshot { index: i + 1 }, hit));
            }
        }
        let messages = compose::visible_discussion(&preset.discussion, max_messages);
        for (i, m) in messages.iter().enumerate() {
            let content = m.content.trim();
            for hit in self.rules.scan_unnamed(content) {
                seen.insert(content[hit.span.clone()].to_string());
                let place = Place::Discussion {
                    message: i + 1,
                    line: hit.line,
                };
                findings.push(Finding::new(place, hit));
            }
        }
        // The rest of the output: what the sections above did not cover
        // (headings, the tree, anything added later), never a file body
        // twice.
        let mut sections: Option<Vec<(usize, String)>> = None;
        let mut lines = LineCounter::default();
        let (parts, bodies) = self.split(text, files, &scanned);
        for range in parts {
            let offset = range.start;
            for mut hit in self.rules.scan(&text[range]) {
                hit.span = hit.span.start + offset..hit.span.end + offset;
                hit.start += offset;
                // A match wholly inside a body was the file's own scan's
                // to report, with the whole body in view (a key's tail
                // seen here without its BEGIN line is no second key).
                let from = hit.start.min(hit.span.start);
                let to = hit.span.end;
                let at = bodies.partition_point(|b| b.start <= from);
                if at > 0 && to <= bodies[at - 1].end {
                    continue;
                }
                if seen.insert(unescape_xml(&text[hit.span.clone()])) {
                    hit.line += lines.before(text, offset);
                    let sections = sections.get_or_insert_with(|| section_starts(text));
                    let at = sections.partition_point(|(start, _)| *start <= hit.span.start);
                    let place = Place::Output {
                        section: at
                            .checked_sub(1)
                            .map(|i| sections[i].1.clone())
                            .unwrap_or_default(),
                        line: hit.line,
                    };
                    findings.push(Finding::new(place, hit));
                }
            }
        }
        findings
    }

    /// The parts of `text` the per-file scans did not cover, in order: the
    /// output between the file bodies it holds verbatim (Markdown, XML
    /// CDATA), each widened into the bodies by as many lines as a rule
    /// reaches, so a match across an edge is still seen. A body that is not
    /// in the text verbatim (escaped XML) stays inside a part.
    #[cfg(test)]
    fn uncovered(
        &self,
        text: &str,
        files: &[RenderedFile],
        scanned: &HashSet<String>,
    ) -> Vec<Range<usize>> {
        self.split(text, files, scanned).0
    }

    /// [`Scanner::uncovered`], and where the bodies it skips stand in
    /// `text` (whole, in order).
    fn split(
        &self,
        text: &str,
        files: &[RenderedFile],
        scanned: &HashSet<String>,
    ) -> (Vec<Range<usize>>, Vec<Range<usize>>) {
        let reach = self.rules.reach() + 1;
        let mut parts = Vec::new();
        let mut bodies = Vec::new();
        let mut from = 0;
        let mut cursor = 0;
        for f in files {
            if !f.aggregate || f.error.is_some() {
                continue;
            }
            // Where the assembly put the body: checked while the body is
            // here, trusted when it was released after its scan (else it
            // is scanned with the rest); or where it is found.
            let placed = f.body_at.clone().filter(|at| {
                at.start >= cursor
                    && match text.get(at.clone()) {
                        Some(_) if f.text.is_empty() => scanned.contains(&f.path),
                        Some(there) => there == &*f.text,
                        None => false,
                    }
            });
            let body =
                placed.or_else(|| find_body(text, cursor, &f.text).map(|at| at..at + f.text.len()));
            let Some(Range { start: at, end }) = body else {
                continue;
            };
            if end - at < MIN_SKIPPED_BODY {
                continue;
            }
            let inner_start = after_lines(text, at, end, reach);
            let inner_end = before_lines(text, at, end, reach);
            if inner_start < inner_end {
                parts.push(from..inner_start);
                bodies.push(at..end);
                from = inner_end;
            }
            cursor = end;
        }
        parts.push(from..text.len());
        parts.retain(|r| !r.is_empty());
        (parts, bodies)
    }

    /// The findings of one rendered file, each with its secret's text:
    /// what its view holds, then, for a view that is not the file itself,
    /// the secrets of the file that the view shows in part (a summary or
    /// an outline cuts a long value, and the cut value may match no rule).
    fn file_secrets(&self, f: &RenderedFile) -> Vec<(Finding, String)> {
        if !f.aggregate || f.error.is_some() {
            return Vec::new();
        }
        let source = (f.mode != ViewMode::Full)
            .then(|| self.codebase.sources.file(self.codebase.root, &f.path));
        let source = source.as_deref().and_then(|s| s.text());
        let mut found = self.view_secrets(f, source);
        if let Some(source) = source
            && source != &*f.text
        {
            let hits = self.scan_remembered(source, &f.path);
            let reported: HashSet<&str> = found.iter().map(|(_, s)| s.as_str()).collect();
            let lines: HashSet<usize> = found
                .iter()
                .filter_map(|(finding, _)| match finding.place {
                    Place::File { line, .. } => Some(line),
                    _ => None,
                })
                .collect();
            let shown: Vec<(Finding, String)> = self
                .rules
                .shown_in(hits, source, &f.text)
                .into_iter()
                .filter(|hit| {
                    let secret = &source[hit.span.clone()];
                    !reported.contains(secret) && !lines.contains(&hit.line)
                })
                .map(|hit| {
                    let secret = source[hit.span.clone()].to_string();
                    let place = Place::File {
                        path: f.path.clone(),
                        line: hit.line,
                    };
                    (Finding::new(place, hit), secret)
                })
                .collect();
            found.extend(shown);
            // In the file's order, as a full view's findings are.
            found.sort_by_key(|(finding, _)| match finding.place {
                Place::File { line, .. } => line,
                _ => usize::MAX,
            });
        }
        found
    }

    /// The hits in `text`, none when the clean texts know it holds none
    /// (and noting it there when it is found to).
    fn scan_remembered(&self, text: &str, path: &str) -> Vec<Hit> {
        let known = self.clean.map(|clean| {
            let kind = self.rules.file_kind(path);
            (clean, CleanTexts::id_as(text, &kind))
        });
        if let Some((clean, id)) = &known
            && clean.is_clean(id)
        {
            return Vec::new();
        }
        let hits = self.rules.scan_file(text, path);
        if hits.is_empty()
            && let Some((clean, id)) = known
        {
            clean.remember(id);
        }
        hits
    }

    /// The findings in the text of `f`'s view, each with its secret's
    /// text, located in `source` (the file's own text) for a view that is
    /// not the file itself.
    fn view_secrets(&self, f: &RenderedFile, source: Option<&str>) -> Vec<(Finding, String)> {
        let hits = self.scan_remembered(&f.text, &f.path);
        if hits.is_empty() {
            return Vec::new();
        }
        // A full view is the file itself; any other view is located back.
        let mut locator = source.map(Locator::new);
        hits.into_iter()
            .map(|hit| {
                let secret = f.text[hit.span.clone()].to_string();
                let line = match &mut locator {
                    None if f.mode == ViewMode::Full => Some(hit.line),
                    None => None,
                    Some(locator) => locator.line_of(&f.text, &hit),
                };
                let place = match line {
                    Some(line) => Place::File {
                        path: f.path.clone(),
                        line,
                    },
                    None => Place::View {
                        path: f.path.clone(),
                        mode: f.mode,
                        line: hit.line,
                    },
                };
                (Finding::new(place, hit), secret)
            })
            .collect()
    }

    /// The secrets of the files the repo map outlines that their outline
    /// shows in part (a signature is cut at its 120th character), each
    /// with its secret's text.
    fn map_shown(&self, map: &str) -> Vec<(Finding, String)> {
        let mut found = Vec::new();
        for (path, outline) in map_outlines(map) {
            let file = self.codebase.sources.file(self.codebase.root, path);
            let Some(source) = file.text() else { continue };
            let hits = self.scan_remembered(source, path);
            for hit in self.rules.shown_in(hits, source, outline) {
                let secret = source[hit.span.clone()].to_string();
                let place = Place::MapFile {
                    path: path.to_string(),
                    line: hit.line,
                };
                found.push((Finding::new(place, hit), secret));
            }
        }
        found
    }

    /// A repo-map hit as a line of the file whose outline it is in.
    fn map_place(&self, map: &str, hit: &Hit) -> Place {
        // Outline lines are indented under their file's path line.
        let path = map[..hit.span.start]
            .lines()
            .rev()
            .find(|l| !l.is_empty() && !l.starts_with([' ', '\t']))
            .filter(|p| is_map_path(p))
            .map(str::to_string);
        let Some(path) = path else {
            return Place::RepoMap { line: hit.line };
        };
        let file = self.codebase.sources.file(self.codebase.root, &path);
        match file
            .text()
            .and_then(|src| Locator::new(src).line_of(map, hit))
        {
            Some(line) => Place::MapFile { path, line },
            None => Place::RepoMap { line: hit.line },
        }
    }
}

/// Whether `line`, a repo-map line that is not indented, names a project
/// file: a file name with a newline must not make the scanner read
/// something else.
fn is_map_path(line: &str) -> bool {
    !line.is_empty() && !line.starts_with('#') && !line.contains(' ') && walk::is_inside(line)
}

/// Each file the repo map outlines, with its outline (the indented lines
/// under its path line).
fn map_outlines(map: &str) -> Vec<(&str, &str)> {
    let mut out: Vec<(&str, &str)> = Vec::new();
    let mut open: Option<(&str, usize, usize)> = None;
    let mut at = 0;
    for line in map.split_inclusive('\n') {
        let end = at + line.len();
        if line.starts_with([' ', '\t']) {
            if let Some((_, _, stop)) = &mut open {
                *stop = end;
            }
        } else {
            if let Some((path, start, stop)) = open.take()
                && start < stop
            {
                out.push((path, &map[start..stop]));
            }
            let name = line.trim_end_matches(['\n', '\r']);
            open = is_map_path(name).then_some((name, end, end));
        }
        at = end;
    }
    if let Some((path, start, stop)) = open
        && start < stop
    {
        out.push((path, &map[start..stop]));
    }
    out
}

/// Finds where the lines of a rendered view come from in the file's own
/// text, in time linear in the file however many hits there are.
struct Locator<'s> {
    source: &'s str,
    /// Each trimmed line of the source and the lines (1-based) it is on.
    by_text: HashMap<&'s str, Vec<usize>>,
    /// Lines already claimed by an earlier hit.
    used: HashSet<usize>,
    /// Full-text searches done (for lines the view rewrote); bounded.
    searches: usize,
}

/// At most this many hits per file are searched for in the whole source.
const MAX_SEARCHES: usize = 64;

impl<'s> Locator<'s> {
    fn new(source: &'s str) -> Self {
        let mut by_text: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, line) in source.lines().enumerate() {
            by_text.entry(line.trim()).or_default().push(i + 1);
        }
        Locator {
            source,
            by_text,
            used: HashSet::new(),
            searches: 0,
        }
    }

    /// The source line that `hit` (a match in `view`, a rendering of the
    /// source) comes from: a line reading exactly like the view's line,
    /// else the first occurrence of the secret; each claimed once. `None`
    /// when the source lacks the secret.
    fn line_of(&mut self, view: &str, hit: &Hit) -> Option<usize> {
        // The match may start lines above its secret (a PEM header).
        let lines_above = view[hit.start.min(hit.span.start)..hit.span.start]
            .bytes()
            .filter(|b| *b == b'\n')
            .count();
        let view_line = line_around(view, hit.span.start).trim();
        let same = self
            .by_text
            .get(view_line)
            .and_then(|lines| lines.iter().find(|l| !self.used.contains(l)))
            .copied();
        let line = match same {
            Some(line) => line,
            None => self.search(&view[hit.span.clone()])?,
        };
        self.used.insert(line);
        Some(line.saturating_sub(lines_above).max(1))
    }

    /// The first line holding `secret` not claimed yet (else the first).
    fn search(&mut self, secret: &str) -> Option<usize> {
        if self.searches >= MAX_SEARCHES {
            return None;
        }
        self.searches += 1;
        let mut line = 1;
        let mut counted = 0;
        let mut first = None;
        for (at, _) in self.source.match_indices(secret) {
            line += self.source[counted..at].matches('\n').count();
            counted = at;
            if !self.used.contains(&line) {
                return Some(line);
            }
            first.get_or_insert(line);
        }
        first
    }
}

/// A body shorter than this is scanned again with the output around it
/// (finding it costs more than scanning it).
const MIN_SKIPPED_BODY: usize = 256;

/// Lines before a position of the output, counted once from the start
/// however many positions are asked (they only grow), and only when a
/// hit needs one.
#[derive(Default)]
struct LineCounter {
    at: usize,
    lines: usize,
}

impl LineCounter {
    /// How many lines end before byte `pos` (`pos` never decreases).
    fn before(&mut self, text: &str, pos: usize) -> usize {
        if pos > self.at {
            self.lines += text.as_bytes()[self.at..pos]
                .iter()
                .filter(|b| **b == b'\n')
                .count();
            self.at = pos;
        }
        self.lines
    }
}

/// Where `body` stands verbatim in `text` at or after `from`: found by its
/// first bytes (a short needle: building a searcher for a whole body costs
/// as much as the search), then checked whole with one comparison.
fn find_body(text: &str, from: usize, body: &str) -> Option<usize> {
    let mut probe = body.len().min(64);
    while !body.is_char_boundary(probe) {
        probe -= 1;
    }
    let needle = &body[..probe];
    let mut cursor = from;
    while let Some(i) = text.get(cursor..)?.find(needle) {
        let at = cursor + i;
        if text[at..].starts_with(body) {
            return Some(at);
        }
        cursor = at + 1;
        while !text.is_char_boundary(cursor) {
            cursor += 1;
        }
    }
    None
}

/// The position after `n` lines from `at` (within `at..end`), or `end`.
fn after_lines(text: &str, at: usize, end: usize, n: usize) -> usize {
    let mut pos = at;
    for _ in 0..n {
        match text[pos..end].find('\n') {
            Some(i) => pos += i + 1,
            None => return end,
        }
    }
    pos
}

/// The start of the last `n` lines of `at..end`, or `at`.
fn before_lines(text: &str, at: usize, end: usize, n: usize) -> usize {
    let mut pos = end;
    for _ in 0..=n {
        match text[at..pos].rfind('\n') {
            Some(i) => pos = at + i,
            None => return at,
        }
    }
    pos + 1
}

/// Start of the line holding byte `pos`.
fn line_start(text: &str, pos: usize) -> usize {
    text[..pos].rfind('\n').map_or(0, |i| i + 1)
}

/// The whole line holding byte `pos`.
fn line_around(text: &str, pos: usize) -> &str {
    let start = line_start(text, pos);
    let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
    &text[start..end]
}

/// Where each section of the output starts and its name: a `## `
/// heading (Markdown) or an opening tag (XML), in text order.
fn section_starts(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("## ") {
            out.push((at, line.trim_end().chars().take(60).collect()));
        } else if let Some(tag) = line.strip_prefix('<') {
            let name: String = tag
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push((at, format!("<{name}>")));
            }
        }
        at += line.len();
    }
    out
}

/// The text an XML-escaped secret stands for, so a secret already reported
/// in a file is not reported again from the escaped output.
fn unescape_xml(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests;
