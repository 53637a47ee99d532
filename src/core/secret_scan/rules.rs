//! The scanner's rules as data: `config/secrets.toml` (embedded) parsed
//! once into a [`RuleSet`] — one regex per rule, its allowlists, and one
//! Aho-Corasick automaton over every rule's keywords, the prefilter that
//! decides which lines a rule's regex runs on at all. A rule's regexes are
//! checked when the file is parsed but compiled on the rule's first use:
//! most texts wake few rules, and compiling all of them cost a warm task
//! build a fifth of its time. A shape with no
//! fixed literal (a Twilio key is `SK` and hex) is a `whole_text` rule: its
//! regex runs once over the whole text, on the regex engine's own literal
//! search.

use std::collections::HashSet;
use std::sync::{Arc, OnceLock};

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};
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
        source: Box<regex_syntax::Error>,
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
    #[serde(default)]
    keywords: Vec<String>,
    #[serde(default)]
    whole_text: bool,
    #[serde(default)]
    lines: usize,
    entropy: Option<f64>,
    #[serde(default)]
    decode: Decode,
    #[serde(default)]
    in_tests: InTests,
    #[serde(default)]
    in_prose: InProse,
    #[serde(default)]
    published_keys: bool,
    #[serde(default)]
    files: Vec<String>,
    #[serde(default)]
    allowlist: AllowSpec,
}

/// What a rule's finding in a project's test or documentation file is
/// (see `crate::core::secrets::fixtures`).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InTests {
    /// A secret, as anywhere else.
    #[default]
    Secret,
    /// A fixture or an example (a password hash a test checks against),
    /// not reported there.
    Fixture,
}

/// What a rule's finding on a line of documentation in code is (a
/// comment, a Python docstring; see `crate::core::secrets::prose`).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InProse {
    /// A secret, as anywhere else.
    #[default]
    Secret,
    /// Prose that looks like the rule's shape (`password: Tr0ub4dor&3 is
    /// hashed`), not reported there.
    Quiet,
}

/// How a rule reads its secret before its allowlist judges it.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Decode {
    /// As matched.
    #[default]
    None,
    /// Base64 of `user:password` (HTTP Basic, docker's `auth`): the
    /// password is judged; a value that is not such text is no credential.
    Basic,
    /// Base64 of a whole private key file: it counts when its first bytes
    /// decode to a private key's `BEGIN` line (a certificate's does not).
    Pem,
    /// Base64 of a text (a credential JSON: docker's `config.json`, a
    /// service account): it counts when the rules find a secret in the
    /// decoded text (`RuleSet::scan`, which handles this one itself).
    Scan,
    /// A Discord bot token: the part before the first dot is the base64
    /// of a 17 to 20 digit id, else it is no token.
    Snowflake,
    /// Hex digits of bytes judged as [`Decode::Scan`]'s are (round 21: a
    /// gzip, bzip2, zstd or zip in hex).
    Hex,
    /// Base64 of a zlib stream (round 21): inflated and scanned; its
    /// two-byte header is common in other data, so only a secret found
    /// counts, and a value that is no zlib stream is none.
    Zlib,
    /// Base64 or hex digits of a value decoded where it is assigned
    /// (`DB_PASSWORD = base64.b64decode('…')`, `bytes.fromhex('…')`, round
    /// 24): the decoded text is judged, when it is printable ASCII; hex
    /// when every character is a hex digit, base64 else.
    Value,
    /// A JSON array of 64 bytes (a Solana keypair): a key when it looks
    /// random, 50 of its values or more different (random bytes give 57
    /// on average; a table of numbers, zeros, far fewer).
    Keypair,
}

impl Decode {
    /// Whether the rule decodes its match and scans what it holds (such
    /// rules do not run on text decoded so: one level deep).
    pub fn scans(self) -> bool {
        matches!(self, Decode::Scan | Decode::Hex | Decode::Zlib)
    }
}

/// How much of a base64 private key [`Decode::Pem`] reads past where its
/// `BEGIN` line starts: the line is in the first 192 bytes from there.
const PEM_HEAD: usize = 256;

/// The base64 of `-----BEGIN` at each of its three alignments (what the
/// rule's regex finds), each from its first character that does not
/// depend on the bytes before it.
const BEGIN_BASE64: [&str; 3] = ["LS0tLS1CRUdJTi", "0tLS0tQkVHSU4", "tLS0tLUJFR0lO"];

/// The labels of private keys' `BEGIN` lines.
const PRIVATE_LABELS: [&str; 8] = [
    "PRIVATE KEY",
    "RSA PRIVATE KEY",
    "EC PRIVATE KEY",
    "DSA PRIVATE KEY",
    "OPENSSH PRIVATE KEY",
    "ENCRYPTED PRIVATE KEY",
    "ANY PRIVATE KEY",
    "PGP PRIVATE KEY BLOCK",
];

/// Whether `text` (decoded base64) holds a private key's `BEGIN` line: its
/// label names a private key, or the text ends inside a label that could
/// still become one (a wrapped line cut there).
fn private_key_begin(text: &str) -> bool {
    text.match_indices("-----BEGIN ").any(|(i, m)| {
        let rest = &text[i + m.len()..];
        let label = rest.split(['\n', '\r']).next().unwrap_or_default();
        let label = label.split("-----").next().unwrap_or_default();
        if label.contains("PRIVATE KEY") {
            return true;
        }
        // Two letters at least: `P` alone also begins `PUBLIC KEY`.
        let cut = label.len() == rest.len() && label.len() >= 2;
        cut && PRIVATE_LABELS.iter().any(|l| l.starts_with(label))
    })
}

impl Decode {
    /// The text the allowlist judges, or `None` when `secret` is not a
    /// credential of this shape at all.
    pub fn apply(self, secret: &str) -> Option<std::borrow::Cow<'_, str>> {
        match self {
            Decode::None => Some(secret.into()),
            Decode::Basic => {
                let text = String::from_utf8(super::key_body::decode(secret)).ok()?;
                let (_, password) = text.split_once(':')?;
                Some(password.to_string().into())
            }
            Decode::Pem => {
                // Decoded from the start (the run's first character opens a
                // group of four) to a little past the first `BEGIN`.
                let begin = BEGIN_BASE64
                    .iter()
                    .filter_map(|b| secret.find(b))
                    .min()
                    .unwrap_or(0);
                let end = (begin + PEM_HEAD).min(secret.len());
                let head = secret.get(..end - end % 4).unwrap_or(secret);
                let bytes = super::key_body::decode(head);
                let text = String::from_utf8_lossy(&bytes);
                let key = private_key_begin(&text)
                    || (text.contains("PuTTY-User-Key-File") && text.contains("Private"));
                key.then_some(secret.into())
            }
            // Judged by a scan of the decoded text (`RuleSet::reports`).
            Decode::Scan | Decode::Hex | Decode::Zlib => Some(secret.into()),
            Decode::Value => {
                let hex =
                    secret.len().is_multiple_of(2) && secret.bytes().all(|b| b.is_ascii_hexdigit());
                let bytes = if hex {
                    super::unhex(secret)
                } else {
                    super::key_body::decode(secret)
                };
                let text = String::from_utf8(bytes).ok()?;
                let printable = text.len() >= 6 && text.bytes().all(|b| b.is_ascii_graphic());
                printable.then_some(text.into())
            }
            Decode::Keypair => {
                let values: HashSet<&str> = secret
                    .trim_matches(['[', ']'])
                    .split(',')
                    .map(str::trim)
                    .collect();
                (values.len() >= 50).then_some(secret.into())
            }
            Decode::Snowflake => {
                let id = super::key_body::decode(secret.split('.').next()?);
                let digits = (17..=20).contains(&id.len()) && id.iter().all(u8::is_ascii_digit);
                digits.then_some(secret.into())
            }
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AllowSpec {
    #[serde(default)]
    regexes: Vec<String>,
    #[serde(default)]
    stopwords: Vec<String>,
    #[serde(default)]
    line_regexes: Vec<String>,
    #[serde(default)]
    names: Vec<String>,
    #[serde(default)]
    placeholders: Vec<String>,
    #[serde(default)]
    min_random: usize,
    #[serde(default)]
    counting_up: bool,
}

/// What makes a match not a secret.
#[derive(Debug, Default)]
pub struct Allowlist {
    regexes: Vec<Regex>,
    stopwords: Vec<String>,
    line_regexes: Vec<Regex>,
    /// Against the rule's `name` group: `password_template` names a file.
    names: Vec<Regex>,
    placeholders: Vec<String>,
    min_random: usize,
    /// A value that [counts up](counts_up) is a made-up one.
    counting_up: bool,
}

impl AllowSpec {
    /// Every regex of the list checked, or the first bad one named.
    fn check(&self, id: &str) -> Result<(), RulesError> {
        [&self.regexes, &self.line_regexes, &self.names]
            .into_iter()
            .flatten()
            .try_for_each(|r| check(id, r))
    }
}

impl Allowlist {
    /// The list of a [checked](AllowSpec::check) spec.
    fn compile(spec: &AllowSpec) -> Self {
        let compile_all = |list: &[String]| list.iter().map(|r| compile_checked(r)).collect();
        Allowlist {
            regexes: compile_all(&spec.regexes),
            stopwords: lower_all(&spec.stopwords),
            line_regexes: compile_all(&spec.line_regexes),
            names: compile_all(&spec.names),
            placeholders: lower_all(&spec.placeholders),
            min_random: spec.min_random,
            counting_up: spec.counting_up,
        }
    }

    /// `true` when `secret` (assigned to `name`, found on `line`) is
    /// allowed, i.e. not reported.
    pub fn allows(&self, secret: &str, name: Option<&str>, line: &str) -> bool {
        if self.regexes.iter().any(|r| r.is_match(secret))
            || self.line_regexes.iter().any(|r| r.is_match(line))
            || name.is_some_and(|n| self.names.iter().any(|r| r.is_match(n)))
        {
            return true;
        }
        if self.counting_up && counts_up(&secret.to_ascii_lowercase()) {
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

/// Whether `lower` counts up, as documentation's made-up values do
/// (`ab1c2defghijklmno3…`, `a1b2c3d4`, `abcd1234defg5678`): its letters,
/// and apart from them its digits, step to the next one (`z` to `a`, `9`
/// to `0`) at least 85 times in 100, and it holds nothing but letters,
/// digits, `-` and `_`. A random value steps up once in ten at most; a
/// password built on a run (`Acme123456!`, `Rc56789efgh`, `Tr7#abcdefg`)
/// falls short of one of the two.
fn counts_up(lower: &str) -> bool {
    let (mut steps, mut up) = (0usize, 0usize);
    let (mut letter, mut digit): (Option<u8>, Option<u8>) = (None, None);
    for b in lower.bytes() {
        let (last, first, final_) = match b {
            b'a'..=b'z' => (&mut letter, b'a', b'z'),
            b'0'..=b'9' => (&mut digit, b'0', b'9'),
            b'-' | b'_' => continue,
            _ => return false,
        };
        if let Some(p) = *last {
            steps += 1;
            let next = if p == final_ { first } else { p + 1 };
            up += usize::from(next == b);
        }
        *last = Some(b);
    }
    steps >= 6 && up * 100 >= steps * 85
}

/// How many letters and digits of `lower` are left once every placeholder
/// word is cut out, read as written and read back from leetspeak
/// (`superS3cret` is the placeholder `secret` with a 3 for its e). A
/// symbol read back as a letter still counts: `p@ssw0rd` is
/// documentation's placeholder, `pa$$w0rd2024` a password built on it.
fn random_rest(lower: &str, placeholders: &[String]) -> usize {
    let cut = |text: String| {
        let mut rest = text;
        for word in placeholders {
            if rest.contains(word.as_str()) {
                rest = rest.replace(word.as_str(), " ");
            }
        }
        rest.chars().filter(char::is_ascii_alphanumeric).count()
    };
    let plain = cut(lower.to_string());
    let unleet: String = lower
        .chars()
        .map(|c| match c {
            '0' => 'o',
            '1' => 'i',
            '3' => 'e',
            '4' | '@' => 'a',
            '5' | '$' => 's',
            '7' => 't',
            c => c,
        })
        .collect();
    if unleet == lower {
        return plain;
    }
    let symbols = lower.bytes().filter(|b| matches!(b, b'@' | b'$')).count();
    plain.min(cut(unleet) + symbols)
}

/// Whether `path` ends with one of `endings` (lowercase), whatever its
/// case.
fn ends_with_any(path: &str, endings: &[String]) -> bool {
    let tail = path.len().saturating_sub(32);
    let lower = path.get(tail..).unwrap_or(path).to_ascii_lowercase();
    endings.iter().any(|e| lower.ends_with(e.as_str()))
}

fn lower_all(list: &[String]) -> Vec<String> {
    list.iter().map(|w| w.to_ascii_lowercase()).collect()
}

/// `pattern` read as the `regex` crate reads it (the syntax alone: a
/// fraction of what compiling it costs), or the error naming rule `id`.
fn check(id: &str, pattern: &str) -> Result<(), RulesError> {
    match regex_syntax::Parser::new().parse(pattern) {
        Ok(_) => Ok(()),
        Err(e) => Err(RulesError::Regex {
            id: id.to_string(),
            source: Box::new(e),
        }),
    }
}

/// A token's pattern that starts at a word boundary starts as well right
/// after an escape glued to the token: `\n`, `\t` or `\r` in a JSON or
/// source string (`"…\nghp_…"`) and a URL's percent-encoding
/// (`?t%3Dghp_…`, `Bearer%20ghp_…`), where no boundary is because the
/// escape ends in a letter or a digit. Logs, HAR files and fixtures hold
/// tokens so.
fn glued(pattern: String) -> String {
    const START: &str = r"(?-u:\b)(?P<secret>";
    match pattern.strip_prefix(START) {
        Some(rest) => format!(r"(?:(?-u:\b)|\\[nrt]|%[0-9A-Fa-f]{{2}})(?P<secret>{rest}"),
        None => pattern,
    }
}

/// A [checked](check) pattern compiled. One the engine still refuses (past
/// its size limit: no built-in rule is, a test compiles every one) matches
/// nothing rather than stopping a scan halfway.
fn compile_checked(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|_| Regex::new(r"[^\s\S]").expect("an empty class"))
}

/// One rule, its regexes compiled on first use ([`Rule::compiled`]).
#[derive(Debug)]
pub struct Rule {
    pub id: Arc<str>,
    /// The short human name shown in findings.
    pub description: Arc<str>,
    /// Lines after the keyword's line the match may reach into.
    pub lines: usize,
    pub entropy: Option<f64>,
    pub decode: Decode,
    /// What a finding in a test or a document is.
    pub in_tests: InTests,
    /// What a finding in a comment or docstring of code is.
    pub in_prose: InProse,
    /// A key body an RFC publishes as its example is no secret
    /// (`super::pem_examples`).
    pub published_keys: bool,
    /// Run over the whole text rather than on keyword lines.
    pub whole_text: bool,
    /// The endings of the file names the rule runs on (`.ini`), lowercase;
    /// empty: every text. A rule with some runs on no other text (not the
    /// discussion, not the output around the files).
    pub files: Vec<String>,
    pattern: String,
    allow: AllowSpec,
    compiled: OnceLock<Compiled>,
    /// The rule's [sieve](super::sieve), compiled when a line first wakes
    /// the rule; `None` when the rule has no long range to open.
    sieve: OnceLock<Option<Regex>>,
    /// How many characters every secret of the rule begins with that the
    /// rule fixes (`ghp_`), found on first use ([`super::head`]).
    head: OnceLock<usize>,
}

/// What a rule matches with, built the first time a text wakes it.
#[derive(Debug)]
pub struct Compiled {
    pub regex: Regex,
    pub allowlist: Allowlist,
    /// The capture groups named `secret…` (`secret`, `secret2`, …): the
    /// first that took part in a match is the secret. Several let one
    /// regex close a value with the quote that opened it.
    pub secret_groups: Vec<usize>,
    /// The capture groups named `name…`, as `secret_groups`.
    pub name_groups: Vec<usize>,
}

impl Rule {
    /// Whether the rule runs on the text of the file at `path` (`None`: a
    /// text that is no file's).
    pub fn runs_on(&self, path: Option<&str>) -> bool {
        self.files.is_empty() || path.is_some_and(|p| ends_with_any(p, &self.files))
    }

    /// The pattern as the rule file gives it.
    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    /// `false` when the rule cannot match `text`: asked of its
    /// [sieve](super::sieve) while the rule itself is not compiled, so a
    /// text it cannot match never compiles it.
    pub fn may_match(&self, text: &str) -> bool {
        if self.compiled.get().is_some() {
            return true;
        }
        let sieve = self
            .sieve
            .get_or_init(|| super::sieve::widened(&self.pattern).and_then(|p| Regex::new(&p).ok()));
        sieve.as_ref().is_none_or(|s| s.is_match(text))
    }

    /// How many characters every secret of this rule begins with that the
    /// rule fixes (`ghp_`, a webhook's host), at most.
    pub fn fixed_head(&self) -> usize {
        *self
            .head
            .get_or_init(|| super::head::fixed_head(&self.pattern))
    }

    /// `true` once the rule's regexes are built.
    pub fn is_compiled(&self) -> bool {
        self.compiled.get().is_some()
    }

    /// The rule's regex and allowlist, compiled once (scans on several
    /// threads share it).
    pub fn compiled(&self) -> &Compiled {
        self.compiled.get_or_init(|| {
            let regex = compile_checked(&self.pattern);
            let groups = |prefix: &str| -> Vec<usize> {
                regex
                    .capture_names()
                    .enumerate()
                    .filter(|(_, n)| n.is_some_and(|n| n.starts_with(prefix)))
                    .map(|(i, _)| i)
                    .collect()
            };
            Compiled {
                secret_groups: groups("secret"),
                name_groups: groups("name"),
                allowlist: Allowlist::compile(&self.allow),
                regex,
            }
        })
    }
}

/// Every rule, the global allowlist and the keyword prefilter.
#[derive(Debug)]
pub struct RuleSet {
    pub rules: Vec<Rule>,
    global_spec: AllowSpec,
    global: OnceLock<Allowlist>,
    /// Over every rule's keywords, ASCII case-insensitive.
    pub keywords: AhoCorasick,
    /// Keyword pattern index → the rules it enables.
    pub keyword_rules: Vec<Vec<usize>>,
    /// The `whole_text` rules.
    pub whole_text_rules: Vec<usize>,
    /// The id and the description of a finding of
    /// [`super::key_body`] (a key body without its `BEGIN` line).
    pub key_body: (Arc<str>, Arc<str>),
    /// The same of a finding of [`super::jwk`] (a JSON Web Key's private
    /// member).
    pub jwk: (Arc<str>, Arc<str>),
    /// The same of an encoded value that decodes to more than the scanner
    /// reads (a gzip stream past its bound): it could not be checked whole.
    pub unchecked: (Arc<str>, Arc<str>),
    /// The same of a byte-array literal that opens as an archive or a
    /// compressed stream the scanner could not read whole
    /// ([`super::byte_array`]): a fixture in a project's tests, whose
    /// archive libraries ship broken and encrypted archives to test with
    /// (CPython's `test_zipfile`, `test_bz2`).
    pub unchecked_bytes: (Arc<str>, Arc<str>),
    /// SHA-256 of the rule file these rules were parsed from: what a
    /// remembered scan result was found under.
    pub fingerprint: [u8; 32],
}

impl RuleSet {
    /// The allowlist every rule's findings pass, compiled on first use.
    pub fn global(&self) -> &Allowlist {
        self.global
            .get_or_init(|| Allowlist::compile(&self.global_spec))
    }

    /// Whether a finding of rule `id` in a project's test or document is
    /// a fixture there ([`InTests::Fixture`]).
    pub fn fixture_in_tests(&self, id: &str) -> bool {
        *self.unchecked_bytes.0 == *id
            || self
                .rules
                .iter()
                .any(|r| &*r.id == id && r.in_tests == InTests::Fixture)
    }

    /// Whether a finding of rule `id` on a line of documentation in code
    /// is prose there ([`InProse::Quiet`]).
    pub fn quiet_in_prose(&self, id: &str) -> bool {
        self.rules
            .iter()
            .any(|r| &*r.id == id && r.in_prose == InProse::Quiet)
    }

    /// The ids of the rules that run only on some kinds of file and run on
    /// the file at `path`, joined: what a scan of its text finds besides
    /// a scan of the same text elsewhere (empty for most files).
    pub fn file_kind(&self, path: &str) -> String {
        self.rules
            .iter()
            .filter(|r| !r.files.is_empty() && r.runs_on(Some(path)))
            .map(|r| &*r.id)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// How many lines past its first one a rule's match may reach.
    pub fn reach(&self) -> usize {
        self.rules.iter().map(|r| r.lines).max().unwrap_or(0)
    }

    /// Parse and compile a rule file.
    pub fn parse(text: &str) -> Result<Self, RulesError> {
        let file: RulesFile = toml::from_str(text)?;
        file.allowlist.check("(global)")?;
        let mut rules = Vec::with_capacity(file.rules.len());
        let mut words: Vec<String> = Vec::new();
        let mut keyword_rules: Vec<Vec<usize>> = Vec::new();
        let mut whole_text_rules = Vec::new();
        for (index, spec) in file.rules.into_iter().enumerate() {
            let invalid = |problem: &str| RulesError::Invalid {
                id: spec.id.clone(),
                problem: problem.to_string(),
            };
            if spec.keywords.is_empty() && !spec.whole_text {
                return Err(invalid(
                    "needs at least one keyword (the prefilter) or `whole_text = true`",
                ));
            }
            if spec.whole_text {
                if !spec.keywords.is_empty() || spec.lines > 0 {
                    return Err(invalid(
                        "a `whole_text` rule has no keywords and no `lines`",
                    ));
                }
                whole_text_rules.push(index);
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
            if spec
                .files
                .iter()
                .any(|f| f.is_empty() || f.to_ascii_lowercase() != *f)
            {
                return Err(invalid("file endings are non-empty and lowercase"));
            }
            check(&spec.id, &spec.regex)?;
            spec.allowlist.check(&spec.id)?;
            rules.push(Rule {
                id: spec.id.into(),
                description: spec.description.into(),
                lines: spec.lines,
                entropy: spec.entropy,
                decode: spec.decode,
                in_tests: spec.in_tests,
                in_prose: spec.in_prose,
                published_keys: spec.published_keys,
                whole_text: spec.whole_text,
                files: spec.files,
                pattern: glued(spec.regex),
                allow: spec.allowlist,
                compiled: OnceLock::new(),
                sieve: OnceLock::new(),
                head: OnceLock::new(),
            });
        }
        // A DFA whatever the count: aho-corasick picks one on its own only
        // up to 100 patterns, and past that its NFA made the search three
        // times as slow (0.05 s to 0.15 s on the standard library). The
        // keywords are short, so the DFA stays small (see the test).
        let keywords = AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .kind(Some(AhoCorasickKind::DFA))
            .build(&words)?;
        Ok(RuleSet {
            rules,
            global_spec: file.allowlist,
            global: OnceLock::new(),
            keywords,
            keyword_rules,
            whole_text_rules,
            key_body: ("private-key-body".into(), "private key".into()),
            jwk: ("jwk-private-key".into(), "private key (JWK)".into()),
            unchecked: (
                "unchecked-encoded".into(),
                "encoded data that could not be fully checked".into(),
            ),
            unchecked_bytes: (
                "unchecked-byte-array".into(),
                "encoded data that could not be fully checked".into(),
            ),
            fingerprint: <sha2::Sha256 as sha2::Digest>::digest(text.as_bytes()).into(),
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
            let compiled = rule.compiled();
            assert!(
                Regex::new(&rule.pattern).is_ok(),
                "rule {} does not compile",
                rule.id
            );
            assert!(
                !compiled.secret_groups.is_empty(),
                "rule {} names no `secret` group",
                rule.id
            );
        }
    }

    /// A rule with `files` runs on those files' texts alone; an ending
    /// that is not lowercase is refused.
    #[test]
    fn rules_for_some_files_run_on_those_alone() {
        let set = RuleSet::parse(DEFAULT_RULES).expect("valid rules");
        assert!(set.file_kind("conf/App.INI").contains("ini-indented-value"));
        assert!(set.file_kind("src/Makefile").contains("make-target-value"));
        assert_eq!(set.file_kind("src/app.py"), "");
        let text = "[db]\n  password = Tq8-Lw3-Zx5-Rb\n";
        assert!(set.scan(text).is_empty());
        assert!(set.scan_file(text, "app.py").is_empty());
        assert_eq!(set.scan_file(text, "app.ini").len(), 1);
        let bad = "[[rules]]\nid = \"x\"\ndescription = \"x\"\nregex = \"x\"\nkeywords = [\"x\"]\nfiles = [\".INI\"]\n";
        assert!(RuleSet::parse(bad).is_err());
        assert!(RuleSet::parse(&bad.replace(".INI", ".ini")).is_ok());
    }

    /// Lines that wake the generic rules by their keywords but hold no
    /// value they could match leave them uncompiled (their sieves say no);
    /// a planted password still compiles its rule and is found.
    #[test]
    fn a_line_a_rule_cannot_match_leaves_it_uncompiled() {
        let set = RuleSet::parse(DEFAULT_RULES).expect("valid rules");
        let ordinary = "password = os.environ['PASSWORD']\n\
                        token = tokens[i + 1]\n\
                        def check_password(self, secret_key: str) -> bool:\n\
                        mysql -u root -p\n";
        assert!(set.scan(ordinary).is_empty());
        let rule = |id: &str| set.rules.iter().find(|r| &*r.id == id).expect("a rule");
        for id in [
            "secret-assignment",
            "secret-structured-value",
            "cli-password",
            "cli-password-option",
            "dsl-password",
        ] {
            assert!(!rule(id).is_compiled(), "{id} compiled for nothing");
        }
        let hits = set.scan("db_password = \"hU8kq2LmZ9xWv4\"\n");
        assert_eq!(hits.len(), 1, "{hits:?}");
        assert!(rule(&hits[0].rule).is_compiled());
    }

    /// aho-corasick builds a DFA on its own only up to 100 patterns; at
    /// 101 its NFA made the scan of the standard library three times as
    /// slow (0.05 s to 0.15 s for the automaton alone). The keywords are
    /// searched with a DFA whatever their count, and it stays small.
    #[test]
    fn the_keywords_are_searched_with_a_small_dfa() {
        let set = RuleSet::parse(DEFAULT_RULES).expect("valid rules");
        assert!(set.keywords.patterns_len() > 100);
        assert_eq!(set.keywords.kind(), AhoCorasickKind::DFA);
        let bytes = set.keywords.memory_usage();
        assert!(bytes < 2 << 20, "the keyword DFA takes {bytes} bytes");
    }

    /// A pattern whose syntax is fine but that the engine refuses (past its
    /// size limit) matches nothing once a text wakes its rule.
    #[test]
    fn a_pattern_past_the_size_limit_matches_nothing() {
        let huge = "(?:a{1000}){1000}";
        assert!(check("huge", huge).is_ok());
        assert!(Regex::new(huge).is_err());
        let regex = compile_checked(huge);
        assert!(!regex.is_match(&"a".repeat(2000)));
        assert!(!regex.is_match(""));
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
    fn basic_credentials_are_judged_by_their_password() {
        // `user:pass`, `deploy:Xq9!vR2#mKz7`, and a word that is no base64
        // of a `user:password` pair.
        assert_eq!(Decode::Basic.apply("dXNlcjpwYXNz").as_deref(), Some("pass"));
        assert_eq!(
            Decode::Basic
                .apply("ZGVwbG95OlhxOSF2UjIjbUt6Nw==")
                .as_deref(),
            Some("Xq9!vR2#mKz7")
        );
        assert_eq!(Decode::Basic.apply("Authentication"), None);
        assert_eq!(Decode::None.apply("x").as_deref(), Some("x"));
        // A value in base64 or hex digits reads as its printable text.
        assert_eq!(
            Decode::Value.apply("Q3ZGUkNIUVZnR0FIbjdpbg==").as_deref(),
            Some("CvFRCHQVgGAHn7in")
        );
        assert_eq!(
            Decode::Value.apply("4376465243485156").as_deref(),
            Some("CvFRCHQV")
        );
        assert_eq!(Decode::Value.apply("AAECAwQFBgcICQ==").as_deref(), None);
    }

    #[test]
    fn placeholders_leave_little_randomness() {
        let words: Vec<String> = ["test", "password"].map(String::from).to_vec();
        assert_eq!(random_rest("testpassword123", &words), 3);
        assert_eq!(random_rest("test-xq9!vr2#mk", &words), 8);
        // Leetspeak placeholders are placeholders.
        let words: Vec<String> = ["secret", "super"].map(String::from).to_vec();
        assert_eq!(random_rest("supers3cret", &words), 0);
        assert_eq!(random_rest("zq8lm3xv9kp2rt7w", &words), 16);
        // A symbol read back as a letter counts as one of the password's.
        let words: Vec<String> = ["password"].map(String::from).to_vec();
        assert_eq!(random_rest("p@ssw0rd", &words), 1);
        assert_eq!(random_rest("pa$$w0rd2024", &words), 6);
    }

    #[test]
    fn made_up_values_count_up() {
        for value in [
            "ab1c2defghijklmno3pqqrstuvwxyzabcdefghh4ijklmn5opqrstuvwxyzabcdefghij",
            "abcd1234defg5678",
            "a1b2c3d4567890ab",
            "a1b2c3d4",
            "a123b45c6d78e9f012a34cd5e6a7890b12c3d45e6f78a1b234c56d7e890a1234",
        ] {
            assert!(counts_up(value), "{value}");
        }
        for value in [
            "zq8lm3xv9kp2rt7w",
            "3f4ca100e2fc675ea123f4eb12c4a012",
            "abc",
            "xk9vq2mlr7tzwq4n",
            // Passwords built on a run (recheck of round twelve).
            "acme123456!",
            "rc56789efgh",
            "tr7#abcdefg",
            "k9pq2xvl0123456789abcdefxyz",
        ] {
            assert!(!counts_up(value), "{value}");
        }
    }
}
