//! Property tests of discovery on the Python standard library: for random
//! budgets and targets, the repo map and the packed build never exceed the
//! budget (counted exactly, on the finished text) and use at least 85% of
//! it, as there is always more content than budget here.

use crate::common::machine;

use ctxcurate::core::discovery::graph::ImportGraph;
use ctxcurate::core::discovery::pack::{self, PackOptions, Role};
use ctxcurate::core::model::{FileItem, Format, Preset, TokenizerKind, ViewMode};
use ctxcurate::core::sources::{Codebase, Sources};
use ctxcurate::core::{discovery::repo_map, tokens, walk};

/// A small deterministic generator (xorshift64*), so a failure names its
/// seed and can be replayed with `DISCOVERY_SEED`.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn seed() -> u64 {
    std::env::var("DISCOVERY_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_cafe)
}

#[test]
fn budgets_are_never_exceeded_and_well_used() {
    let Some(root) = machine::python_stdlib() else {
        return;
    };
    let files: Vec<String> = walk::walk_files(&root)
        .into_iter()
        .filter(|f| !f.starts_with("site-packages/"))
        .collect();
    // No disk cache: never write into the standard library.
    let cache = Sources::new();
    let graph = ImportGraph::build(&Codebase::new(&root, &cache).with_walk(&files), &[]);
    assert!(graph.len() > 1500, "{} modules", graph.len());
    let modules: Vec<String> = files
        .iter()
        .filter(|f| f.ends_with(".py") && graph.contains(f) && !f.starts_with("test/"))
        .cloned()
        .collect();

    let seed = seed();
    let mut rng = Rng(seed);
    let tokenizer = TokenizerKind::O200k;
    for round in 0..12 {
        let budget = 200 + rng.below(30_000);
        let targets: Vec<String> = (0..1 + rng.below(3))
            .map(|_| modules[rng.below(modules.len())].clone())
            .collect();
        let ctx = format!("seed {seed} round {round}: budget {budget}, targets {targets:?}");

        let ranked = graph.rank(&targets);
        let map = repo_map::build(
            &Codebase::new(&root, &cache),
            &ranked,
            &Default::default(),
            budget,
            tokenizer,
        );
        let exact = tokens::count(tokenizer, &map.text);
        assert_eq!(exact, map.tokens, "{ctx}");
        assert!(exact <= budget, "map over budget: {exact} ({ctx})");
        assert!(
            exact * 100 >= budget * 85,
            "map uses {exact} of {budget} ({ctx})"
        );

        if round % 2 == 0 {
            let mut preset = Preset::default();
            preset.files.push(FileItem::new("json/**"));
            let opts = PackOptions {
                budget,
                map_budget: 2048,
                tokenizer,
                format: if round % 4 == 0 {
                    Format::Markdown
                } else {
                    Format::Xml
                },
                max_messages: 0,
                include_dirs: Vec::new(),
                read: Default::default(),
                sections: ctxcurate::core::compose::Sections::default(),
                hold: Vec::new(),
                fill: true,
            };
            let packed = pack::pack_with(
                &Codebase::new(&root, &cache).with_walk(&files),
                &preset,
                &targets,
                &opts,
                &graph,
            );
            let exact = tokens::count(tokenizer, &packed.text);
            assert_eq!(exact, packed.stats.tokens, "{ctx}");
            assert!(exact <= budget, "pack over budget: {exact} ({ctx})");
            assert!(
                exact * 100 >= budget * 85,
                "pack uses {exact} of {budget} ({ctx}): {:?}",
                packed.stats
            );
        }
    }
}

/// On real modules of the standard library, at 30,000 tokens: the target
/// whole and every module it imports directly in the pack in some form
/// (their outlines fit), within the budget — the packer used to give the
/// first imports all the room and drop the rest.
#[test]
fn every_direct_import_is_present_in_some_form() {
    let Some(root) = machine::python_stdlib() else {
        return;
    };
    let files: Vec<String> = walk::walk_files(&root)
        .into_iter()
        .filter(|f| !f.starts_with("site-packages/"))
        .collect();
    let cache = Sources::new();
    let codebase = Codebase::new(&root, &cache).with_walk(&files);
    let graph = ImportGraph::build(&codebase, &[]);
    let tokenizer = TokenizerKind::O200k;
    for target in ["email/message.py", "http/client.py"] {
        let targets = vec![target.to_string()];
        let direct = graph.reach(&targets).direct;
        assert!(direct.len() >= 5, "{target}: {direct:?}");
        let opts = PackOptions {
            budget: 30_000,
            map_budget: 2048,
            tokenizer,
            format: Format::Markdown,
            max_messages: 0,
            include_dirs: Vec::new(),
            read: Default::default(),
            sections: ctxcurate::core::compose::Sections::default(),
            hold: Vec::new(),
            fill: true,
        };
        let packed = pack::pack_with(&codebase, &Preset::default(), &targets, &opts, &graph);
        let exact = tokens::count(tokenizer, &packed.text);
        assert!(exact <= 30_000, "{target}: {exact}");
        assert_eq!(packed.items[0].path, target);
        assert_eq!(packed.items[0].mode, Some(ViewMode::Full), "{target}");
        let missing: Vec<&str> = packed
            .items
            .iter()
            .filter(|i| i.role == Role::Import && i.mode.is_none())
            .map(|i| i.path.as_str())
            .collect();
        assert!(missing.is_empty(), "{target}: {missing:?} left out");
        let imports = packed
            .items
            .iter()
            .filter(|i| i.role == Role::Import)
            .count();
        assert_eq!(imports, direct.len(), "{target}");
    }
}
