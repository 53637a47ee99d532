//! Java imports: `import a.b.C;`, `import static a.b.C.m;` and `import
//! a.b.*;`, resolved to the class's file by its package folders (`a.b.C`
//! is `.../a/b/C.java`); `a.b.*` to the package: the files of every
//! folder `.../a/b` (`src/main/java/a/b` and `src/test/java/a/b` alike),
//! of which the graph keeps those whose classes the importer uses.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::parent;
use crate::core::discovery::graph::resolve::Resolution;

/// The project's `.java` files by name and by folder.
#[derive(Debug, Default)]
pub(super) struct Classes<'a> {
    by_name: HashMap<&'a str, Vec<&'a str>>,
    folders: HashMap<&'a str, Vec<&'a str>>,
    /// Each package asked for by `a.b.*`, once: every statement naming
    /// it shares one list.
    packages: Mutex<HashMap<String, Arc<[&'a str]>>>,
}

impl<'a> Classes<'a> {
    pub(super) fn read(files: &'a [String]) -> Self {
        let mut by_name: HashMap<&str, Vec<&str>> = HashMap::new();
        let mut folders: HashMap<&str, Vec<&str>> = HashMap::new();
        for f in files.iter().filter(|f| f.ends_with(".java")) {
            let name = f.rsplit('/').next().unwrap_or(f);
            by_name.entry(name).or_default().push(f);
            folders.entry(parent(f)).or_default().push(f);
        }
        Classes {
            by_name,
            folders,
            packages: Mutex::default(),
        }
    }

    /// A Java import: the file of its class (`a.b.C` in `.../a/b/C.java`,
    /// a static import's member dropped), every file of the package for
    /// `a.b.*`. A package the project has whose class it does not is
    /// unresolved; any other import is external (the JDK, a library).
    pub(super) fn resolve(&self, import: &str) -> Resolution<'a> {
        let segments: Vec<&str> = import.split('.').collect();
        let mut class_end = segments.len();
        if segments.last() == Some(&"*") {
            let folder = segments[..segments.len() - 1].join("/");
            if let Some(files) = self.wildcard(&folder) {
                return Resolution::Package(files);
            }
            // `import static a.b.C.*;`: the members of a class.
            class_end -= 1;
        }
        // `a.b.C`, else `a.b.C.member` (static) or `a.b.C.Inner`.
        for end in (2..=class_end).rev() {
            let path = format!("{}.java", segments[..end].join("/"));
            let name = format!("{}.java", segments[end - 1]);
            let found = self.by_name.get(name.as_str()).and_then(|files| {
                files
                    .iter()
                    .find(|f| **f == path || f.ends_with(&format!("/{path}")))
            });
            if let Some(f) = found {
                return Resolution::Files(vec![(*f, 1.0)]);
            }
        }
        let package = segments[..class_end.saturating_sub(1)].join("/");
        match self.package(&package) {
            Some(_) => Resolution::Unresolved,
            None => Resolution::External,
        }
    }

    /// Every file of the folders for a package path (`a/b`), sorted;
    /// `None` when the project has no such folder.
    fn wildcard(&self, folder: &str) -> Option<Arc<[&'a str]>> {
        let mut known = self.packages.lock().unwrap_or_else(|e| e.into_inner());
        // A folder the project lacks is kept too (empty): `java.util.*`
        // in every file scans the folders once.
        if let Some(files) = known.get(folder) {
            return (!files.is_empty()).then(|| files.clone());
        }
        let suffix = format!("/{folder}");
        let mut files: Vec<&'a str> = self
            .folders
            .iter()
            .filter(|(dir, _)| !folder.is_empty() && (**dir == folder || dir.ends_with(&suffix)))
            .flat_map(|(_, files)| files.iter().copied())
            .collect();
        files.sort_unstable();
        let files: Arc<[&'a str]> = files.into();
        known.insert(folder.to_string(), files.clone());
        (!files.is_empty()).then_some(files)
    }

    /// The files of the project's folder for a package path (`a/b`).
    fn package(&self, folder: &str) -> Option<&Vec<&'a str>> {
        if folder.is_empty() {
            return None;
        }
        let suffix = format!("/{folder}");
        self.folders
            .iter()
            .find(|(dir, _)| **dir == folder || dir.ends_with(&suffix))
            .map(|(_, files)| files)
    }
}

/// The imports of a Java file (`import a.b.C;`, `import static
/// a.b.C.m;`, `import a.b.*;`).
pub(super) fn encode(source: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|line| {
            let rest = line.trim().strip_prefix("import ")?;
            let rest = rest.strip_prefix("static ").unwrap_or(rest);
            let name = rest.split(';').next()?.trim();
            let ok = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '.' || c == '_' || c == '*' || c == '$');
            ok.then(|| name.to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::discovery::graph::modules::testing::{files, targets};

    #[test]
    fn java_imports_resolve_by_package_folders() {
        let src = "package a;\nimport java.util.List;\nimport static com.acme.util.Strings.join;\n\
                   import com.acme.model.*;\nimport com.acme.util.Gone;\n\
                   import static com.acme.util.Strings.*;\n";
        assert_eq!(
            encode(src),
            [
                "java.util.List",
                "com.acme.util.Strings.join",
                "com.acme.model.*",
                "com.acme.util.Gone",
                "com.acme.util.Strings.*"
            ]
        );
        let list = files(&[
            "src/main/java/com/acme/util/Strings.java",
            "src/main/java/com/acme/model/User.java",
            "src/main/java/com/acme/model/Role.java",
        ]);
        let p = Classes::read(&list);
        let r = |i: &str| targets(p.resolve(i));
        assert_eq!(
            r("com.acme.util.Strings.join"),
            Some(vec!["src/main/java/com/acme/util/Strings.java"])
        );
        assert_eq!(r("com.acme.model.*").map(|v| v.len()), Some(2));
        assert_eq!(
            r("com.acme.util.Strings.*"),
            Some(vec!["src/main/java/com/acme/util/Strings.java"])
        );
        assert!(matches!(
            p.resolve("com.acme.util.Gone.*"),
            Resolution::Unresolved
        ));
        assert!(matches!(
            p.resolve("com.acme.util.Gone"),
            Resolution::Unresolved
        ));
        assert!(matches!(p.resolve("java.util.List"), Resolution::External));
    }
}
