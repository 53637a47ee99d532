//! Whether a file is a test by its path, as the languages that import
//! whole packages lay tests out: Go's `_test.go`, `FooTest.java`,
//! `FooTests.kt`, `TestFoo.java`, and anything under a `test`, `tests`,
//! `__tests__`, `testdata`, `androidTest` or `*.Tests` folder. The graph
//! never makes such a file a package import of a file that is not one.

/// Folders whose files are tests.
const TEST_DIRS: &[&str] = &[
    "test",
    "tests",
    "__tests__",
    "testdata",
    "androidTest",
    "testFixtures",
];

/// Whether `path` (relative, `/`-separated) is a test file.
pub(crate) fn is_test(path: &str) -> bool {
    let (dirs, name) = path.rsplit_once('/').unwrap_or(("", path));
    let stem = name.split('.').next().unwrap_or(name);
    let named = |suffix: &str| stem.len() > suffix.len() && stem.ends_with(suffix);
    name.ends_with("_test.go")
        || named("Test")
        || named("Tests")
        || stem
            .strip_prefix("Test")
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_uppercase()))
        || dirs
            .split('/')
            .any(|d| TEST_DIRS.contains(&d) || d.ends_with(".Tests") || d.ends_with(".Test"))
}

/// A file's name up to its first dot: `flag` for `pkg/flag.go`.
pub(super) fn stem(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.split('.').next().unwrap_or(name)
}

/// The stem of the file a test is named for: `flag` for `flag_test.go`,
/// `Foo` for `FooTest.java`, `FooTests.kt` or `TestFoo.java`, `x` for
/// `test_x.py`; a name with none of these affixes is its own.
pub(super) fn tested_stem(path: &str) -> &str {
    let stem = stem(path);
    ["_test", "Tests", "Test"]
        .iter()
        .find_map(|suffix| stem.strip_suffix(suffix).filter(|s| !s.is_empty()))
        .or_else(|| {
            ["test_", "Test"]
                .iter()
                .find_map(|prefix| stem.strip_prefix(prefix).filter(|s| !s.is_empty()))
        })
        .unwrap_or(stem)
}

#[cfg(test)]
mod tests {
    use super::{is_test, tested_stem};

    #[test]
    fn the_file_a_test_is_named_for() {
        assert_eq!(tested_stem("pkg/flag_test.go"), "flag");
        assert_eq!(tested_stem("p/FooTest.java"), "Foo");
        assert_eq!(tested_stem("p/FooTests.kt"), "Foo");
        assert_eq!(tested_stem("p/TestFoo.java"), "Foo");
        assert_eq!(tested_stem("tests/test_x.py"), "x");
        assert_eq!(tested_stem("p/Test.java"), "Test");
        assert_eq!(tested_stem("flag.go"), "flag");
    }

    #[test]
    fn tests_by_name_and_folder() {
        for path in [
            "flag_test.go",
            "pkg/flag_test.go",
            "src/main/java/p/FooTest.java",
            "p/FooTests.kt",
            "p/TestFoo.java",
            "src/test/java/p/Helper.java",
            "Acme.Core.Tests/Helper.cs",
            "x/testdata/input.go",
        ] {
            assert!(is_test(path), "{path}");
        }
        for path in [
            "flag.go",
            "test.go",
            "p/Test.java",
            "p/Testing.java",
            "p/Latest.java",
            "src/main/java/p/Contest.java",
            "testing/quick/quick.go",
        ] {
            assert!(!is_test(path), "{path}");
        }
    }
}
