//! Which secrets of a text a rendering of it shows, whole or in part.
//! Summaries, outlines and symbol signatures cut long values (`value…`,
//! `value...`, a clip at a column), so the cut value may no longer match
//! its rule while most of the secret is still there (26 of a password's
//! 32 characters in a summary). The rules run on the file's own text;
//! each hit counts as shown when the rendering holds its beginning: the
//! part every secret of its rule starts with (`ghp_`, a Slack webhook's
//! host and path, found from the rule's regex by [`super::head`]) and [`SHOWN_CHARS`] of
//! what follows, or the whole secret when it is shorter than that. One
//! Aho-Corasick pass over the rendering tests every hit, so a minified
//! file with thousands of hits costs one read of its outline.

use aho_corasick::{AhoCorasick, MatchKind};

use super::Hit;
use super::rules::RuleSet;

/// How many characters of a secret past its fixed beginning count as a
/// meaningful part of it: eight random letters and digits are 47 bits,
/// more than a guess; fewer is what any outline may show by chance.
pub const SHOWN_CHARS: usize = 8;

impl RuleSet {
    /// The hits of `source` (found there by [`RuleSet::scan`]) whose
    /// secret `shown`, a rendering of `source`, holds whole or in part.
    pub fn shown_in(&self, hits: Vec<Hit>, source: &str, shown: &str) -> Vec<Hit> {
        if hits.is_empty() || shown.is_empty() {
            return Vec::new();
        }
        let needles: Vec<&str> = hits.iter().map(|hit| self.needle(hit, source)).collect();
        let mut unique: Vec<&str> = needles.clone();
        unique.sort_unstable();
        unique.dedup();
        let Ok(searcher) = AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .build(&unique)
        else {
            // Past the automaton's limits: every hit counts as shown
            // rather than a secret passing.
            return hits;
        };
        let mut found = vec![false; unique.len()];
        for m in searcher.find_overlapping_iter(shown) {
            let index = m.pattern().as_usize();
            if !found[index] && starts_a_value(shown, m.start(), unique[index]) {
                found[index] = true;
            }
        }
        hits.into_iter()
            .zip(needles)
            .filter(|(_, needle)| unique.binary_search(needle).is_ok_and(|i| found[i]))
            .map(|(hit, _)| hit)
            .collect()
    }

    /// What of `hit`'s secret (in `source`) a rendering must hold to show
    /// it: its fixed beginning and [`SHOWN_CHARS`] more, or all of it.
    fn needle<'s>(&self, hit: &Hit, source: &'s str) -> &'s str {
        let secret = source.get(hit.span.clone()).unwrap_or_default();
        let head = self
            .rules
            .iter()
            .filter(|r| r.id == hit.rule)
            .map(|r| r.fixed_head())
            .max()
            .unwrap_or(0);
        match secret.char_indices().nth(head + SHOWN_CHARS) {
            Some((end, _)) => &secret[..end],
            None => secret,
        }
    }
}

/// `true` unless the match of `needle` at `at` in `shown` is the tail of
/// a longer word (`xAKIA…` is no AWS key shown): a secret starts a value
/// where a rendering draws it, or is itself a word's beginning.
fn starts_a_value(shown: &str, at: usize, needle: &str) -> bool {
    let before = shown[..at].chars().next_back();
    let first = needle.chars().next();
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric());
    !(word(before) && word(first))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hits_shown(source: &str, shown: &str) -> Vec<usize> {
        let rules = RuleSet::builtin();
        rules
            .shown_in(rules.scan(source), source, shown)
            .iter()
            .map(|h| h.line)
            .collect()
    }

    /// A cut value shows its secret when it holds the secret's first
    /// eight characters (past a token's fixed prefix); fewer, a fixed
    /// prefix alone, or a word that merely ends the same way, do not.
    #[test]
    fn a_secret_is_shown_by_its_beginning() {
        let password = "q8ZrT2mWx9LpK4vB7nYc3HdF6gJs1AeQ";
        let source = format!("db:\n  url: postgres://svc:{password}@db.example.com/app\n");
        let cut = format!("db.url = postgres://svc:{}…\n", &password[..26]);
        assert_eq!(hits_shown(&source, &cut), [2]);
        let short = format!("db.url = postgres://svc:{}…\n", &password[..7]);
        assert!(hits_shown(&source, &short).is_empty());
        assert!(hits_shown(&source, &format!("x{}", &password[..20])).is_empty());
        let token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
        let source = format!("def f():\n    return \"{token}\"\n");
        assert_eq!(
            hits_shown(&source, &format!("T = \"{}...", &token[..12])),
            [2]
        );
        assert!(hits_shown(&source, "def f(): ...  # ghp_abc").is_empty());
        assert!(hits_shown(&source, "def f(): ...\n").is_empty());
    }
}
