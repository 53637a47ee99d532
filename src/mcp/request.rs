//! Tool arguments as engine requests: which preset (or an ad-hoc one made
//! of the files named), the overrides, the targets — each checked by the
//! engine as the CLI's `--target` is (`ask::target`). What a request
//! cannot hold without a workspace (git's diff) is handed back for the
//! caller to put on it through the engine (`ask::diff_onto`). Every path the
//! agent names (a file to show, an ad-hoc entry, a target) passes the
//! engine's consent gate (`trust::entries`): an agent is not the user.

use std::collections::HashSet;
use std::path::Path;
use std::str::FromStr;

use ctxcurate::core::engine::{BuildKind, BuildRequest, TargetError, ask};
use ctxcurate::core::model::{FileItem, Format, Preset, TreeMode, ViewMode};
use ctxcurate::core::paths;
use ctxcurate::core::project::Project;
use ctxcurate::core::trust::entries::{EntryConsent, Held};
use ctxcurate::core::walk::{self, WalkPatterns};
use ctxcurate::text::sanitize::display_line;

use super::args::{BuildArgs, FileArg, PackArgs};
use super::error::ToolError;

/// A build as asked: the request, and the ref to diff against, if any
/// (the engine fetches it, see `Workspace::diff`).
#[derive(Debug)]
pub struct Asked {
    pub req: BuildRequest,
    pub diff: Option<String>,
    /// The files and targets the agent named that wait for the user's
    /// consent (left out of `req`).
    pub held: Vec<Held>,
}

/// How many preset names an unknown-preset error lists.
const NAMES_LISTED: usize = 20;

/// A name from the project file (a preset's) as it goes into a message:
/// control characters escaped, cut to a line.
pub fn shown_name(name: &str) -> String {
    display_line(name, 80).into_owned()
}

/// A path the agent named, or a repository's file name, as an error
/// shows it: on one line (a line break in it would read as a second line
/// of the answer), every control, bidi and invisible character visible.
pub fn shown_path(path: &str) -> String {
    display_line(path, 200).into_owned()
}

/// A preset's description as the server sends it to a client that may
/// show it: one line, every control, bidi and invisible character (an
/// OSC sequence's ESC, a clear-screen, U+202E) made visible, at most 500
/// characters.
pub fn shown_description(description: &str) -> String {
    display_line(description, 500).into_owned()
}

/// The preset named (or the active one) and the consent for its explicit
/// entries; an unknown name lists the presets there are.
pub fn preset(project: &Project, name: Option<&str>) -> Result<(Preset, EntryConsent), ToolError> {
    // The engine chooses, as for `ctxcurate build`; only the words differ.
    match (ask::preset_named(project, name), name) {
        (Ok(chosen), _) => Ok(chosen),
        (Err(e), None) => Err(ToolError::new(e.to_string())),
        (Err(_), Some(name)) => {
            let names = project.preset_names();
            let mut listed: Vec<String> = names
                .iter()
                .take(NAMES_LISTED)
                .map(|(n, _)| shown_name(n))
                .collect();
            if names.len() > NAMES_LISTED {
                listed.push(format!("and {} more", names.len() - NAMES_LISTED));
            }
            Err(ToolError::new(format!(
                "no preset named `{}` (presets: {})",
                shown_name(name),
                listed.join(", ")
            )))
        }
    }
}

/// `arg` (root-relative or absolute) as a root-relative `/` path; a path
/// leading out of the root is refused.
pub fn inside(root: &Path, arg: &str) -> Result<String, ToolError> {
    match paths::normalize_rel(root, &root.join(arg)) {
        Some(rel) if !rel.is_empty() => Ok(rel),
        _ => Err(ToolError::new(format!(
            "{} is outside the project root {}",
            shown_path(arg),
            shown_path(&root.display().to_string())
        ))),
    }
}

/// [`inside`], and an existing file: the engine's check of a typed target
/// (`ask::target`, from the root: an agent has no working directory), in
/// the server's words.
pub fn file(project: &Project, arg: &str) -> Result<String, ToolError> {
    ask::target(project, &project.root, Path::new(arg)).map_err(|e| match e {
        TargetError::Outside { .. } | TargetError::Root { .. } => ToolError::new(format!(
            "{} is outside the project root {}",
            shown_path(arg),
            shown_path(&project.root.display().to_string())
        )),
        TargetError::Folder(rel) => {
            ToolError::new(format!("{} is a folder: name a file", shown_path(&rel)))
        }
        TargetError::NotFound(rel) => {
            ToolError::new(format!("file not found: {}", shown_path(&rel)))
        }
    })
}

/// The consent a path the agent names gets: what the user allowed in
/// this checkout, as for a project preset's entries. An agent is not the
/// user: what it names never counts as the user's own (unlike the CLI's
/// `--target` or `ctxcurate add`).
pub fn agent_consent(project: &Project) -> EntryConsent {
    EntryConsent::project(project.allowed.clone(), project.settings.allow_outside_root)
}

/// `preset` (the agent's files and targets) through the engine's consent
/// gate ([`EntryConsent::gate`]): the entries that need the user's
/// consent (a credential file, version control data, an ignored file, or
/// a link to one) are taken out and returned.
fn gated(project: &Project, preset: Preset) -> (Preset, Vec<Held>) {
    let patterns = WalkPatterns::from_settings(&project.settings);
    let consent = agent_consent(project);
    let (gated, held) = consent.gate(&project.root, &preset, None, &patterns);
    (gated.into_owned(), held)
}

/// What stops an agent's paths, in one note for it; `None` for nothing held.
pub fn agent_note(held: &[Held]) -> Option<String> {
    if held.is_empty() {
        return None;
    }
    let names: Vec<String> = held.iter().take(3).map(describe).collect();
    let more = match held.len() {
        n if n > 3 => format!(" and {} more", n - 3),
        _ => String::new(),
    };
    Some(format!(
        "left out {} path(s) you named that need the user's consent: {}{more}; an agent \
         cannot allow them (only the user can, in this checkout)",
        held.len(),
        names.join(", ")
    ))
}

/// A held path and why, for the agent.
fn describe(h: &Held) -> String {
    let path = shown_name(&h.path);
    match h.target() {
        Some(to) => format!(
            "{path} (a link to {}: {})",
            shown_name(to),
            h.reason.describe()
        ),
        None => format!("{path} ({})", h.reason.describe()),
    }
}

/// [`file`], and one the server may show on its own: not a credential
/// file nor one no composition may hold, and past the engine's consent
/// gate (judged by where a link leads): a held file is refused.
pub fn shown_file(project: &Project, arg: &str) -> Result<String, ToolError> {
    let rel = file(project, arg)?;
    if walk::is_sensitive(&rel) || walk::is_blacklisted(&rel) {
        return Err(ToolError::new(format!(
            "{} is a credential or private file: not shown to an agent (a preset the \
             user allowed it in still builds it)",
            shown_name(&rel)
        )));
    }
    let asked = Preset {
        files: vec![FileItem::new(rel.clone())],
        ..Preset::default()
    };
    let (_, held) = gated(project, asked);
    if let Some(h) = held.first() {
        return Err(ToolError::new(format!(
            "{}: not shown to an agent without the user's consent (only the user can \
             allow it, in this checkout)",
            describe(h)
        )));
    }
    Ok(rel)
}

/// A value of one of the model's named enums (`full`, `markdown`, …).
pub fn named<T: FromStr<Err = String>>(what: &str, value: &str) -> Result<T, ToolError> {
    value
        .parse::<T>()
        .map_err(|why| ToolError::new(format!("{what}: {why}")))
}

/// The most files, or targets, one request may name: a glob names many
/// files in one entry, and each named path costs a few system calls.
pub const MAX_NAMED: usize = 10_000;

/// An error when a request names more than [`MAX_NAMED`] different
/// `what`.
pub fn at_most(what: &str, named: usize) -> Result<(), ToolError> {
    if named > MAX_NAMED {
        return Err(ToolError::new(format!(
            "{what}: {named} different ones named, at most {MAX_NAMED} may be (a glob such as `src/**/*.py` names many files in one)"
        )));
    }
    Ok(())
}

/// An ad-hoc preset of the files or globs named: the client named them,
/// so no consent comes with them (credential files stay held).
fn ad_hoc(root: &Path, files: &[FileArg]) -> Result<Preset, ToolError> {
    // The same file and mode named again adds nothing: it is not checked
    // again (one request named one file a million times).
    let mut seen = HashSet::new();
    let files: Vec<&FileArg> = files
        .iter()
        .filter(|f| seen.insert((f.path.as_str(), f.mode.as_deref())))
        .collect();
    at_most("files", files.len())?;
    let mut preset = Preset::default();
    for f in files {
        let mut item = FileItem::new(inside(root, &f.path)?);
        if let Some(mode) = &f.mode {
            item.view_mode = named::<ViewMode>("mode", mode)?;
        }
        preset.files.push(item);
    }
    Ok(preset)
}

/// `build`'s arguments as a request on `project`.
pub fn build(project: &Project, args: &BuildArgs) -> Result<Asked, ToolError> {
    let mut held = Vec::new();
    let (preset, consent) = match &args.files {
        Some(files) => {
            let (gated, out) = gated(project, ad_hoc(&project.root, files)?);
            held = out;
            (gated, agent_consent(project))
        }
        None => preset(project, args.preset.as_deref())?,
    };
    let mut req = BuildRequest::new(preset, &project.settings);
    req.compose.consent = consent;
    if let Some(task) = &args.task {
        req.preset.task = task.clone();
    }
    if let Some(format) = &args.format {
        req.compose.format = named::<Format>("format", format)?;
    }
    if let Some(tree) = &args.tree {
        req.compose.sections.tree = named::<TreeMode>("tree", tree)?;
    }
    held.extend(targets(project, &args.targets, &mut req)?);
    req.budget = args.budget;
    req.allow_partial = args.allow_partial;
    Ok(Asked {
        req,
        diff: args.diff.clone(),
        held,
    })
}

/// `pack`'s arguments as a request on `project`: always packed.
pub fn pack(project: &Project, args: &PackArgs) -> Result<Asked, ToolError> {
    let (preset, consent) = preset(project, args.preset.as_deref())?;
    let mut req = BuildRequest::new(preset, &project.settings);
    req.compose.consent = consent;
    req.kind = BuildKind::Pack;
    if let Some(task) = &args.task {
        req.preset.task = task.clone();
    }
    if let Some(format) = &args.format {
        req.compose.format = named::<Format>("format", format)?;
    }
    let held = targets(project, &args.targets, &mut req)?;
    req.budget = args.budget;
    req.allow_partial = args.allow_partial;
    Ok(Asked {
        req,
        diff: None,
        held,
    })
}

/// The targets named, each an existing file inside the root, once; those
/// the consent gate holds are left out and returned. The request's
/// targets are the user's own to the engine (the CLI's `--target`), so an
/// agent's pass the gate here first.
fn targets(
    project: &Project,
    named: &[String],
    req: &mut BuildRequest,
) -> Result<Vec<Held>, ToolError> {
    let mut seen = HashSet::new();
    let named: Vec<&String> = named.iter().filter(|t| seen.insert(t.as_str())).collect();
    at_most("targets", named.len())?;
    let mut asked = Preset::default();
    let mut found = HashSet::new();
    for t in named {
        let rel = file(project, t)?;
        if found.insert(rel.clone()) {
            asked.targets.push(rel);
        }
    }
    let (passed, held) = gated(project, asked);
    let mut listed: HashSet<String> = req.targets.iter().cloned().collect();
    for t in passed.targets {
        if listed.insert(t.clone()) {
            req.targets.push(t);
        }
    }
    Ok(held)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project() -> (tempfile::TempDir, Project) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("ctxcurate.toml"),
            "[presets.api]\ndescription = \"the API\"\nfiles = [\"a.py\"]\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("a.py"), "def f():\n    return 1\n").unwrap();
        std::fs::write(dir.path().join("b.py"), "import a\n").unwrap();
        let project = Project::open_at(dir.path(), None).unwrap();
        (dir, project)
    }

    fn args(json: serde_json::Value) -> BuildArgs {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn a_named_preset_with_overrides_becomes_its_request() {
        let (_dir, project) = project();
        let asked = build(
            &project,
            &args(serde_json::json!({
                "preset": "api", "format": "xml", "tree": "none",
                "task": "fix f", "budget": 500, "targets": ["b.py", "./b.py"],
                "diff": "HEAD"
            })),
        )
        .unwrap();
        let req = asked.req;
        assert_eq!(req.preset.files[0].path, "a.py");
        assert_eq!(req.preset.task, "fix f");
        assert_eq!(req.compose.format, Format::Xml);
        assert_eq!(req.compose.sections.tree, TreeMode::None);
        assert_eq!(req.budget, Some(500));
        assert_eq!(req.targets, vec!["b.py".to_string()]);
        assert_eq!(req.kind, BuildKind::Auto);
        assert_eq!(asked.diff.as_deref(), Some("HEAD"));
    }

    /// A request naming one file many times makes one entry and one
    /// target (sweep 13, M1: a million of them took 113 s and 1.9 GB);
    /// past [`MAX_NAMED`] distinct names, it is refused.
    #[test]
    fn a_file_named_many_times_is_one_entry_and_too_many_are_refused() {
        let (_dir, project) = project();
        let many = vec![serde_json::json!({"path": "a.py"}); 50_000];
        let targets = vec!["b.py"; 50_000];
        let asked = build(
            &project,
            &args(serde_json::json!({"files": many, "targets": targets})),
        )
        .unwrap();
        assert_eq!(asked.req.preset.files.len(), 1);
        assert_eq!(asked.req.targets, vec!["b.py".to_string()]);

        let distinct: Vec<_> = (0..=MAX_NAMED)
            .map(|i| serde_json::json!({"path": format!("f{i}.py")}))
            .collect();
        let err = build(&project, &args(serde_json::json!({"files": distinct}))).unwrap_err();
        assert!(err.0.contains("at most 10000"), "{}", err.0);
    }

    #[test]
    fn files_make_an_ad_hoc_preset_gated_as_an_agents() {
        let (_dir, project) = project();
        let asked = build(
            &project,
            &args(serde_json::json!({
                "preset": "ignored", "files": [{"path": "b.py", "mode": "skeleton"}, {"path": "*.py"}]
            })),
        )
        .unwrap();
        let files = &asked.req.preset.files;
        assert_eq!(files.len(), 2);
        assert_eq!(files[0].view_mode, ViewMode::Skeleton);
        assert_eq!(files[1].path, "*.py");
        assert_eq!(asked.req.compose.consent, agent_consent(&project));
        assert!(!asked.req.compose.consent.own);
    }

    /// A project whose harmless-looking names lead to what needs the
    /// user's consent: `.env`, `.git/config`, a gitignored file.
    #[cfg(unix)]
    fn hostile() -> (tempfile::TempDir, Project) {
        use std::os::unix::fs::symlink;
        let (dir, _) = project();
        let root = dir.path();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::write(root.join(".git/config"), "[remote]\n").unwrap();
        std::fs::write(root.join(".env"), "A=1\n").unwrap();
        std::fs::write(root.join(".gitignore"), "ignored.py\n").unwrap();
        std::fs::write(root.join("ignored.py"), "x = 1\n").unwrap();
        symlink(".env", root.join("config.py")).unwrap();
        symlink(".git/config", root.join("gitcfg.py")).unwrap();
        symlink("ignored.py", root.join("ign.py")).unwrap();
        let project = Project::open_at(root, None).unwrap();
        (dir, project)
    }

    #[cfg(unix)]
    #[test]
    fn a_file_shown_alone_passes_the_consent_gate_where_a_link_leads() {
        let (_dir, project) = hostile();
        for (name, why) in [
            ("config.py", "a credential file"),
            ("gitcfg.py", "version control data"),
            (".git/config", "version control data"),
            ("ign.py", "an ignored file"),
            ("ignored.py", "an ignored file"),
        ] {
            let err = shown_file(&project, name).unwrap_err().to_string();
            assert!(err.contains(why), "{name}: {err}");
            assert!(!err.contains("ctxcurate add"), "{err}");
        }
        assert_eq!(shown_file(&project, "b.py").unwrap(), "b.py");
    }

    #[cfg(unix)]
    #[test]
    fn an_agents_targets_and_files_are_held_like_a_project_files_entries() {
        let (_dir, project) = hostile();
        let packed: PackArgs = serde_json::from_value(serde_json::json!({
            "targets": ["a.py", ".env", "config.py", "gitcfg.py", "ign.py", "ignored.py"]
        }))
        .unwrap();
        let asked = pack(&project, &packed).unwrap();
        assert_eq!(asked.req.targets, vec!["a.py".to_string()]);
        assert_eq!(asked.held.len(), 5);
        let note = agent_note(&asked.held).unwrap();
        assert!(
            note.contains("config.py (a link to .env: a credential file)"),
            "{note}"
        );
        assert!(!note.contains("ctxcurate add"), "{note}");

        let asked = build(
            &project,
            &args(serde_json::json!({
                "files": [{"path": "b.py"}, {"path": "config.py"}, {"path": "ign.py"}],
                "targets": ["gitcfg.py"]
            })),
        )
        .unwrap();
        let files: Vec<&str> = asked
            .req
            .preset
            .files
            .iter()
            .map(|f| f.path.as_str())
            .collect();
        assert_eq!(files, vec!["b.py"]);
        assert!(asked.req.targets.is_empty());
        assert_eq!(asked.held.len(), 3);
    }

    #[test]
    fn an_unknown_preset_is_named_escaped_and_the_list_is_capped() {
        let dir = tempfile::tempdir().unwrap();
        let mut toml = String::new();
        for i in 0..30 {
            toml.push_str(&format!("[presets.\"p{i:02}\\u001b[31m\"]\nfiles = []\n"));
        }
        std::fs::write(dir.path().join("ctxcurate.toml"), toml).unwrap();
        let project = Project::open_at(dir.path(), None).unwrap();
        let err = preset(&project, Some("no\u{1b}[2Jpe"))
            .unwrap_err()
            .to_string();
        assert!(!err.contains('\u{1b}'), "{err:?}");
        assert!(err.contains("and 10 more"), "{err}");
        assert!(!err.contains("p29"), "{err}");
    }

    #[test]
    fn bad_arguments_are_tool_errors() {
        let (_dir, project) = project();
        let err = |j| build(&project, &args(j)).unwrap_err().to_string();
        assert!(err(serde_json::json!({"preset": "nope"})).contains("presets: api"));
        assert!(
            err(serde_json::json!({"targets": ["../x.py"]})).contains("outside the project root")
        );
        assert!(err(serde_json::json!({"targets": ["/etc/passwd"]})).contains("outside"));
        assert!(err(serde_json::json!({"targets": ["gone.py"]})).contains("not found"));
        assert!(err(serde_json::json!({"format": "html"})).starts_with("format:"));
        std::fs::write(project.root.join(".env"), "A=1\n").unwrap();
        assert!(shown_file(&project, ".env").is_err());
        assert_eq!(shown_file(&project, "a.py").unwrap(), "a.py");
        let files = serde_json::json!({"files": [{"path": "a.py", "mode": "loud"}]});
        assert!(err(files).starts_with("mode:"));
    }

    /// A target is checked by the engine (`ask::target`, as the CLI's
    /// `--target`), and worded as the server words it.
    #[test]
    fn a_target_is_the_engines_check_in_the_servers_words() {
        let (dir, project) = project();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let root = project.root.display().to_string();
        let err = |arg: &str| file(&project, arg).unwrap_err().to_string();
        assert_eq!(
            err("../x.py"),
            format!("../x.py is outside the project root {root}")
        );
        assert_eq!(err("."), format!(". is outside the project root {root}"));
        assert_eq!(err("sub"), "sub is a folder: name a file");
        assert_eq!(err("sub/../gone.py"), "file not found: gone.py");
        assert_eq!(file(&project, "./b.py").unwrap(), "b.py");
        let abs = project.root.join("a.py");
        assert_eq!(file(&project, &abs.to_string_lossy()).unwrap(), "a.py");
    }

    #[test]
    fn unknown_or_mistyped_fields_do_not_parse() {
        let typed: Result<BuildArgs, _> =
            serde_json::from_value(serde_json::json!({"budget": "lots"}));
        assert!(typed.is_err());
        let unknown: Result<BuildArgs, _> =
            serde_json::from_value(serde_json::json!({"budjet": 5}));
        assert!(unknown.is_err());
    }

    #[test]
    fn a_pack_always_packs() {
        let (_dir, project) = project();
        let args: PackArgs =
            serde_json::from_value(serde_json::json!({"targets": ["a.py"]})).unwrap();
        let asked = pack(&project, &args).unwrap();
        assert_eq!(asked.req.kind, BuildKind::Pack);
        assert_eq!(asked.req.targets, vec!["a.py".to_string()]);
    }
}
