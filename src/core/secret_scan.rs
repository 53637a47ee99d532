//! Scanning one text with a [`RuleSet`]: one Aho-Corasick pass finds the
//! lines holding some rule's keyword, and only those rules' regexes run,
//! only on those lines (plus the few lines a multi-line rule may reach).
//! The few `whole_text` rules run once over the whole text,
//! `key_body` looks for private-key bodies that lost their
//! `BEGIN` line, `jwk` for JSON Web Keys with their private members, and
//! `joined` reads string literals joined by concatenation as one. Every step is linear in the text (the `regex` crate
//! guarantees it), so a 10 MB minified line costs about as much as reading
//! it.
//!
//! The detection on one text, with the [`rules`] under it, is a leaf: the
//! summary gate and the discussion check use it, and [`crate::core::secrets::Scanner`],
//! which maps findings to the places of a composed context, stands over
//! composition.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use regex::Captures;

mod base64_text;
mod binary;
mod bks;
mod bom;
mod byte_array;
mod docker_config;
mod head;
mod joined;
mod jwk;
mod jwk_examples;
mod key_body;
mod keystore;
mod line_ends;
mod pem_examples;
pub mod rules;
mod shown;
mod sieve;
mod sniff;
mod streams;
mod tar;
mod unpack;
mod zip;

#[cfg(test)]
pub(crate) use bks::tests::bks as test_bks;
#[cfg(test)]
pub(crate) use zip::tests::zip as test_zip;
#[cfg(test)]
pub(crate) use zip::tests::zip64 as test_zip64;

use rules::{Decode, Rule, RuleSet};
pub use unpack::DecodeBudget;

/// One match in a text. The secret itself is not kept: `span` points at it
/// in the scanned text, so printing a hit (even with `{:?}`) cannot leak it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// 1-based line of the text where the match starts.
    pub line: usize,
    /// The rule's id (`github-token`).
    pub rule: Arc<str>,
    /// The rule's short human name (`GitHub token`).
    pub kind: Arc<str>,
    /// The secret with all but its first few characters hidden.
    pub masked: String,
    /// Byte offset of the match's start (its line is `line`).
    pub start: usize,
    /// Byte range of the secret in the scanned text.
    pub span: Range<usize>,
}

/// Every likely secret in `text`, by line, with the built-in rules.
pub fn scan(text: &str) -> Vec<Hit> {
    RuleSet::builtin().scan(text)
}

/// [`scan`] of the text of the file at `path`: the rules that run only on
/// files of some kinds (an INI file's indented values) run on it too when
/// it is one.
pub fn scan_file(text: &str, path: &str) -> Vec<Hit> {
    RuleSet::builtin().scan_file(text, path)
}

/// [`scan`] of a text with no file name (a discussion message): the rules
/// for some kinds of file run on it, or on a fenced block of it, when its
/// lines show that kind ([`RuleSet::scan_unnamed`]).
pub fn scan_unnamed(text: &str) -> Vec<Hit> {
    RuleSet::builtin().scan_unnamed(text)
}

/// The likely secrets of `source`, the text of the file at `path`, that
/// `shown`, text drawn from it (a view, symbol signatures), holds whole or
/// in part, with the built-in rules (those for its kind of file too; see
/// [`RuleSet::shown_in`]).
pub fn shown_secrets(path: &str, source: &str, shown: &str) -> Vec<Hit> {
    let rules = RuleSet::builtin();
    rules.shown_in(rules.scan_file(source, path), source, shown)
}

impl RuleSet {
    /// Every likely secret in `text`, by line then column. The rules that
    /// run only on some kinds of file do not run ([`RuleSet::scan_file`]).
    pub fn scan(&self, text: &str) -> Vec<Hit> {
        self.scan_at(text, false, None)
    }

    /// [`RuleSet::scan`] of the text of the file at `path` (relative or
    /// not): the rules for its kind of file run too (`files` in the rule
    /// file: `.ini`, `.properties`, `.yaml`).
    pub fn scan_file(&self, text: &str, path: &str) -> Vec<Hit> {
        let mut hits = self.scan_at(text, false, Some(path));
        // A name that says nothing of the file's kind (round 22): the
        // rules for the kind its lines show run too.
        if let Some(kind_path) = sniff::named_kind(path, text) {
            let by_kind: Vec<Hit> = self
                .scan_at(text, false, Some(&kind_path))
                .into_iter()
                .filter(|hit| {
                    let kind_rule = self
                        .rules
                        .iter()
                        .any(|r| r.id == hit.rule && !r.files.is_empty());
                    kind_rule
                        && !hits
                            .iter()
                            .any(|h| h.span.start < hit.span.end && hit.span.start < h.span.end)
                })
                .collect();
            if !by_kind.is_empty() {
                hits.extend(by_kind);
                hits.sort_by_key(|h| (h.line, h.span.start));
            }
        }
        hits
    }

    /// [`RuleSet::scan`] of a text with no file name (a discussion
    /// message, a file whose name says nothing of its kind): the rules for
    /// the kind of file its lines show run on it too ([`sniff`]), and on
    /// each fenced block of a kind (```` ```ini ````), so a secret such a
    /// rule finds in a named file is found there as well.
    pub fn scan_unnamed(&self, text: &str) -> Vec<Hit> {
        let mut hits = match sniff::kind(text) {
            Some(name) => self.scan_file(text, name),
            None => self.scan(text),
        };
        let blocks = sniff::blocks(text);
        if blocks.is_empty() {
            return hits;
        }
        let starts = line_starts(text);
        for block in blocks {
            let first = line_of(&starts, block.body.start);
            for mut hit in self.scan_file(&text[block.body.clone()], block.name) {
                let by_kind = self
                    .rules
                    .iter()
                    .any(|r| r.id == hit.rule && !r.files.is_empty());
                let offset = block.body.start;
                let span = hit.span.start + offset..hit.span.end + offset;
                let overlaps = hits
                    .iter()
                    .any(|h| h.span.start < span.end && span.start < h.span.end);
                if by_kind && !overlaps {
                    hit.line += first;
                    hit.start += offset;
                    hit.span = span;
                    hits.push(hit);
                }
            }
        }
        hits.sort_by_key(|h| (h.line, h.span.start));
        hits
    }

    /// [`RuleSet::scan`]; `nested` for a text decoded from a match, where
    /// the rules that decode and scan again do not run (one level deep),
    /// nor does the reading of joined literals; `path` names the file
    /// the text is, for the rules of some kinds of file.
    fn scan_at(&self, text: &str, nested: bool, path: Option<&str>) -> Vec<Hit> {
        if text.is_empty() {
            return Vec::new();
        }
        // A text's encoded values share one decode budget; a decoded
        // text's are counted with its outer text's.
        let _budget = (!nested).then(unpack::text_budget);
        let original = text;
        let blanked = bom::blanked(text);
        let ended = line_ends::lone_cr_ended(&blanked);
        let text = &*ended;
        let starts = line_starts(text);
        let mut found = self.found_in(text, &starts, nested, path);
        if !nested && let Some(joined) = joined::find(text, |copy| self.keywords.is_match(copy)) {
            found.extend(self.joined_hits(&joined, &starts));
        }
        let mut hits = keep_first_of_overlaps(found);
        // The rules read lines the scan's copy ends; a hit is named on the
        // line of the text as everything else counts them (by line feed).
        if matches!(ended, std::borrow::Cow::Owned(_)) {
            let starts = line_starts(original);
            for hit in &mut hits {
                hit.line = line_of(&starts, hit.start) + 1;
            }
        }
        hits
    }

    /// The hits of the rules in `text` (lines at `starts`), each with the
    /// index that orders overlapping ones, before overlaps are settled.
    fn found_in(
        &self,
        text: &str,
        starts: &[usize],
        nested: bool,
        path: Option<&str>,
    ) -> Vec<(usize, Hit)> {
        let mut todo: Vec<(usize, usize)> = Vec::new();
        for m in self.keywords.find_overlapping_iter(text) {
            let line = line_of(starts, m.start());
            for &rule in &self.keyword_rules[m.pattern().as_usize()] {
                todo.push((line, rule));
            }
        }
        todo.sort_unstable();
        todo.dedup();
        if nested {
            todo.retain(|&(_, rule)| !self.rules[rule].decode.scans());
        }
        todo.retain(|&(_, rule)| self.rules[rule].runs_on(path));
        let mut found = Vec::new();
        for (line, rule) in todo {
            self.scan_line(text, starts, line, rule, &mut found);
        }
        for &rule in self
            .whole_text_rules
            .iter()
            .filter(|&&r| self.rules[r].runs_on(path))
        {
            self.scan_whole(text, starts, rule, &mut found);
        }
        for body in key_body::find(text, starts) {
            if pem_examples::is_published(&text[body.span.start..]) {
                continue;
            }
            found.push((
                usize::MAX,
                Hit {
                    line: body.line + 1,
                    rule: self.key_body.0.clone(),
                    kind: self.key_body.1.clone(),
                    masked: mask(&text[body.span.clone()]),
                    start: body.span.start,
                    span: body.span,
                },
            ));
        }
        for member in jwk::find(text) {
            let secret = &text[member.span.clone()];
            found.push((
                usize::MAX,
                Hit {
                    line: line_of(starts, member.name.start) + 1,
                    rule: self.jwk.0.clone(),
                    kind: self.jwk.1.clone(),
                    masked: format!("{} = {}", &text[member.name.clone()], mask(secret)),
                    start: member.name.start,
                    span: member.span,
                },
            ));
        }
        found.extend(docker_config::find(text).into_iter().map(|login| {
            (
                usize::MAX,
                Hit {
                    line: line_of(starts, login.name.start) + 1,
                    rule: "docker-config-login".into(),
                    kind: "registry credentials".into(),
                    masked: format!(
                        "{} = {}",
                        &text[login.name.clone()],
                        mask(&text[login.span.clone()])
                    ),
                    start: login.name.start,
                    span: login.span,
                },
            )
        }));
        if !nested {
            found.extend(self.base64_text_hits(text, starts));
            found.extend(self.byte_array_hits(text, starts));
        }
        found
    }

    /// The hits of base64 values that decode to a text holding a secret
    /// ([`base64_text`]: a `.env`, `.npmrc` or `.pgpass` in a Kubernetes
    /// Secret), each reported at its first line as the kind found in it.
    /// A value that decodes to base64 text is decoded once more, and once
    /// more again (round eighteen), no further: the third level's text is
    /// scanned as a nested text. Each level reads ¾ of the text before, so
    /// the work stays within three times the first decoding's.
    fn base64_text_hits(&self, text: &str, starts: &[usize]) -> Vec<(usize, Hit)> {
        let first_kind = |decoded: &str| {
            self.scan_at(decoded, true, None)
                .first()
                .map(|hit| hit.kind.to_string())
                .or_else(|| self.packed_kind(decoded))
        };
        let deeper = |decoded: &str, judge: &dyn Fn(&str) -> Option<String>| {
            if !base64_text::is_base64_text(decoded) {
                return None;
            }
            base64_text::find(decoded, judge, |_| None)
                .into_iter()
                .next()
                .map(|found| found.kind)
        };
        let second = |decoded: &str| {
            first_kind(decoded)
                .map(|kind| format!("{kind} (base64 twice)"))
                .or_else(|| {
                    deeper(decoded, &first_kind).map(|kind| format!("{kind} (base64 three times)"))
                })
        };
        let secret_in = |decoded: &str| {
            if let Some(kind) = first_kind(decoded) {
                return Some(format!("{kind} (base64)"));
            }
            deeper(decoded, &second)
        };
        // Binary at the first level may be raw deflate (round 22).
        let deflated = |bytes: &[u8]| match self.raw_deflated(bytes) {
            Verdict::Secret => Some("compressed data (raw deflate, base64)".to_string()),
            Verdict::Unchecked => Some(self.unchecked.1.to_string()),
            Verdict::Clean => None,
        };
        base64_text::find(text, secret_in, deflated)
            .into_iter()
            .map(|found| {
                let hit = Hit {
                    line: line_of(starts, found.first.start) + 1,
                    rule: "base64-text".into(),
                    kind: found.kind.into(),
                    masked: mask(&text[found.first.clone()]),
                    start: found.first.start,
                    span: found.extent,
                };
                (usize::MAX, hit)
            })
            .collect()
    }

    /// What `decoded`, a value's decoded text, holds when it is base64
    /// again of an archive or a compressed stream (round 21: base64 twice
    /// over of a gzip or zstd): the kind of what its reading finds, or
    /// that it could not be read whole.
    fn packed_kind(&self, decoded: &str) -> Option<String> {
        if !base64_text::is_base64_text(decoded) {
            return None;
        }
        let joined: String = decoded.split_whitespace().collect();
        let bytes = key_body::decode(&joined);
        if !unpack::packed(&bytes) {
            return None;
        }
        match self.decoded(&bytes) {
            Verdict::Secret => Some("compressed data".to_string()),
            Verdict::Unchecked => Some(self.unchecked.1.to_string()),
            Verdict::Clean => None,
        }
    }

    /// The hits in the copy of `joined` literals whose secret spans a
    /// cut, placed back on the text (lines at `starts`): the secret's
    /// range there runs from its first piece to its last, the joins
    /// between included; its masked form is the joined value's.
    fn joined_hits(&self, joined: &joined::Joined, starts: &[usize]) -> Vec<(usize, Hit)> {
        let copy = &joined.text;
        let copy_starts = line_starts(copy);
        self.found_in(copy, &copy_starts, false, None)
            .into_iter()
            .filter_map(|(index, mut hit)| {
                // The match spans a cut (a split secret, or a name and its
                // value on the next line): the text's own scan missed it.
                let matched = hit.start.min(hit.span.start)..hit.span.end;
                joined.placed(&matched)?;
                let span = match joined.placed(&hit.span) {
                    Some(span) => span,
                    None if !hit.span.is_empty() => {
                        joined.position(hit.span.start)..joined.position(hit.span.end - 1) + 1
                    }
                    None => return None,
                };
                hit.start = joined.position(hit.start.min(hit.span.start));
                hit.line = line_of(starts, hit.start) + 1;
                hit.span = span;
                Some((index, hit))
            })
            .collect()
    }

    /// The matches of `whole_text` rule `index` anywhere in `text`.
    fn scan_whole(
        &self,
        text: &str,
        starts: &[usize],
        index: usize,
        found: &mut Vec<(usize, Hit)>,
    ) {
        let rule = &self.rules[index];
        for caps in rule.compiled().regex.captures_iter(text) {
            let Some(whole) = caps.get(0) else { continue };
            let line = line_of(starts, whole.start());
            let start = starts[line];
            let first = &text[start..line_end(text, starts, line)];
            if let Some(hit) = self.hit(rule, &caps, 0, line, first, "") {
                found.push((index, hit));
            }
        }
    }

    /// The matches of rule `index` that start on line `line` (0-based).
    fn scan_line(
        &self,
        text: &str,
        starts: &[usize],
        line: usize,
        index: usize,
        found: &mut Vec<(usize, Hit)>,
    ) {
        let rule = &self.rules[index];
        let start = starts[line];
        let first_end = line_end(text, starts, line);
        let last = (line + rule.lines).min(starts.len() - 1);
        let window = &text[start..line_end(text, starts, last)];
        if !rule.may_match(window) {
            return;
        }
        let first = &text[start..first_end];
        for caps in rule.compiled().regex.captures_iter(window) {
            let Some(whole) = caps.get(0) else { continue };
            if whole.start() > first.len() {
                break;
            }
            let after = &text[first_end..];
            if let Some(hit) = self.hit(rule, &caps, start, line, first, after) {
                found.push((index, hit));
            }
        }
    }

    /// The hit of one match of `rule` (`caps`, in a text that starts at
    /// byte `base` of the scanned one, on 0-based `line` reading `first`,
    /// with `after` the text after that line), unless the rule's
    /// allowlists or entropy say it is no secret.
    fn hit(
        &self,
        rule: &Rule,
        caps: &Captures<'_>,
        base: usize,
        line: usize,
        first: &str,
        after: &str,
    ) -> Option<Hit> {
        let whole = caps.get(0)?;
        let compiled = rule.compiled();
        let secret = compiled
            .secret_groups
            .iter()
            .find_map(|&g| caps.get(g))
            .unwrap_or(whole);
        let name = compiled.name_groups.iter().find_map(|&g| caps.get(g));
        if rule.published_keys && published(secret.start(), first, after) {
            return None;
        }
        let (judged, cut) = if matches!(rule.decode, Decode::Scan | Decode::Zlib) {
            wrapped_base64(secret.as_str(), first.get(secret.end()..), after)
        } else {
            (std::borrow::Cow::Borrowed(secret.as_str()), false)
        };
        let (id, kind) = match self.judge(rule, &judged, cut, name.map(|n| n.as_str()), first) {
            Verdict::Clean => return None,
            Verdict::Secret => (rule.id.clone(), rule.description.clone()),
            Verdict::Unchecked => self.unchecked.clone(),
        };
        let masked = match name {
            Some(n) => format!("{} = {}", n.as_str(), mask(secret.as_str())),
            None => mask(secret.as_str()),
        };
        Some(Hit {
            line: line + 1,
            rule: id,
            kind,
            masked,
            start: base + whole.start(),
            span: base + secret.start()..base + secret.end(),
        })
    }

    /// What `secret` (assigned to `name`), found by `rule` on `line`, is;
    /// `cut` when the scanner read only its start (a wrapped value past
    /// [`MAX_WRAPPED`]).
    fn judge(
        &self,
        rule: &Rule,
        secret: &str,
        cut: bool,
        name: Option<&str>,
        line: &str,
    ) -> Verdict {
        if rule
            .entropy
            .is_some_and(|min| entropy(secret) < entropy_needed(min, secret))
        {
            return Verdict::Clean;
        }
        // A value that is its own name spelled another way is a field's
        // name (`('OAUTH2_CLIENT_SECRET', 'oauth2ClientSecret')`); the
        // same name taken from a module is an alias
        // (`EncryptedPrivateKeyInfo = rfc5958.EncryptedPrivateKeyInfo`).
        let alias = |n: &str| {
            secret
                .rsplit_once('.')
                .is_some_and(|(module, last)| !module.is_empty() && same_words(n, last))
        };
        if name.is_some_and(|n| same_words(n, secret) || alias(n)) {
            return Verdict::Clean;
        }
        if rule.decode == Decode::Scan {
            // Base64 of a text holding a secret is that secret (gzipped
            // first, when it is gzip's).
            if self.global().allows(secret, name, line) {
                return Verdict::Clean;
            }
            return match self.decoded(&key_body::decode(secret)) {
                Verdict::Clean if cut => Verdict::Unchecked,
                verdict => verdict,
            };
        }
        if matches!(rule.decode, Decode::Hex | Decode::Zlib) {
            if self.global().allows(secret, name, line) {
                return Verdict::Clean;
            }
            return match rule.decode {
                Decode::Hex => self.decoded(&unhex(secret)),
                _ => self.zlib_decoded(&key_body::decode(secret)),
            };
        }
        let Some(judged) = rule.decode.apply(secret) else {
            return Verdict::Clean;
        };
        if rule.compiled().allowlist.allows(&judged, name, line)
            || self.global().allows(secret, name, line)
        {
            Verdict::Clean
        } else {
            Verdict::Secret
        }
    }
}

/// Whether the key body starting at byte `start` of the text `first`
/// (a line), `after` (what follows its line) continue, is one an RFC
/// publishes ([`pem_examples`]).
fn published(start: usize, first: &str, after: &str) -> bool {
    let tail: std::borrow::Cow<'_, str> = match first.get(start..) {
        Some(rest) => format!("{rest}{}", &after[..after.floor_char_boundary(16 << 10)]).into(),
        None => after
            .get(start.saturating_sub(first.len())..)
            .unwrap_or_default()
            .into(),
    };
    pem_examples::is_published(&tail)
}

/// What a match is, once judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// No secret (allowed, or nothing secret in what it decodes to).
    Clean,
    /// A secret.
    Secret,
    /// Encoded data the scanner could not read whole, nothing found in
    /// the part it read: reported, since what it did not read may hold
    /// one.
    Unchecked,
}

/// Whether `a` and `b` are the same letters and digits, case and
/// separators aside (`OAUTH2_CLIENT_SECRET`, `oauth2ClientSecret`).
fn same_words(a: &str, b: &str) -> bool {
    let letters = |s: &str| {
        s.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect::<Vec<char>>()
    };
    let (a, b) = (letters(a), letters(b));
    !a.is_empty() && a == b
}

/// How much base64 [`wrapped_base64`] joins: a credential JSON is a few
/// kilobytes; a value wrapped on past this is read no further, and
/// reported as not checked whole unless its start holds a secret.
const MAX_WRAPPED: usize = 1 << 20;

/// `secret`, a base64 value that ends its line (`rest` is what follows it
/// there: nothing, a quote, spaces), joined with the lines of base64 alone
/// that follow (`after` starts at the end of its line): a value wrapped
/// over a YAML block scalar (`.dockerconfigjson: |`) or by `base64`'s 76
/// columns. Anything else is `secret` as it is. With it, `true` when the
/// value goes on past [`MAX_WRAPPED`].
fn wrapped_base64<'a>(
    secret: &'a str,
    rest: Option<&str>,
    after: &str,
) -> (std::borrow::Cow<'a, str>, bool) {
    if secret.ends_with('=') {
        return (secret.into(), false);
    }
    if let Some(escaped) = rest.filter(|r| r.starts_with("\\n") || r.starts_with("\\r\\n")) {
        return escaped_lines(secret, escaped);
    }
    let ends_line = rest.is_some_and(|r| r.trim().trim_matches(['"', '\'']).is_empty());
    if !ends_line {
        return (secret.into(), false);
    }
    let mut joined = secret.to_string();
    for line in after
        .lines()
        .skip(usize::from(after.starts_with(['\n', '\r'])))
    {
        let line = line.trim();
        let is_base64 = !line.is_empty() && line.bytes().all(wrapped_char);
        if !is_base64 {
            break;
        }
        if joined.len() + line.len() > MAX_WRAPPED {
            return (joined.into(), true);
        }
        joined.push_str(line);
        if line.ends_with('=') {
            break;
        }
    }
    (joined.into(), false)
}

/// `secret` joined with the base64 that follows it in `rest` after
/// escaped line ends (`\n`, `\r\n`): a value `base64` wrapped, put in
/// a JSON string (round 21). With it, `true` past [`MAX_WRAPPED`].
fn escaped_lines<'a>(secret: &'a str, mut rest: &str) -> (std::borrow::Cow<'a, str>, bool) {
    let mut joined = secret.to_string();
    while let Some(next) = rest
        .strip_prefix("\\r\\n")
        .or_else(|| rest.strip_prefix("\\n"))
    {
        let end = next
            .bytes()
            .position(|b| !wrapped_char(b))
            .unwrap_or(next.len());
        if end == 0 {
            break;
        }
        if joined.len() + end > MAX_WRAPPED {
            return (joined.into(), true);
        }
        joined.push_str(&next[..end]);
        if next[..end].ends_with('=') {
            break;
        }
        rest = &next[end..];
    }
    (joined.into(), false)
}

/// A character of a wrapped base64 value (either alphabet, padding).
fn wrapped_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'-' | b'_')
}

/// The bytes hex digits spell (a last odd digit is left).
fn unhex(hex: &str) -> Vec<u8> {
    // Bytes may stand apart (`44 42 5f`, `xxd`'s `4442 5f55`).
    let digits: Vec<u8> = hex.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    digits
        .chunks_exact(2)
        .filter_map(|pair| u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok())
        .collect()
}

/// Where two rules matched overlapping text (a GitHub token assigned to
/// `TOKEN`; a key body after its `BEGIN` line, which the header's rule
/// reports from the line above), the match on the earlier line wins, then
/// the earlier rule in the file; the result is in text order. The spans
/// kept never overlap, so each new one is checked against the kept span
/// that starts just before its end only: thousands of hits on one
/// minified line cost `n log n`, not `n²` (100,000 took 55 s).
fn keep_first_of_overlaps(mut found: Vec<(usize, Hit)>) -> Vec<Hit> {
    found.sort_by_key(|(rule, h)| (h.line, *rule, h.span.start));
    // Kept spans by start: start → end.
    let mut spans: std::collections::BTreeMap<usize, usize> = std::collections::BTreeMap::new();
    let mut kept: Vec<Hit> = Vec::with_capacity(found.len());
    for (_, hit) in found {
        let (start, end) = (hit.span.start, hit.span.end);
        // The kept span starting last before `end` is the only one that
        // can reach into this one: they are disjoint, so sorted by end too.
        let overlaps = spans
            .range(..end)
            .next_back()
            .is_some_and(|(_, &e)| start < e);
        if !overlaps {
            // An empty span overlaps nothing, and is not kept as a span.
            if start < end {
                spans.insert(start, end);
            }
            kept.push(hit);
        }
    }
    kept.sort_by_key(|h| (h.line, h.span.start));
    kept
}

/// Byte offset of each line's first character.
pub(super) fn line_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    // `match_indices` on a char searches with memchr, fast even unoptimised.
    starts.extend(
        text.match_indices('\n')
            .map(|(i, _)| i + 1)
            .filter(|&i| i < text.len()),
    );
    starts
}

/// The 0-based line holding byte `pos`.
fn line_of(starts: &[usize], pos: usize) -> usize {
    starts.partition_point(|&s| s <= pos).saturating_sub(1)
}

/// End of line `line` (0-based), its newline excluded.
pub(super) fn line_end(text: &str, starts: &[usize], line: usize) -> usize {
    match starts.get(line + 1) {
        Some(&next) => next - 1,
        None => text.len(),
    }
}

/// `first4…(N chars)`: enough to recognise, not enough to use.
pub fn mask(secret: &str) -> String {
    let n = secret.chars().count();
    let shown: String = secret.chars().take(if n > 20 { 4 } else { 2 }).collect();
    format!("{shown}…({n} chars)")
}

/// The entropy `secret` must reach under a rule asking `min` (3 bits at
/// most): a short value cannot reach much (eight characters, 3 bits at
/// best, and less with one repeated), so one of under 12 characters that
/// mixes capitals, small letters and digits, changing between them four
/// times or more, needs half a bit less than its length allows, when that
/// is less (round 24: `1Dt1y5ny`; a word and a year, `Summer2024`, is a
/// person's password, read only under a password's name).
fn entropy_needed(min: f64, secret: &str) -> f64 {
    let class = |b: &u8| match b {
        b'A'..=b'Z' => 1,
        b'a'..=b'z' => 2,
        b'0'..=b'9' => 3,
        _ => 0,
    };
    let bytes = secret.as_bytes();
    let seen = bytes.iter().fold(0u8, |seen, b| seen | 1 << class(b));
    let changes = bytes
        .windows(2)
        .filter(|w| class(&w[0]) != class(&w[1]))
        .count();
    let mixed = seen & 0b1110 == 0b1110 && changes >= 4;
    if min <= 3.0 && mixed && secret.len() < 12 {
        min.min((secret.len() as f64).log2() - 0.5)
    } else {
        min
    }
}

/// Shannon entropy in bits per character.
pub fn entropy(s: &str) -> f64 {
    let mut counts: HashMap<char, f64> = HashMap::new();
    let mut n = 0.0;
    for c in s.chars() {
        *counts.entry(c).or_insert(0.0) += 1.0;
        n += 1.0;
    }
    counts
        .values()
        .map(|&k| {
            let p = k / n;
            -p * p.log2()
        })
        .sum()
}
