//! C# imports: `using A.B;` (also `global using`, `using static A.B.C;`
//! and the alias `using X = A.B.C;`) names a namespace, not a file, so it
//! resolves to the namespace: the project files that declare it
//! (`namespace A.B { … }` or file-scoped `namespace A.B;`), of which the
//! graph keeps those whose types the importer uses; a name that is a type
//! (`using static`, an alias) resolves to its file in its namespace when
//! one is named after it. The declarations are read with the imports and
//! cached with them.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, LazyLock};

use regex::Regex;

use crate::core::discovery::graph::resolve::Resolution;

static USING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*(?:global\s+)?using\s+(?:static\s+)?(?:[A-Za-z_]\w*\s*=\s*)?(?:global::)?([A-Za-z_][\w.]*)\s*;",
    )
    .expect("a constant pattern")
});

static NAMESPACE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*namespace\s+([A-Za-z_][\w.]*)\s*(?:[;{]|$)").expect("a constant pattern")
});

/// The names `using` directives import.
pub(super) fn encode(source: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|line| Some(USING.captures(line)?[1].to_string()))
        .collect()
}

/// The namespaces a file declares.
pub(super) fn declarations(source: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|line| Some(NAMESPACE.captures(line)?[1].to_string()))
        .collect()
}

/// The project's namespaces and the files that declare each.
#[derive(Debug, Default)]
pub(super) struct Namespaces<'a> {
    files: HashMap<String, Arc<[&'a str]>>,
    /// The first names of the project's own namespaces (`Python` of
    /// `Python.Runtime`): a `using` under one names the project. A name
    /// only a few files declare is left out: projects put a polyfill or
    /// two into `System`, which does not make `using System.Linq;` theirs.
    roots: HashSet<String>,
}

impl<'a> Namespaces<'a> {
    /// From each file's declared namespaces.
    pub(super) fn read(declared: impl IntoIterator<Item = (&'a str, Vec<String>)>) -> Self {
        let mut out = Namespaces::default();
        let mut files_of: HashMap<String, Vec<&'a str>> = HashMap::new();
        let mut by_root: HashMap<String, HashSet<&str>> = HashMap::new();
        let mut declaring = 0;
        for (file, namespaces) in declared {
            declaring += 1;
            for ns in namespaces {
                let root = ns.split('.').next().unwrap_or(&ns).to_string();
                by_root.entry(root).or_default().insert(file);
                files_of.entry(ns).or_default().push(file);
            }
        }
        out.roots = by_root
            .into_iter()
            .filter(|(_, files)| files.len() * ROOT_SHARE >= declaring)
            .map(|(root, _)| root)
            .collect();
        out.files = files_of
            .into_iter()
            .map(|(ns, mut files)| {
                files.sort_unstable();
                files.dedup();
                (ns, files.into())
            })
            .collect();
        out
    }

    /// A namespace: the files that declare it; a type (`A.B.C`): the file
    /// `C.cs` of namespace `A.B`, else all its files. A name under one of
    /// the project's root namespaces that neither finds is unresolved;
    /// any other is external (`System`, a package).
    pub(super) fn resolve(&self, name: &str) -> Resolution<'a> {
        if let Some(files) = self.files.get(name) {
            return spread(files);
        }
        if let Some((namespace, ty)) = name.rsplit_once('.')
            && let Some(files) = self.files.get(namespace)
        {
            let file_name = format!("{ty}.cs");
            return match files
                .iter()
                .find(|f| f.rsplit('/').next() == Some(file_name.as_str()))
            {
                Some(f) => Resolution::Files(vec![(f, 1.0)]),
                None => spread(files),
            };
        }
        let root = name.split('.').next().unwrap_or(name);
        // A namespace that only holds namespaces (`using Acme;` with
        // `Acme.Core` declared) is the project's but has no file.
        if self.roots.contains(root) {
            Resolution::Unresolved
        } else {
            Resolution::External
        }
    }
}

/// A first name is the project's when at least one in this many of the
/// files that declare a namespace declare one under it.
const ROOT_SHARE: usize = 10;

/// Every file of a namespace, for the graph to keep those used.
fn spread<'a>(files: &Arc<[&'a str]>) -> Resolution<'a> {
    Resolution::Package(files.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::discovery::graph::modules::testing::targets;

    #[test]
    fn usings_and_namespaces_are_read() {
        let src = "using System;\nglobal using Acme.Core;\nusing static Acme.Util.Strings;\n\
                   using Json = Acme.Serialization.Json;\nusing global::Acme.Model;\n\
                   using (var f = Open()) { }\nusing var g = Open();\n\
                   using List = System.Collections.Generic.List<int>;\n\
                   namespace Acme.App\n{\n    namespace Inner { }\n}\nnamespace Acme.Other;\n";
        assert_eq!(
            encode(src),
            [
                "System",
                "Acme.Core",
                "Acme.Util.Strings",
                "Acme.Serialization.Json",
                "Acme.Model"
            ]
        );
        assert_eq!(declarations(src), ["Acme.App", "Inner", "Acme.Other"]);
    }

    #[test]
    fn namespaces_resolve_to_the_files_declaring_them() {
        let ns = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let n = Namespaces::read([
            ("src/Core/A.cs", ns(&["Acme.Core"])),
            ("src/Core/B.cs", ns(&["Acme.Core"])),
            ("src/Util/Strings.cs", ns(&["Acme.Util"])),
            ("src/Util/Other.cs", ns(&["Acme.Util"])),
        ]);
        assert_eq!(
            targets(n.resolve("Acme.Core")),
            Some(vec!["src/Core/A.cs", "src/Core/B.cs"])
        );
        assert_eq!(
            n.resolve("Acme.Core"),
            Resolution::Package(vec!["src/Core/A.cs", "src/Core/B.cs"].into())
        );
        assert_eq!(
            targets(n.resolve("Acme.Util.Strings")),
            Some(vec!["src/Util/Strings.cs"])
        );
        assert_eq!(
            targets(n.resolve("Acme.Util.Gone")).map(|v| v.len()),
            Some(2)
        );
        assert_eq!(n.resolve("Acme.Missing"), Resolution::Unresolved);
        assert_eq!(n.resolve("Acme"), Resolution::Unresolved);
        assert_eq!(n.resolve("System.Text"), Resolution::External);
        // One polyfill in `System` among many files: `System` stays
        // external, the polyfill's own namespace resolves.
        let many: Vec<String> = (0..30).map(|i| format!("f{i}.cs")).collect();
        let n = Namespaces::read(
            many.iter()
                .map(|f| (f.as_str(), ns(&["Acme.Core"])))
                .chain([("Polyfill.cs", ns(&["System.Runtime.CompilerServices"]))]),
        );
        assert_eq!(n.resolve("System.Linq"), Resolution::External);
        assert_eq!(n.resolve("Acme.Gone"), Resolution::Unresolved);
        assert_eq!(
            targets(n.resolve("System.Runtime.CompilerServices")),
            Some(vec!["Polyfill.cs"])
        );
    }
}
