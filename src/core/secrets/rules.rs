//! The scanner's rules as data: `config/secrets.toml` (embedded) parsed and
//! compiled once into a [`RuleSet`] — one regex per rule, its allowlists,
//! and one Aho-Corasick automaton over every rule's keywords, the prefilter
//! that decides which lines a rule's regex runs on at all.

use std::sync::{Arc, OnceLock};

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use regex::Regex;
use serde::Deserialize;

/// The built-in rules, shipped in the binary.
pub const DEFAULT_RULES: &str = include_str!("../../../config/secrets.toml");

/// A rule file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    #[error("secret rules: {0}")]
    Toml(#[from] toml::de::Error),
    #[error("secret rule `{id}`: bad regex: {source}")]
    Regex {
        id: String,
        #[source]
        source: Box<regex::Error>,
    },
    #[error("secret rule `{id}`: {problem}")]
    Invalid { id: String, problem: String },
    #[error("secret rules: keyword automaton: {0}")]
    Keywords(#[from] aho_corasick::BuildError),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesFile {
    #[serde(default)]
    allowlist: AllowSpec,
    rules: Vec<RuleSpec>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleSpec {
    id: String,
    description: String,
    regex: String,
    keywords: Vec<String>,
    #[serde(default)]
    lines: usize,
    entropy: Option<f64>,
    #[serde(default)]
    allowlist: AllowSpec,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct AllowSpec {
    #[serde(default)]
    regexes: Vec<String>,
    #[serde(default)]
    stopwords: Vec<String>,
    #[serde(default)]
    line_regexes: Vec<String>,
    #[serde(default)]
    placeholders: Vec<String>,
    #[serde(default)]
    min_random: usize,
}

/// What makes a match not a secret.
#[derive(Debug, Default)]
pub struct Allowlist {
    regexes: Vec<Regex>,
    stopwords: Vec<String>,
    line_regexes: Vec<Regex>,
    placeholders: Vec<String>,
    min_random: usize,
}

impl Allowlist {
    fn compile(id: &str, spec: AllowSpec) -> Result<Self, RulesError> {
        let compile_all = |list: Vec<String>| -> Result<Vec<Regex>, RulesError> {
            list.iter().map(|r| compile(id, r)).collect()
        };
        Ok(Allowlist {
            regexes: compile_all(spec.regexes)?,
            stopwords: lower_all(spec.stopwords),
            line_regexes: compile_all(spec.line_regexes)?,
            placeholders: lower_all(spec.placeholders),
            min_random: spec.min_random,
        })
    }

    /// `true` when `secret` (found on `line`) is allowed, i.e. not reported.
    pub fn allows(&self, secret: &str, line: &str) -> bool {
        if self.regexes.iter().any(|r| r.is_match(secret))
            || self.line_regexes.iter().any(|r| r.is_match(line))
        {
            return true;
        }
        if self.stopwords.is_empty() && self.min_random == 0 {
            return false;
        }
        let lower = secret.to_ascii_lowercase();
        if self.stopwords.iter().any(|w| lower.contains(w.as_str())) {
            return true;
        }
        self.min_random > 0 && random_rest(&lower, &self.placeholders) < self.min_random
    }
}

/// How many letters and digits of `lower` are left once every placeholder
/// word is cut out.
fn random_rest(lower: &str, placeholders: &[String]) -> usize {
    let mut rest = lower.to_string();
    for word in placeholders {
        if rest.contains(word.as_str()) {
            rest = rest.replace(word.as_str(), " ");
        }
    }
    rest.chars().filter(char::is_ascii_alphanumeric).count()
}

fn lower_all(list: Vec<String>) -> Vec<String> {
    list.into_iter().map(|w| w.to_ascii_lowercase()).collect()
}

fn compile(id: &str, pattern: &str) -> Result<Regex, RulesError> {
    Regex::new(pattern).map_err(|e| RulesError::Regex {
        id: id.to_string(),
        source: Box::new(e),
    })
}

/// One compiled rule.
#[derive(Debug)]
pub struct Rule {
    pub id: Arc<str>,
    /// The short human name shown in findings.
    pub description: Arc<str>,
    pub regex: Regex,
    /// Lines after the keyword's line the match may reach into.
    pub lines: usize,
    pub entropy: Option<f64>,
    pub allowlist: Allowlist,
    /// Index of the `secret` capture group, if the regex has one.
    pub secret_group: Option<usize>,
    /// Index of the `name` capture group, if the regex has one.
    pub name_group: Option<usize>,
}

/// Every rule, the global allowlist and the keyword prefilter.
#[derive(Debug)]
pub struct RuleSet {
    pub rules: Vec<Rule>,
    pub global: Allowlist,
    /// Over every rule's keywords, ASCII case-insensitive.
    pub keywords: AhoCorasick,
    /// Keyword pattern index → the rules it enables.
    pub keyword_rules: Vec<Vec<usize>>,
}

impl RuleSet {
    /// How many lines past its first one a rule's match may reach.
    pub fn reach(&self) -> usize {
        self.rules.iter().map(|r| r.lines).max().unwrap_or(0)
    }

    /// Parse and compile a rule file.
    pub fn parse(text: &str) -> Result<Self, RulesError> {
        let file: RulesFile = toml::from_str(text)?;
        let global = Allowlist::compile("(global)", file.allowlist)?;
        let mut rules = Vec::with_capacity(file.rules.len());
        let mut words: Vec<String> = Vec::new();
        let mut keyword_rules: Vec<Vec<usize>> = Vec::new();
        for (index, spec) in file.rules.into_iter().enumerate() {
            let invalid = |problem: &str| RulesError::Invalid {
                id: spec.id.clone(),
                problem: problem.to_string(),
            };
            if spec.keywords.is_empty() {
                return Err(invalid("needs at least one keyword (the prefilter)"));
            }
            for word in &spec.keywords {
                if word.is_empty() || word.to_ascii_lowercase() != *word {
                    return Err(invalid("keywords are non-empty and lowercase"));
                }
                match words.iter().position(|w| w == word) {
                    Some(k) => keyword_rules[k].push(index),
                    None => {
                        words.push(word.clone());
                        keyword_rules.push(vec![index]);
                    }
                }
            }
            let regex = compile(&spec.id, &spec.regex)?;
            let group = |name: &str| regex.capture_names().position(|n| n == Some(name));
            let secret_group = group("secret");
            let name_group = group("name");
            rules.push(Rule {
                allowlist: Allowlist::compile(&spec.id, spec.allowlist)?,
                id: spec.id.into(),
                description: spec.description.into(),
                lines: spec.lines,
                entropy: spec.entropy,
                secret_group,
                name_group,
                regex,
            });
        }
        let keywords = AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .build(&words)?;
        Ok(RuleSet {
            rules,
            global,
            keywords,
            keyword_rules,
        })
    }

    /// The built-in rules, compiled on first use and kept for the
    /// process's life (with what their regexes cache as they scan).
    pub fn builtin() -> &'static RuleSet {
        static RULES: OnceLock<RuleSet> = OnceLock::new();
        RULES.get_or_init(RuleSet::compile_builtin)
    }

    /// A copy of the built-in rules of the caller's own: a one-shot build
    /// drops it, and the megabytes its regexes cache while scanning a large
    /// context, once the scan is done.
    pub fn compile_builtin() -> RuleSet {
        // The embedded file is part of the program and tested below: a
        // failure here is a build defect, not bad user input.
        RuleSet::parse(DEFAULT_RULES).expect("config/secrets.toml is valid")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_rules_compile() {
        let set = RuleSet::parse(DEFAULT_RULES).expect("valid rules");
        assert!(set.rules.len() >= 15);
        for rule in &set.rules {
            assert!(
                rule.secret_group.is_some(),
                "rule {} names no `secret` group",
                rule.id
            );
        }
    }

    #[test]
    fn bad_rules_are_named() {
        let no_kw = "[[rules]]\nid = \"x\"\ndescription = \"x\"\nregex = \"a\"\nkeywords = []\n";
        let e = RuleSet::parse(no_kw).unwrap_err().to_string();
        assert!(e.contains("`x`") && e.contains("keyword"), "{e}");
        let bad = "[[rules]]\nid = \"y\"\ndescription = \"y\"\nregex = \"(\"\nkeywords = [\"a\"]\n";
        let e = RuleSet::parse(bad).unwrap_err().to_string();
        assert!(e.contains("`y`") && e.contains("regex"), "{e}");
        let upper =
            "[[rules]]\nid = \"z\"\ndescription = \"z\"\nregex = \"a\"\nkeywords = [\"A\"]\n";
        assert!(RuleSet::parse(upper).is_err());
        assert!(RuleSet::parse("[[rules]]\nid = 1\n").is_err());
    }

    #[test]
    fn placeholders_leave_little_randomness() {
        let words: Vec<String> = ["test", "password"].map(String::from).to_vec();
        assert_eq!(random_rest("testpassword123", &words), 3);
        assert_eq!(random_rest("test-xq9!vr2#mk", &words), 8);
    }
}
