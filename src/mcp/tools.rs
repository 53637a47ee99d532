//! What each tool does: parse its arguments, ask the engine, and word the
//! answer (the table of tools is `table`). Every failure, a bad argument
//! included, comes back as a [`ToolError`].

use std::sync::{Mutex, MutexGuard, PoisonError};

use ctxcurate::core::compose::ComposeOptions;
use ctxcurate::core::engine::{MapOptions, Workspace, ask};
use ctxcurate::core::model::{FileItem, ViewMode};
use ctxcurate::core::syntax::Symbol;
use ctxcurate::core::token_map::TokenMap;
use ctxcurate::core::views;
use ctxcurate::core::{secrets, symbol_costs};
use ctxcurate::text::words::plural;
use rmcp::model::JsonObject;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::args::{
    BuildArgs, ChangedArgs, MaskArgs, MoreArgs, NoArgs, PackArgs, SavePresetArgs, SymbolsArgs,
    TokenMapArgs, ViewArgs,
};
use super::edits;
use super::error::ToolError;
use super::paging::Pages;
use super::reply::visible_strings;
use super::reply::{self, Reply};
use super::request::{self, Asked};
use super::table::EDIT_TOOLS;
use super::warm::{Opened, Warm};

/// New preset totals `list_presets` composes in one call at most.
const COUNTED_PRESETS: usize = 64;
/// Time `list_presets` spends composing totals, past which the rest wait
/// for a later call.
const COUNT_TIME: std::time::Duration = std::time::Duration::from_secs(3);
/// Presets `list_presets` lists at most.
const LISTED_PRESETS: usize = 2_000;

/// How the server was started.
#[derive(Debug, Clone)]
pub struct Options {
    /// Deliver contexts with likely secrets (`--allow-secrets`).
    pub allow_secrets: bool,
    /// Offer the tools that change a preset (`--allow-edits`).
    pub allow_edits: bool,
    /// The most one result's text holds (bytes); more comes in parts.
    pub max_result: usize,
}

/// What a call produced: the answer, and the warnings to send the client
/// as log messages.
#[derive(Debug)]
pub struct Outcome {
    pub result: Result<Reply, ToolError>,
    pub logs: Vec<String>,
}

/// The server's engine: the warm state and the long results in parts,
/// shared by every call (each on a blocking thread; the sources and the
/// project lock are safe to share).
#[derive(Debug)]
pub struct Engine {
    options: Options,
    warm: Mutex<Warm>,
    pages: Mutex<Pages>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A call that panicked left the state as it was between calls.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A tool's arguments (none given: an empty object).
fn parse<T: DeserializeOwned>(args: Option<JsonObject>) -> Result<T, ToolError> {
    serde_json::from_value(Value::Object(args.unwrap_or_default()))
        .map_err(|e| ToolError::new(format!("bad arguments: {e}")))
}

impl Engine {
    pub fn new(warm: Warm, options: Options) -> Self {
        Engine {
            pages: Mutex::new(Pages::new(options.max_result)),
            options,
            warm: Mutex::new(warm),
        }
    }

    /// The most one result holds (bytes, `--max-result`).
    pub fn max_result(&self) -> usize {
        self.options.max_result
    }

    /// Whether the editing tools are offered.
    pub fn allow_edits(&self) -> bool {
        self.options.allow_edits
    }

    /// Run tool `name` on `args`.
    pub fn call(&self, name: &str, args: Option<JsonObject>) -> Outcome {
        let mut logs = Vec::new();
        let max = self.options.max_result;
        let result = self
            .dispatch(name, args, &mut logs)
            .map(|r| self.paged(r))
            .map_err(|e| e.within(max));
        Outcome {
            result,
            logs: self.shown_logs(logs),
        }
    }

    /// The warnings as log messages: each made visible (a warning may
    /// quote a preset name from the project file) and cut to the bound.
    fn shown_logs(&self, logs: Vec<String>) -> Vec<String> {
        let max = self.options.max_result;
        logs.into_iter()
            .map(|line| super::error::cut_to(visible(line), max))
            .collect()
    }

    fn dispatch(
        &self,
        name: &str,
        args: Option<JsonObject>,
        logs: &mut Vec<String>,
    ) -> Result<Reply, ToolError> {
        match name {
            "list_presets" => {
                parse::<NoArgs>(args)?;
                self.list_presets(logs)
            }
            "build" => {
                let args: BuildArgs = parse(args)?;
                let opened = self.open(logs)?;
                let asked = request::build(&opened.project, &args)?;
                self.build(&opened, asked)
            }
            "pack" => {
                let args: PackArgs = parse(args)?;
                let opened = self.open(logs)?;
                let asked = request::pack(&opened.project, &args)?;
                self.build(&opened, asked)
            }
            "symbols" => {
                let args: SymbolsArgs = parse(args)?;
                self.symbols(&args, logs)
            }
            "view" => {
                let args: ViewArgs = parse(args)?;
                self.view(&args, logs)
            }
            "token_map" => {
                let args: TokenMapArgs = parse(args)?;
                self.token_map(&args, logs)
            }
            "changed" => {
                let args: ChangedArgs = parse(args)?;
                self.changed(&args, logs)
            }
            "more" => {
                let args: MoreArgs = parse(args)?;
                let part = lock(&self.pages).more(&args.cursor)?;
                Ok(Reply {
                    stats: Some(part_info(&part)),
                    text: Some(part.text),
                })
            }
            edit if EDIT_TOOLS.contains(&edit) => {
                if !self.options.allow_edits {
                    return Err(ToolError::new(format!(
                        "`{edit}` changes a preset: this server is read-only (start it with \
                         `ctxcurate mcp --allow-edits`)"
                    )));
                }
                let said = self.edit(edit, args, logs)?;
                Ok(Reply {
                    text: Some(said),
                    stats: None,
                })
            }
            other => Err(ToolError::new(format!(
                "no tool named `{}`",
                request::shown_name(other)
            ))),
        }
    }

    /// An editing tool, through the curation core and the project lock.
    fn edit(
        &self,
        name: &str,
        args: Option<JsonObject>,
        logs: &mut Vec<String>,
    ) -> Result<String, ToolError> {
        let Opened {
            mut project,
            sources,
        } = self.open(logs)?;
        match name {
            "include" => edits::include(&mut project, &parse(args)?),
            "exclude" => edits::exclude(&mut project, &parse(args)?),
            "set_mode" => edits::set_mode(&mut project, &parse(args)?),
            "mask" => {
                let args: MaskArgs = parse(args)?;
                let rel = request::shown_file(&project, &args.path)?;
                let ws = Workspace::shared(&project.root, project.settings.clone(), &sources);
                let tree = ws.symbols(&rel);
                edits::mask(&mut project, &args, &rel, tree.as_deref())
            }
            _ => edits::save_preset(&mut project, &parse::<SavePresetArgs>(args)?),
        }
    }

    /// The project as it is now, over the warm sources.
    fn open(&self, logs: &mut Vec<String>) -> Result<Opened, ToolError> {
        lock(&self.warm).open(logs)
    }

    /// A reply whose text is past the limit, cut to its first part (the
    /// stats say where the rest is).
    fn paged(&self, mut reply: Reply) -> Reply {
        let Some(text) = reply.text.take() else {
            return reply;
        };
        let part = lock(&self.pages).first(text);
        if part.cursor.is_some() {
            let stats = reply.stats.get_or_insert_with(|| json!({}));
            stats["part"] = part_info(&part);
        }
        reply.text = Some(part.text);
        reply
    }

    /// The text of preset `name`, built as `build` builds it (a resource).
    pub fn preset_text(&self, name: &str) -> Outcome {
        let mut logs = Vec::new();
        let result = self.open(&mut logs).and_then(|opened| {
            let args = BuildArgs {
                preset: Some(name.to_string()),
                ..BuildArgs::default()
            };
            let asked = request::build(&opened.project, &args)?;
            self.build(&opened, asked)
        });
        Outcome {
            result,
            logs: self.shown_logs(logs),
        }
    }

    /// The presets: (name, description).
    pub fn presets(&self) -> Result<Vec<(String, String)>, ToolError> {
        let opened = self.open(&mut Vec::new())?;
        let p = &opened.project;
        Ok(p.preset_names()
            .into_iter()
            .filter(|(name, _)| !self.name_withheld(name))
            .map(|(name, _)| {
                let description = p
                    .preset(&name)
                    .map(|(preset, _)| self.sent_description(&preset.description))
                    .unwrap_or_default();
                (name, description)
            })
            .collect())
    }

    /// Whether a preset's name holds a likely secret: such a preset is
    /// left out of what lists presets to the agent (`resources/list`,
    /// `list_presets`) unless the server allows secrets (recheck 15b,
    /// F9b: a token as a preset's name went out as its `uri`, `name` and
    /// `title`).
    fn name_withheld(&self, name: &str) -> bool {
        !self.options.allow_secrets && !secrets::scan(name).is_empty()
    }

    /// A preset's description as the agent is sent it (`resources/list`,
    /// `list_presets`): withheld when it holds a likely secret, as a build
    /// whose task or discussion holds one is refused, unless the server
    /// allows secrets. The note names each finding's kind, masked.
    fn sent_description(&self, description: &str) -> String {
        if self.options.allow_secrets {
            return description.to_string();
        }
        let mut hits = secrets::scan(description);
        if hits.is_empty() {
            // What is sent is cut and escaped: scan that too.
            hits = secrets::scan(&request::shown_description(description));
        }
        if hits.is_empty() {
            return description.to_string();
        }
        let listed: Vec<String> = hits
            .iter()
            .map(|h| format!("{} {}", h.kind, h.masked))
            .collect();
        format!(
            "(description withheld: it holds {} ({}); this server was started without \
             --allow-secrets)",
            plural(hits.len(), "likely secret"),
            listed.join("; ")
        )
    }

    /// Every preset with its entries and, for the first ones, its total in
    /// tokens: at most [`COUNTED_PRESETS`] new totals are composed per
    /// call, within [`COUNT_TIME`] (the rest say `"tokens": null`, and a
    /// note says how to get one: a total composes the preset, and 20,000
    /// presets took 68 s). At most [`LISTED_PRESETS`] are listed.
    fn list_presets(&self, logs: &mut Vec<String>) -> Result<Reply, ToolError> {
        let Opened { project, sources } = self.open(logs)?;
        let ws = Workspace::shared(&project.root, project.settings.clone(), &sources);
        let map = MapOptions::from_settings(&project.settings);
        let active = project.active_preset_name().to_string();
        let names = project.preset_names();
        let started = std::time::Instant::now();
        let mut listed = Vec::new();
        let (mut composed, mut uncounted) = (0usize, 0usize);
        // Each name scanned once (20,000 presets are listed in one call).
        let (shown, hidden): (Vec<_>, Vec<_>) =
            names.iter().partition(|(n, _)| !self.name_withheld(n));
        let withheld = hidden.len();
        for (name, scope) in shown.into_iter().take(LISTED_PRESETS) {
            let (preset, consent) = request::preset(&project, Some(name))?;
            let mut opts = ComposeOptions::from_settings(&project.settings);
            opts.consent = consent;
            let key = format!(
                "{}\n{:?}",
                serde_json::to_string(&preset).unwrap_or_default(),
                opts.consent
            );
            let cached = lock(&self.warm).total(name, &key);
            let may_count = composed < COUNTED_PRESETS && started.elapsed() < COUNT_TIME;
            let total = match cached {
                Some(total) => Some(total),
                None if may_count || *name == active => {
                    composed += 1;
                    let (tokens, exact) = ws.preset_total(&preset, &opts, &map, map.tokenizer);
                    lock(&self.warm).remember_total(name, key, tokens, exact);
                    Some((tokens, exact))
                }
                None => {
                    uncounted += 1;
                    None
                }
            };
            listed.push(json!({
                "name": name,
                "description": request::shown_description(&self.sent_description(&preset.description)),
                "active": *name == active,
                "scope": format!("{scope:?}").to_lowercase(),
                "entries": preset.files.len(),
                "tokens": total.map(|(tokens, _)| tokens),
                "exact": total.is_some_and(|(_, exact)| exact),
                "resource": super::uri::preset_uri(name),
            }));
        }
        let mut notes = Vec::new();
        if withheld > 0 {
            notes.push(format!(
                "{} left out: the name holds a likely secret (this server was started \
                 without --allow-secrets)",
                plural(withheld, "preset"),
            ));
        }
        if uncounted > 0 {
            notes.push(format!(
                "the tokens of {} are not counted in this call (each total composes \
                 its preset): list again for more, or `build` one by its name",
                plural(uncounted, "preset"),
            ));
        }
        if names.len() > LISTED_PRESETS {
            notes.push(format!(
                "{} presets; only the first {LISTED_PRESETS} are listed",
                names.len()
            ));
        }
        let active = if self.name_withheld(&active) {
            "(withheld: the name holds a likely secret)".to_string()
        } else {
            active
        };
        let mut answer = json!({
            "active": active,
            "tokenizer": map.tokenizer.as_str(),
            "budget": project.settings.budget,
            "presets": listed,
        });
        if !notes.is_empty() {
            answer["notes"] = json!(notes);
        }
        // Names from a hand-written project file, as `resources/list`
        // shows them.
        visible_strings(&mut answer);
        Reply::json(&answer)
    }

    /// Build (or pack) what was asked, through the engine.
    fn build(&self, opened: &Opened, asked: Asked) -> Result<Reply, ToolError> {
        let project = &opened.project;
        let mut ws = Workspace::shared(&project.root, project.settings.clone(), &opened.sources);
        let Asked {
            mut req,
            diff,
            held,
        } = asked;
        req.allow_secrets = self.options.allow_secrets;
        let mut notes: Vec<String> = project
            .missing_files(&req.preset)
            .into_iter()
            .map(|f| format!("preset file not found: {f}"))
            .collect();
        if let Some(rev) = diff {
            let said = ask::diff_onto(&mut ws, &mut req, &rev)
                .map_err(|e| ToolError::new(format!("diff: {}", error_chain(&e))))?;
            notes.extend(said);
        }
        match ws.build(req) {
            Ok(built) => Ok(reply::built(built, notes, request::agent_note(&held))),
            Err(refused) => Err(reply::refused(*refused)),
        }
    }

    fn symbols(&self, args: &SymbolsArgs, logs: &mut Vec<String>) -> Result<Reply, ToolError> {
        let Opened { project, sources } = self.open(logs)?;
        let rel = request::shown_file(&project, &args.path)?;
        if views::grammar_by_name(&rel) == Some(false) {
            return Err(ToolError::new(format!(
                "{}: no symbols: {}",
                request::shown_path(&rel),
                views::no_grammar(&rel)
            )));
        }
        let ws = Workspace::shared(&project.root, project.settings.clone(), &sources);
        match ws.symbol_costs(&rel) {
            Some(costed) if costed.tree.parse_stopped => Err(ToolError::new(format!(
                "{}: no symbols: {}",
                request::shown_path(&rel),
                views::parse_stopped_note(costed.tree.lang)
            ))),
            Some(costed) => {
                let symbols = &costed.tree.symbols;
                let file = sources.file(&project.root, &rel);
                let found = secrets_in(&rel, file.text(), symbols);
                if !found.is_empty() && !self.options.allow_secrets {
                    return Err(secrets_refused(&rel, &found));
                }
                // Symbol names and signatures come from the file: shown
                // as every other name is (sweep 13, E1).
                let mut reply =
                    serde_json::to_value(symbol_costs::with_costs(symbols, &costed.costs))
                        .map_err(|e| ToolError::new(format!("cannot write the symbols: {e}")))?;
                visible_strings(&mut reply);
                Reply::json(&reply)
            }
            None => Err(ToolError::new(format!(
                "{}: cannot be parsed (unreadable, binary or over max_file_size)",
                request::shown_path(&rel)
            ))),
        }
    }

    fn view(&self, args: &ViewArgs, logs: &mut Vec<String>) -> Result<Reply, ToolError> {
        let Opened { project, sources } = self.open(logs)?;
        let rel = request::shown_file(&project, &args.path)?;
        let (preset, consent) = request::preset(&project, args.preset.as_deref())?;
        let ws = Workspace::shared(&project.root, project.settings.clone(), &sources);
        let mut item = ws
            .entry_for(&preset, &rel)
            .unwrap_or_else(|| FileItem::new(rel.clone()));
        item.path = rel.clone();
        if let Some(mode) = &args.mode {
            item.view_mode = request::named::<ViewMode>("mode", mode)?;
        }
        let mut opts = ComposeOptions::from_settings(&project.settings);
        opts.consent = consent;
        let rendered = ws.render(item.clone(), &opts);
        if let Some(e) = &rendered.error {
            return Err(ToolError::new(format!(
                "{}: {e}",
                request::shown_path(&rel)
            )));
        }
        let tokenizer = project.settings.tokenizer;
        let copy = ws.file_copy(item.clone(), &opts, tokenizer);
        if !copy.findings.is_empty() && !self.options.allow_secrets {
            let found: Vec<String> = copy.findings.iter().map(ToString::to_string).collect();
            return Err(secrets_refused(&rel, &found));
        }
        let mut notes: Vec<String> = rendered.notes.iter().map(ToString::to_string).collect();
        let no_grammar = views::grammar_by_name(&rel) == Some(false);
        if no_grammar && item.view_mode.needs_grammar() && rendered.mode != item.view_mode {
            notes.insert(
                0,
                format!("{}; its summary is shown", views::no_grammar(&rel)),
            );
        }
        // The text is the file's, verbatim; what is said about it is
        // shown as every name is.
        let mut stats = json!({
            "path": rel,
            "mode": rendered.mode.as_str(),
            "asked": item.view_mode.as_str(),
            "tokens": copy.tokens,
            "tokenizer": tokenizer.as_str(),
            "notes": notes,
        });
        visible_strings(&mut stats);
        Ok(Reply {
            text: Some(copy.text),
            stats: Some(stats),
        })
    }

    fn token_map(&self, args: &TokenMapArgs, logs: &mut Vec<String>) -> Result<Reply, ToolError> {
        let Opened { project, sources } = self.open(logs)?;
        let (preset, consent) = request::preset(&project, args.preset.as_deref())?;
        let ws = Workspace::shared(&project.root, project.settings.clone(), &sources);
        let mut opts = ComposeOptions::from_settings(&project.settings);
        opts.consent = consent;
        let map = MapOptions::from_settings(&project.settings);
        let composition = ws.compose(&preset, &opts, &map);
        let tokens = TokenMap::of(
            &composition,
            &sources,
            map.tokenizer,
            project.settings.budget,
        );
        let mut reply = json!({"map": tokens, "problems": composition.problems});
        // Paths and labels only: a file's name shown as `build` shows it.
        visible_strings(&mut reply);
        Reply::json(&reply)
    }

    fn changed(&self, args: &ChangedArgs, logs: &mut Vec<String>) -> Result<Reply, ToolError> {
        let Opened { project, sources } = self.open(logs)?;
        let (preset, _) = request::preset(&project, args.preset.as_deref())?;
        let mut ws = Workspace::shared(&project.root, project.settings.clone(), &sources);
        let against = args.against.as_deref().unwrap_or("HEAD");
        let changed = ws
            .changed_files(against, &preset.exclude)
            .map_err(|e| ToolError::new(error_chain(&e)))?;
        let mut reply = json!({
            "against": changed.against,
            "files": changed.paths,
            "notes": changed.notes(),
        });
        visible_strings(&mut reply);
        Reply::json(&reply)
    }
}

/// `line` with its controls and invisible characters made visible (a
/// warning may quote a preset name from the project file).
fn visible(line: String) -> String {
    match ctxcurate::text::sanitize::escape_line(&line) {
        std::borrow::Cow::Owned(shown) => shown,
        std::borrow::Cow::Borrowed(_) => line,
    }
}

/// Where a part stands in its whole, for the model to fetch the rest.
fn part_info(part: &super::paging::Part) -> Value {
    let mut info = json!({
        "start": part.start,
        "end": part.end,
        "total_bytes": part.total,
    });
    if let Some(cursor) = &part.cursor {
        info["cursor"] = json!(cursor);
        info["note"] = json!(format!(
            "the text is cut at byte {} of {}: call `more` with this cursor for the rest",
            part.end, part.total
        ));
    }
    info
}

/// The likely secrets (by the scanner every build uses) in what
/// `symbols` returns of `rel`: each symbol's signature (its name in it),
/// and each secret of `source` (the file's text) whose beginning a
/// signature shows, cut as it may be, as `rel:line: kind in the signature
/// of PATH`, never the secret.
fn secrets_in(rel: &str, source: Option<&str>, symbols: &[Symbol]) -> Vec<String> {
    let mut found = Vec::new();
    let mut shown = String::new();
    for top in symbols {
        for s in top.iter() {
            for hit in secrets::scan(&s.signature)
                .into_iter()
                .chain(secrets::scan(&s.path))
            {
                found.push((
                    s.start_line + hit.line.saturating_sub(1),
                    hit.kind,
                    request::shown_name(&s.path),
                ));
            }
            shown.push_str(&s.signature);
            shown.push('\n');
            shown.push_str(&s.path);
            shown.push('\n');
        }
    }
    for hit in source.map_or_else(Vec::new, |src| secrets::shown_secrets(rel, src, &shown)) {
        if found.iter().any(|(line, _, _)| *line == hit.line) {
            continue;
        }
        // The innermost symbol around the secret's line names it.
        let around = symbols
            .iter()
            .flat_map(|top| top.iter())
            .filter(|s| (s.start_line..=s.end_line).contains(&hit.line))
            .min_by_key(|s| s.end_line - s.start_line);
        let name = around.map_or_else(|| "?".to_string(), |s| request::shown_name(&s.path));
        found.push((hit.line, hit.kind, name));
    }
    let mut listed: Vec<String> = found
        .into_iter()
        .map(|(line, kind, name)| {
            format!(
                "{}:{line}: {kind} in the signature of `{name}`",
                request::shown_path(rel)
            )
        })
        .collect();
    listed.dedup();
    listed
}

/// A refusal of what `rel` shows, for the likely secrets `found`.
fn secrets_refused(rel: &str, found: &[String]) -> ToolError {
    let listed: Vec<String> = found.iter().map(|f| format!("- {f}")).collect();
    ToolError::new(format!(
        "refused: {} holds {} (this server was started without \
         --allow-secrets):\n{}",
        request::shown_path(rel),
        plural(found.len(), "likely secret"),
        listed.join("\n")
    ))
}

/// An error and its causes on one line.
fn error_chain(e: &dyn std::error::Error) -> String {
    ctxcurate::text::error_chain(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_on_a_read_only_server_is_a_tool_error() {
        let dir = tempfile::tempdir().unwrap();
        let options = Options {
            allow_secrets: false,
            allow_edits: false,
            max_result: 1000,
        };
        let engine = Engine::new(Warm::new(dir.path()), options);
        let args = json!({"paths": ["a.py"]}).as_object().cloned();
        let outcome = engine.call("include", args);
        assert!(outcome.result.unwrap_err().0.contains("--allow-edits"));
        assert!(
            dir.path().read_dir().unwrap().next().is_none(),
            "nothing written"
        );
    }

    #[test]
    fn symbols_with_a_secret_in_a_signature_are_refused_without_allow_secrets() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("db.py"),
            "def connect(key=\"AKIAZ7QWERTYUIOPASDF\"):\n    return key\n",
        )
        .unwrap();
        let engine = |allow_secrets| {
            let options = Options {
                allow_secrets,
                allow_edits: false,
                max_result: 100_000,
            };
            Engine::new(Warm::new(dir.path()), options)
        };
        let args = json!({"path": "db.py"}).as_object().cloned();
        let err = engine(false)
            .call("symbols", args.clone())
            .result
            .unwrap_err()
            .0;
        assert!(err.contains("db.py:1:"), "{err}");
        assert!(err.contains("--allow-secrets"), "{err}");
        assert!(!err.contains("QWERTYUIOPASDF"), "never the secret: {err}");
        let shown = engine(true).call("symbols", args).result.unwrap();
        assert!(shown.text.unwrap().contains("connect"));
    }
}
