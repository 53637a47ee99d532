//! The words a task and a file are compared by: text split into words,
//! identifiers split at `snake_case` and `camelCase` (the whole identifier
//! kept beside its parts, so an exact name weighs more), lowercased and
//! lightly stemmed, English and commit-message filler dropped. The task
//! and every file go through the same function, so they always agree.

/// Words too common in prose and commit messages (`fix`, `add`, `support`)
/// to say what a change is about, sorted for the search. Code words
/// (`match`, `data`, `file`) are not here: their rarity in the project
/// decides what they weigh.
const STOPWORDS: &[&str] = &[
    "a",
    "able",
    "about",
    "add",
    "added",
    "adding",
    "after",
    "all",
    "allow",
    "allows",
    "already",
    "also",
    "always",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "authored",
    "be",
    "because",
    "been",
    "before",
    "being",
    "better",
    "bump",
    "but",
    "by",
    "can",
    "case",
    "cases",
    "change",
    "changed",
    "changing",
    "chore",
    "close",
    "closes",
    "co",
    "com",
    "correct",
    "correctly",
    "could",
    "did",
    "do",
    "doc",
    "docs",
    "does",
    "doing",
    "don",
    "each",
    "eg",
    "ensure",
    "ensures",
    "etc",
    "feat",
    "fix",
    "fixe",
    "fixed",
    "fixing",
    "for",
    "from",
    "get",
    "gets",
    "github",
    "gitlab",
    "got",
    "had",
    "handle",
    "handles",
    "handling",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "his",
    "how",
    "http",
    "https",
    "i",
    "ie",
    "if",
    "improve",
    "improved",
    "in",
    "instead",
    "into",
    "is",
    "issue",
    "it",
    "its",
    "just",
    "let",
    "lets",
    "like",
    "made",
    "make",
    "makes",
    "me",
    "merge",
    "more",
    "most",
    "my",
    "never",
    "new",
    "no",
    "nor",
    "not",
    "note",
    "now",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "org",
    "other",
    "our",
    "out",
    "over",
    "own",
    "pr",
    "properly",
    "pull",
    "ref",
    "refactor",
    "refs",
    "remove",
    "removed",
    "removing",
    "request",
    "resolve",
    "resolved",
    "resolves",
    "reviewed",
    "same",
    "see",
    "set",
    "she",
    "should",
    "signed",
    "so",
    "some",
    "still",
    "such",
    "support",
    "supports",
    "sure",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "tried",
    "try",
    "under",
    "until",
    "up",
    "update",
    "updated",
    "updating",
    "use",
    "used",
    "uses",
    "using",
    "very",
    "via",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "wip",
    "with",
    "within",
    "without",
    "work",
    "working",
    "works",
    "would",
    "www",
    "yet",
    "you",
    "your",
];

/// Whether `word` (lowercased) carries no meaning for a search.
pub fn is_stopword(word: &str) -> bool {
    // Looked up for every distinct word of every file a task ranks: one
    // hash, not a binary search of string compares.
    static SET: std::sync::OnceLock<rustc_hash::FxHashSet<&'static str>> =
        std::sync::OnceLock::new();
    word.len() <= STOPWORD_MAX_LEN
        && SET
            .get_or_init(|| STOPWORDS.iter().copied().collect())
            .contains(word)
}

/// The longest stopword's length: a longer word is none.
const STOPWORD_MAX_LEN: usize = 9;

/// Calls `each` with every term of `text`, in order: each word's parts
/// (`parseHTTPRequest` → `parse`, `http`, `request`) and, when it has
/// several, the whole word (`parsehttprequest`).
pub fn for_each_term(text: &str, mut each: impl FnMut(&str)) {
    for_each_written(text, |term, _| each(term));
}

/// [`for_each_term`] with each term's word as written (lowercased, not
/// stemmed), for reasons a person reads.
pub fn for_each_written(text: &str, mut each: impl FnMut(&str, &str)) {
    let mut part = String::new();
    let mut whole = String::new();
    for word in words(text) {
        let pieces = split_identifier(word);
        let several = pieces.len() > 1;
        whole.clear();
        for piece in pieces {
            part.clear();
            part.extend(piece.chars().map(|c| c.to_ascii_lowercase()));
            if several {
                whole.push_str(&part);
            }
            emit(&part, &mut each);
        }
        if several && whole.len() > 3 {
            emit(&whole, &mut each);
        }
    }
}

/// The terms of `text`, in order (see [`for_each_term`]).
pub fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_term(text, |t| out.push(t.to_string()));
    out
}

/// A term, stemmed, unless it is too short, a number or a stopword.
fn emit(word: &str, each: &mut impl FnMut(&str, &str)) {
    if word.len() < 2 || word.len() > 64 || word.bytes().all(|b| b.is_ascii_digit()) {
        return;
    }
    if is_stopword(word) {
        return;
    }
    each(stem(word), word);
}

/// The words of `text`: runs of ASCII letters, digits and `_` (other
/// characters separate; non-ASCII text carries no code names).
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// `snake_case` and `camelCase` parts of a word: `HTTPServer` → `HTTP`,
/// `Server`; `parse_url2` → `parse`, `url2`; digits stay with what they
/// follow.
pub fn split_identifier(word: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for chunk in word.split('_').filter(|c| !c.is_empty()) {
        let b = chunk.as_bytes();
        let mut start = 0;
        for i in 1..b.len() {
            let (prev, cur) = (b[i - 1], b[i]);
            let next_lower = b.get(i + 1).is_some_and(|c| c.is_ascii_lowercase());
            let boundary = (prev.is_ascii_lowercase() && cur.is_ascii_uppercase())
                || (prev.is_ascii_digit() && cur.is_ascii_alphabetic() && cur.is_ascii_uppercase())
                || (prev.is_ascii_uppercase() && cur.is_ascii_uppercase() && next_lower);
            if boundary {
                out.push(&chunk[start..i]);
                start = i;
            }
        }
        out.push(&chunk[start..]);
    }
    out
}

/// A light stemmer (a reduced Porter step 1): plurals, the common verb
/// endings and a last `e` or `y`, so `params`, `param`; `matching`,
/// `match`; `named`, `name`; `queries`, `query` meet. Every stem is a
/// prefix of its word; short words stay whole.
pub fn stem(word: &str) -> &str {
    let n = word.len();
    if n <= 3 {
        return word;
    }
    let base = if let Some(b) = word.strip_suffix("ies").filter(|b| b.len() >= 2) {
        b
    } else if word.ends_with("sses") {
        &word[..n - 2]
    } else if let Some(b) = word.strip_suffix("ing").filter(|b| b.len() >= 3) {
        undouble(b)
    } else if let Some(b) = word.strip_suffix("ed").filter(|b| b.len() >= 3) {
        undouble(b)
    } else if let Some(b) = word
        .strip_suffix("es")
        .filter(|b| ["sh", "ch", "x", "z", "ss"].iter().any(|e| b.ends_with(e)))
    {
        b
    } else if word.ends_with('s') && !["ss", "us", "is"].iter().any(|e| word.ends_with(e)) {
        &word[..n - 1]
    } else {
        word
    };
    match base.strip_suffix(['e', 'y']) {
        Some(b) if b.len() >= 3 => b,
        _ => base,
    }
}

/// `mapp` → `map`, `runn` → `run` (not `call`, `pass`, `buzz`).
fn undouble(base: &str) -> &str {
    let b = base.as_bytes();
    match b {
        [.., x, y] if x == y && !b"aeioulsz".contains(y) => &base[..base.len() - 1],
        _ => base,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_stopword_is_longer_than_the_bound() {
        assert!(STOPWORDS.iter().all(|w| w.len() <= STOPWORD_MAX_LEN));
        assert_eq!(
            STOPWORDS.iter().map(|w| w.len()).max(),
            Some(STOPWORD_MAX_LEN)
        );
        assert!(is_stopword("about") && !is_stopword("wildcard"));
    }

    #[test]
    fn stopwords_are_sorted_for_the_search() {
        let mut sorted = STOPWORDS.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted, STOPWORDS, "keep STOPWORDS sorted and unique");
    }

    #[test]
    fn identifiers_split_at_case_and_underscores() {
        assert_eq!(
            split_identifier("parseHTTPRequest"),
            ["parse", "HTTP", "Request"]
        );
        assert_eq!(split_identifier("docker_context"), ["docker", "context"]);
        assert_eq!(split_identifier("__init__"), ["init"]);
        assert_eq!(split_identifier("URLPattern2D"), ["URL", "Pattern2", "D"]);
        assert_eq!(split_identifier("x"), ["x"]);
    }

    #[test]
    fn a_task_becomes_stemmed_terms_without_filler() {
        assert_eq!(
            terms("fix: wrong when wildcard follows named params in the `tree.go` router"),
            [
                "wrong", "wildcard", "follow", "nam", "param", "tre", "go", "router"
            ]
        );
        assert_eq!(
            terms("fix(docker_context): handle DockerContext"),
            [
                "docker",
                "context",
                "dockercontext",
                "docker",
                "context",
                "dockercontext"
            ]
        );
    }

    #[test]
    fn stems_meet_across_endings() {
        for (a, b) in [
            ("params", "param"),
            ("matching", "match"),
            ("types", "type"),
            ("matches", "match"),
            ("queries", "query"),
            ("classes", "class"),
            ("named", "name"),
            ("parsed", "parse"),
            ("mapped", "map"),
            ("copies", "copy"),
        ] {
            assert_eq!(stem(a), stem(b), "{a} / {b}");
        }
        assert_eq!(stem("status"), "status");
        assert_eq!(stem("bus"), "bus");
    }
}
