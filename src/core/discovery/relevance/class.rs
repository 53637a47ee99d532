//! What kind of file a path names — source, test, benchmark, example,
//! fixture, generated, vendored, documentation or data — by the
//! conventions of the languages we read (`tests/`, `test_x.py`,
//! `x_test.go`, `x.spec.ts`, `XTest.java`, `benches/`, `examples/`,
//! `testdata/`, `_pb2.py`, `vendor/`, `docs/`). The task's ranking puts
//! everything but source below source unless the task speaks of that kind.

use crate::core::syntax::{Lang, is_code_path};

/// The kind of a project file, for ranking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileClass {
    Source,
    Test,
    Bench,
    Example,
    Fixture,
    Generated,
    Vendored,
    Doc,
    /// Configuration and data (`json`, `yaml`, `toml`, …): text, not code.
    Data,
}

impl FileClass {
    /// How a path's kind is named in a reason ("a test file").
    pub fn noun(self) -> &'static str {
        match self {
            FileClass::Source => "source file",
            FileClass::Test => "test file",
            FileClass::Bench => "benchmark",
            FileClass::Example => "example",
            FileClass::Fixture => "fixture",
            FileClass::Generated => "generated file",
            FileClass::Vendored => "vendored file",
            FileClass::Doc => "documentation file",
            FileClass::Data => "data or configuration file",
        }
    }

    /// The share of its lexical score a file of this kind keeps when the
    /// task does not speak of the kind.
    pub fn weight(self) -> f64 {
        match self {
            FileClass::Source => 1.0,
            FileClass::Test | FileClass::Bench | FileClass::Example => 0.3,
            FileClass::Doc | FileClass::Data => 0.3,
            FileClass::Fixture | FileClass::Vendored => 0.2,
            FileClass::Generated => 0.1,
        }
    }

    /// The stemmed task words that speak of this kind: a task about tests
    /// ranks test files as source.
    pub fn words(self) -> &'static [&'static str] {
        match self {
            FileClass::Source => &[],
            FileClass::Test => &["test", "unittest", "pytest", "spec", "testcase"],
            FileClass::Bench => &["bench", "benchmark", "perf"],
            FileClass::Example => &["exampl", "demo", "sampl", "tutorial"],
            FileClass::Fixture => &["fixtur", "testdata", "snapshot"],
            FileClass::Generated => &["generat", "codegen", "protobuf", "proto"],
            FileClass::Vendored => &["vendor", "third", "vendored"],
            FileClass::Doc => &[
                "readm",
                "documentation",
                "changelog",
                "docstring",
                "md",
                "rst",
            ],
            FileClass::Data => &[
                "config", "json", "yaml", "yml", "toml", "setting", "manifest", "packag", "schema",
            ],
        }
    }
}

/// Folder names that make everything below them a kind.
const FOLDERS: &[(&str, FileClass)] = &[
    ("test", FileClass::Test),
    ("tests", FileClass::Test),
    ("__tests__", FileClass::Test),
    ("testing", FileClass::Test),
    ("spec", FileClass::Test),
    ("specs", FileClass::Test),
    ("t", FileClass::Test),
    ("e2e", FileClass::Test),
    ("integration_tests", FileClass::Test),
    ("bench", FileClass::Bench),
    ("benches", FileClass::Bench),
    ("benchmark", FileClass::Bench),
    ("benchmarks", FileClass::Bench),
    ("examples", FileClass::Example),
    ("example", FileClass::Example),
    ("samples", FileClass::Example),
    ("sample", FileClass::Example),
    ("demo", FileClass::Example),
    ("demos", FileClass::Example),
    ("fixtures", FileClass::Fixture),
    ("fixture", FileClass::Fixture),
    ("__fixtures__", FileClass::Fixture),
    ("testdata", FileClass::Fixture),
    ("test_data", FileClass::Fixture),
    ("__snapshots__", FileClass::Fixture),
    ("snapshots", FileClass::Fixture),
    ("__mocks__", FileClass::Fixture),
    ("mocks", FileClass::Fixture),
    ("vendor", FileClass::Vendored),
    ("_vendor", FileClass::Vendored),
    ("third_party", FileClass::Vendored),
    ("thirdparty", FileClass::Vendored),
    ("third-party", FileClass::Vendored),
    ("node_modules", FileClass::Vendored),
    ("external", FileClass::Vendored),
    ("generated", FileClass::Generated),
    ("gen", FileClass::Generated),
    ("dist", FileClass::Generated),
    ("docs", FileClass::Doc),
    ("doc", FileClass::Doc),
    ("documentation", FileClass::Doc),
];

/// The kind of the file at `path` (root-relative, `/`-separated).
pub fn classify(path: &str) -> FileClass {
    let lower = path.to_ascii_lowercase();
    let (dirs, name) = lower.rsplit_once('/').unwrap_or(("", &lower));
    if let Some(class) = by_name(name, path.rsplit('/').next().unwrap_or(path)) {
        return class;
    }
    // The innermost folder that names a kind decides (`tests/fixtures/`
    // is a fixture, `examples/tests/` a test).
    let folder = dirs
        .split('/')
        .rev()
        .find_map(|d| FOLDERS.iter().find(|(n, _)| *n == d).map(|(_, c)| *c));
    if let Some(class) = folder {
        return class;
    }
    match Lang::from_path(path) {
        Some(Lang::Markdown) => FileClass::Doc,
        Some(_) => FileClass::Source,
        None if is_code_path(path) => FileClass::Source,
        None if is_doc_name(name) => FileClass::Doc,
        None => FileClass::Data,
    }
}

/// A kind the file's own name gives (`test_x.py`, `x_test.go`,
/// `x.spec.ts`, `XTest.java`, `x_pb2.py`, `x.min.js`); `original` keeps
/// the case for `XTest`.
fn by_name(name: &str, original: &str) -> Option<FileClass> {
    let stem = name.split('.').next().unwrap_or(name);
    let original_stem = original.split('.').next().unwrap_or(original);
    let generated = name.ends_with(".min.js")
        || name.contains(".generated.")
        || name.contains(".pb.")
        || stem.ends_with("_pb2")
        || stem.ends_with("_pb2_grpc")
        || name.ends_with(".lock")
        || name == "package-lock.json"
        || name.ends_with(".snap");
    if generated {
        return Some(FileClass::Generated);
    }
    let test = stem.starts_with("test_")
        || stem.ends_with("_test")
        || stem.ends_with("_tests")
        || stem.ends_with("_spec")
        || stem == "conftest"
        || stem == "tests"
        || stem == "test"
        || name.contains(".test.")
        || name.contains(".spec.")
        || ["Test", "Tests", "Spec", "IT"]
            .iter()
            .any(|s| camel_suffix(original_stem, s));
    if test {
        return Some(FileClass::Test);
    }
    let bench = stem.starts_with("bench_")
        || stem.ends_with("_bench")
        || stem.ends_with("_benchmark")
        || name.contains(".bench.")
        || camel_suffix(original_stem, "Benchmark")
        || camel_suffix(original_stem, "Benchmarks");
    if bench {
        return Some(FileClass::Bench);
    }
    None
}

/// `FooTest` ends with the word `Test` (`Latest`, `EDIT` do not).
fn camel_suffix(stem: &str, suffix: &str) -> bool {
    stem.strip_suffix(suffix)
        .and_then(|head| head.chars().last())
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
}

fn is_doc_name(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or(name);
    name.ends_with(".rst")
        || name.ends_with(".txt") && !name.starts_with("requirements")
        || name.ends_with(".adoc")
        || [
            "readme",
            "changelog",
            "changes",
            "history",
            "news",
            "contributing",
            "authors",
        ]
        .contains(&stem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_known_by_their_conventions() {
        use FileClass::*;
        for (path, want) in [
            ("src/pip/_internal/req/req_install.py", Source),
            ("tests/unit/test_req.py", Test),
            ("pkg/router/tree_test.go", Test),
            ("src/query/hydration.test.tsx", Test),
            ("src/main/java/a/FooTest.java", Test),
            ("lib/rack/utils_spec.rb", Test),
            ("benches/parse.rs", Bench),
            ("bench_router.go", Bench),
            ("examples/basic/main.go", Example),
            ("tests/fixtures/app.py", Fixture),
            ("internal/testdata/x.go", Fixture),
            ("proto/api_pb2.py", Generated),
            ("api/api.pb.go", Generated),
            ("src/_vendor/rich/text.py", Vendored),
            ("docs/usage.md", Doc),
            ("README.md", Doc),
            ("CHANGELOG", Doc),
            ("pyproject.toml", Data),
            ("src/test.rs", Test),
            ("src/contest.py", Source),
            ("src/Latest.java", Source),
            ("src/EDIT.java", Source),
            ("src/FooIT.java", Test),
            ("shell/completion.zsh", Source),
            ("shell/key-bindings.fish", Source),
            ("plugin/fzf.vim", Source),
            ("src/components/Button.vue", Source),
            ("src/lib/Card.svelte", Source),
            ("cmd-parse.y", Source),
            ("lib/app.ex", Source),
            ("tests/completion.zsh", Test),
            ("config/app.yaml", Data),
            ("schema.sql", Data),
        ] {
            assert_eq!(classify(path), want, "{path}");
        }
    }
}
