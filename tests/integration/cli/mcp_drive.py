"""Drive `ctxcurate mcp` with the official MCP Python SDK's stdio client.

Usage: drive.py CTXCURATE_BINARY            the checks (exit 0: all passed)
       drive.py CTXCURATE_BINARY --measure DIR
           the first and the warm `build` latency of a preset of every .py
           file under DIR (copied to a temporary folder), printed.

The checks build a real tree (pip's own sources, copied), call every tool,
compare `build`'s text with `ctxcurate build`'s stdout byte for byte, and
check the trust boundary: bad arguments are tool errors and the server
keeps serving, an untrusted summary_command never runs, a likely secret is
refused with its file and line and never its text.
"""

import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import get_default_environment
from mcp.client.stdio import stdio_client

BIN = sys.argv[1]
# Built at run time so that no file of this repository holds it whole.
SECRET = "AKIA" + "Q3EGRTUWXZ7KDPLM"

PROJECT = """\
[project]
tree = "included"
# A project file from a repository may not run programs: without `trust`
# this is ignored, with a warning.
summary_command = ["sh", "-c", "touch {marker}"]

[presets.default]
description = "pip's CLI and its entry points"
files = [
    "__init__.py",
    "__main__.py",
    "_internal/cli/*.py",
    {{ path = "_internal/commands/install.py", view_mode = "skeleton" }},
]

[presets.summaries]
description = "a summary, which would run the summary_command"
files = [{{ path = "__init__.py", view_mode = "summary" }}]

[presets.leaky]
description = "a file with a likely secret"
files = ["leaky_settings.py"]
"""

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def text_of(result, i=0):
    return result.content[i].text


def stats_of(result):
    return json.loads(result.content[-1].text)


def make_tree(tmp):
    import pip

    root = os.path.join(tmp, "pip_tree")
    shutil.copytree(os.path.dirname(pip.__file__), root,
                    ignore=shutil.ignore_patterns("__pycache__"))
    marker = os.path.join(tmp, "summary_command_ran")
    with open(os.path.join(root, "ctxcurate.toml"), "w") as f:
        f.write(PROJECT.format(marker=marker))
    with open(os.path.join(root, "leaky_settings.py"), "w") as f:
        f.write("DEBUG = True\nAWS_ACCESS_KEY_ID = '%s'\n" % SECRET)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q", root], check=True)
    subprocess.run(git + ["-C", root, "add", "-A"], check=True)
    subprocess.run(git + ["-C", root, "commit", "-qm", "pip"], check=True)
    return root, marker


def cli_build(root, *args):
    out = subprocess.run([BIN, "-C", root, "build", *args], capture_output=True)
    if out.returncode != 0:
        raise SystemExit("ctxcurate build failed: " + out.stderr.decode())
    return out.stdout.decode()


async def session(root, *extra, logs=None):
    # The SDK passes the server only a few variables: the user's own state
    # (the active preset `save_preset` switches to) goes to the test's folder.
    env = dict(get_default_environment(), XDG_STATE_HOME=os.environ["XDG_STATE_HOME"])
    params = StdioServerParameters(command=BIN, args=["-C", root, "mcp", *extra], env=env)

    async def on_log(params):
        if logs is not None:
            logs.append(str(params.data))

    return stdio_client(params), on_log


async def checks():
    tmp = tempfile.mkdtemp(prefix="ctxcurate-mcp-")
    # The CLI and the server read and write the user's state here.
    os.environ["XDG_STATE_HOME"] = os.path.join(tmp, "state")
    try:
        root, marker = make_tree(tmp)
        expected = cli_build(root)
        logs = []
        transport, on_log = await session(root, "--max-result", "10000000", logs=logs)
        async with transport as (read, write):
            async with ClientSession(read, write, logging_callback=on_log) as s:
                await run_checks(s, root, marker, expected, logs)
        transport, on_log = await session(root, "--allow-edits")
        async with transport as (read, write):
            async with ClientSession(read, write, logging_callback=on_log) as s:
                await edit_checks(s, root)
        # The tree changed during the checks: the CLI's text as it is now.
        expected = cli_build(root)
        transport, on_log = await session(root, "--max-result", "3000", "--allow-secrets")
        async with transport as (read, write):
            async with ClientSession(read, write, logging_callback=on_log) as s:
                await paging_checks(s, expected)
        await broken_start_checks(os.path.join(tmp, "broken"))
        await hostile_checks(os.path.join(tmp, "hostile"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


async def broken_start_checks(root):
    """A project file that does not parse at the start: the server starts,
    each tool says why, and it serves once the file is fixed."""
    os.makedirs(root)
    toml = os.path.join(root, "ctxcurate.toml")
    with open(toml, "w") as f:
        f.write("[presets.default\nfiles = [\n")
    with open(os.path.join(root, "a.py"), "w") as f:
        f.write("def f():\n    return 1\n")
    transport, on_log = await session(root)
    async with transport as (read, write):
        async with ClientSession(read, write, logging_callback=on_log) as s:
            await s.initialize()
            bad = await s.call_tool("list_presets", {})
            check(bad.is_error and "ctxcurate.toml" in text_of(bad),
                  f"a malformed project file at the start is a tool error: {text_of(bad)!r}")
            with open(toml, "w") as f:
                f.write('[presets.default]\nfiles = ["a.py"]\n')
            good = await s.call_tool("build", {})
            check(not good.is_error and "def f" in text_of(good), "and the server serves once it is fixed")


async def hostile_checks(root):
    """Names an agent gives that lead to what needs the user's consent
    (`.env`, `.git/config`, a gitignored file, links to them) are held
    or refused, as a project file's entries are."""
    os.makedirs(os.path.join(root, ".git"))
    files = {
        ".git/config": "[remote]\n",
        ".env": "TOKEN=abc\n",
        ".gitignore": "ignored.py\n",
        "ignored.py": "PRIVATE = 1\n",
        "a.py": "def f():\n    return 1\n",
        "ctxcurate.toml": '[presets.default]\nfiles = ["a.py"]\n',
    }
    for name, text in files.items():
        with open(os.path.join(root, name), "w") as f:
            f.write(text)
    for link, to in (("config.py", ".env"), ("gitcfg.py", ".git/config"), ("ign.py", "ignored.py")):
        os.symlink(to, os.path.join(root, link))
    transport, on_log = await session(root)
    async with transport as (read, write):
        async with ClientSession(read, write, logging_callback=on_log) as s:
            await s.initialize()
            for name in ("config.py", "gitcfg.py", ".git/config", "ign.py", "ignored.py"):
                for tool in ("view", "symbols"):
                    r = await s.call_tool(tool, {"path": name})
                    check(r.is_error and "consent" in text_of(r), f"{tool} refuses {name}: {text_of(r)!r}")
            for tool in ("pack", "build"):
                r = await s.call_tool(tool, {"targets": ["a.py", ".env", "config.py", "gitcfg.py", "ign.py"],
                                             "budget": 4000})
                said = text_of(r)
                check(not r.is_error and "TOKEN" not in said and "[remote]" not in said and "PRIVATE" not in said,
                      f"{tool}: an agent's held targets are not delivered: {said[:300]!r}")
                left = json.dumps(stats_of(r))
                check("config.py (a link to .env" in left and "ctxcurate add" not in left,
                      f"{tool}: and the note says so, for an agent: {left[:400]}")
            with open(os.path.join(root, "db.py"), "w") as f:
                f.write('def connect(key="AKIAZ7QWERTYUIOPASDF"):\n    return key\n')
            r = await s.call_tool("symbols", {"path": "db.py"})
            check(r.is_error and "db.py:1" in text_of(r) and "QWERTYUIOP" not in text_of(r),
                  f"symbols refuses a secret in a signature: {text_of(r)!r}")


async def run_checks(s, root, marker, expected, logs):
    init = await s.initialize()
    check(init.server_info.name == "ctxcurate", "initialize names the server")
    tools = {t.name: t for t in (await s.list_tools()).tools}
    wanted = {"list_presets", "build", "pack", "symbols", "view", "token_map", "changed", "more"}
    check(wanted <= set(tools), f"the tools are listed: {sorted(tools)}")
    check(all(tools[n].description and tools[n].input_schema.get("type") == "object"
              for n in wanted), "each tool has a description and an object schema")

    presets = json.loads(text_of(await s.call_tool("list_presets", {})))
    names = [p["name"] for p in presets["presets"]]
    check(names == ["default", "leaky", "summaries"], f"list_presets names them: {names}")
    default = next(p for p in presets["presets"] if p["name"] == "default")
    check(default["active"] and default["tokens"] > 1000, f"with totals: {default}")

    first = await s.call_tool("build", {})
    check(not first.is_error, "build of the active preset succeeds")
    check(text_of(first) == expected, "build's text equals `ctxcurate build`'s stdout, byte for byte")
    stats = stats_of(first)
    check(stats["files"] > 5 and stats["tokens"] > 1000, f"build reports its stats: files {stats['files']}, tokens {stats['tokens']}")
    check(any("summary_command" in line for line in logs),
          f"the untrusted summary_command is named in a log message: {logs}")

    again = await s.call_tool("build", {"preset": "default"})
    check(text_of(again) == expected, "a second build answers the same")

    # A file changed on disk between two calls is picked up.
    cli = os.path.join(root, "_internal", "cli", "main.py")
    with open(cli, "a") as f:
        f.write("\n# edited between two calls\n")
    edited = await s.call_tool("build", {})
    check("# edited between two calls" in text_of(edited), "a file edited between calls is read again")

    diff = await s.call_tool("build", {"diff": "HEAD"})
    check(not diff.is_error and "## Changes" in text_of(diff)
          and "+# edited between two calls" in text_of(diff), "build with a diff shows git's change")

    adhoc = await s.call_tool("build", {"files": [{"path": "_internal/cli/main.py", "mode": "outline"}],
                                        "format": "xml", "tree": "none", "task": "Explain main."})
    check(not adhoc.is_error and "<" in text_of(adhoc) and "Explain main." in text_of(adhoc),
          "an ad-hoc build with a mode, format, tree and task")

    pack = await s.call_tool("pack", {"targets": ["_internal/cli/main.py"], "budget": 6000})
    check(not pack.is_error and "pack" in stats_of(pack), "pack around a target reports its packing")
    check(stats_of(pack)["tokens"] <= 6000, "the pack fits its budget")

    # A task alone ranks every file of pip for it: the file it is about
    # leads, with its reasons, within the budget.
    task = await s.call_tool("pack", {"task": "the wheel cache key should include the interpreter tag",
                                      "budget": 8000})
    task_items = stats_of(task)["pack"]["items"] if not task.is_error else []
    packed = [i for i in task_items if i.get("mode")]
    check(not task.is_error and packed and packed[0]["path"] == "_internal/cache.py"
          and any("task word" in r for r in packed[0].get("reasons", [])),
          "a task alone packs the file it is about first, with its reasons")
    check(not task.is_error and stats_of(task)["pack"]["stats"]["tokens"] <= 8000,
          "the task's pack fits its budget")

    sym = await s.call_tool("symbols", {"path": "_internal/cli/main.py"})
    check(not sym.is_error and any(x["name"] == "main" for x in json.loads(text_of(sym))),
          "symbols lists main()")
    check(all(x["tokens"] > 0 for x in json.loads(text_of(sym))),
          "symbols gives what each costs in tokens")
    view = await s.call_tool("view", {"path": "_internal/commands/install.py"})
    check(not view.is_error and stats_of(view)["mode"] == "skeleton", "view uses the preset's mode")
    txt = await s.call_tool("view", {"path": "_vendor/vendor.txt", "mode": "outline"})
    check(not txt.is_error and stats_of(txt)["mode"] == "summary"
          and any("no grammar for .txt" in n for n in stats_of(txt)["notes"]),
          "view says why a file without a grammar has no outline")
    tm = await s.call_tool("token_map", {})
    check(not tm.is_error and len(json.loads(text_of(tm))["map"]["files"]) > 5, "token_map lists files")
    changed = await s.call_tool("changed", {})
    files = json.loads(text_of(changed))["files"]
    check(files == ["_internal/cli/main.py"], f"changed names the edited file: {files}")

    resources = (await s.list_resources()).resources
    uris = sorted(str(r.uri) for r in resources)
    check("ctxcurate://preset/default" in uris, f"presets are resources: {uris}")
    res = await s.read_resource("ctxcurate://preset/default")
    check(res.contents[0].text == text_of(edited), "a preset resource is its build")

    # Bad arguments: tool errors, and the server keeps serving.
    bad = await s.call_tool("build", {"preset": "nope"})
    check(bad.is_error and "no preset named `nope`" in text_of(bad), "an unknown preset is a tool error")
    bad = await s.call_tool("view", {"path": "../../../etc/passwd"})
    check(bad.is_error and "outside the project root" in text_of(bad), "a path outside the root is refused")
    bad = await s.call_tool("build", {"files": [{"path": "/etc/*"}]})
    check(bad.is_error and "outside the project root" in text_of(bad), "a glob outside the root is refused")
    bad = await s.call_tool("build", {"budget": "lots"})
    check(bad.is_error and "bad arguments" in text_of(bad), "a wrongly typed argument is a tool error")
    bad = await s.call_tool("nonesuch", {})
    check(bad.is_error, "an unknown tool is a tool error")

    # A likely secret is refused with file and line, never the secret.
    leaky = await s.call_tool("build", {"preset": "leaky"})
    said = text_of(leaky)
    check(leaky.is_error and "leaky_settings.py:2" in said, f"a secret is refused with its place: {said!r}")
    check(SECRET not in said, "the refusal never shows the secret")
    leaky = await s.call_tool("view", {"path": "leaky_settings.py"})
    check(leaky.is_error and SECRET not in text_of(leaky), "view refuses it too")

    summ = await s.call_tool("build", {"preset": "summaries"})
    check(not summ.is_error, "a summary preset builds without the summary_command")
    check(not os.path.exists(marker), "the untrusted summary_command never ran")

    alive = await s.call_tool("list_presets", {})
    check(not alive.is_error, "the server still serves after the errors")
    check("include" not in tools, "a read-only server offers no editing tool")
    edit = await s.call_tool("include", {"paths": ["__init__.py"]})
    check(edit.is_error and "--allow-edits" in text_of(edit), "and refuses an edit, naming --allow-edits")


async def edit_checks(s, root):
    await s.initialize()
    tools = {t.name for t in (await s.list_tools()).tools}
    check({"include", "exclude", "set_mode", "mask", "save_preset"} <= tools,
          "--allow-edits offers the editing tools")
    project_file = os.path.join(root, "ctxcurate.toml")
    r = await s.call_tool("include", {"paths": ["_internal/commands/list.py"], "mode": "outline"})
    check(not r.is_error, f"include: {text_of(r)}")
    saved = open(project_file).read()
    check("_internal/commands/list.py" in saved and "# A project file from a repository" in saved,
          "the edit is saved to ctxcurate.toml, its comments kept")
    built = text_of(await s.call_tool("build", {}))
    check("_internal/commands/list.py" in built, "the next build has the included file")
    check(built == cli_build(root), "and the CLI builds the same text from the saved file")
    r = await s.call_tool("set_mode", {"path": "_internal/commands/list.py", "mode": "skeleton"})
    check(not r.is_error, f"set_mode: {text_of(r)}")
    r = await s.call_tool("mask", {"path": "_internal/cli/main.py", "symbol": "main", "state": "sig"})
    check(not r.is_error, f"mask: {text_of(r)}")
    check("the other symbols stay in full" in text_of(r),
          "a first mask on a file shown in full keeps its other symbols in full, and says so")
    v = await s.call_tool("view", {"path": "_internal/cli/main.py"})
    check(stats_of(v)["mode"] == "masked", "a masked file views masked")
    r = await s.call_tool("mask", {"path": "_internal/cli/main.py", "symbol": "nope", "state": "sig"})
    check(r.is_error and "no symbol" in text_of(r), "masking an unknown symbol is a tool error")
    r = await s.call_tool("include", {"paths": ["../../etc/passwd"]})
    check(r.is_error and "outside the project root" in text_of(r), "an edit outside the root is refused")
    with open(os.path.join(root, ".env"), "w") as f:
        f.write("TOKEN=abc\n")
    os.symlink("/etc/hostname", os.path.join(root, "host.txt"))
    before = open(project_file).read()
    for name, said in ((".env", "is a credential file"), ("host.txt", "is a file outside the project")):
        r = await s.call_tool("include", {"paths": [name]})
        check(r.is_error and said in text_of(r), f"include refuses {name}: {text_of(r)!r}")
    check(open(project_file).read() == before, "a refused include leaves ctxcurate.toml as it was")
    r = await s.call_tool("exclude", {"paths": ["_internal/commands/list.py"]})
    check(not r.is_error, f"exclude: {text_of(r)}")
    built = text_of(await s.call_tool("build", {}))
    check("_internal/commands/list.py" not in built, "the excluded file is gone from the next build")
    r = await s.call_tool("save_preset", {"name": "agent"})
    check(not r.is_error, f"save_preset: {text_of(r)}")
    presets = json.loads(text_of(await s.call_tool("list_presets", {})))
    check(presets["active"] == "agent", "the saved preset is the active one")
    saved = open(project_file).read()
    check("[presets.agent]" in saved and "active_preset" not in saved,
          "the saved preset is shared; which one is active is the user's own (not in ctxcurate.toml)")
    listed = subprocess.run([BIN, "-C", root, "preset", "list"], capture_output=True).stdout.decode()
    check("* agent" in listed, f"and the CLI sees the same active preset: {listed}")


async def paging_checks(s, expected):
    await s.initialize()
    result = await s.call_tool("build", {})
    part = stats_of(result)["part"]
    joined = text_of(result)
    check(len(joined.encode()) <= 3000 and part["total_bytes"] == len(expected.encode()),
          f"a long build comes back cut, with its total: {part['total_bytes']}")
    calls = 0
    while "cursor" in part:
        more = await s.call_tool("more", {"cursor": part["cursor"]})
        joined += text_of(more)
        part = stats_of(more)
        calls += 1
    check(joined == expected, f"the parts fetched with `more` ({calls} calls) add up to the text")
    bad = await s.call_tool("more", {"cursor": "99:0"})
    check(bad.is_error, "an unknown cursor is a tool error")
    leaky = await s.call_tool("build", {"preset": "leaky"})
    check(not leaky.is_error and stats_of(leaky)["likely_secrets"][0].startswith("leaky_settings.py:2"),
          "with --allow-secrets the build is delivered, its findings in the stats")


async def measure(tree):
    """The first and warm `build` of every .py file under `tree` over MCP
    (results cut to 100 kB, the server's default, so the engine is timed
    rather than the client's parsing of one huge message), and the CLI's
    cold and warm (disk cache filled) builds on a copy of their own."""
    tmp = tempfile.mkdtemp(prefix="ctxcurate-mcp-measure-")
    try:
        roots = []
        for name in ("mcp", "cli"):
            root = os.path.join(tmp, name)
            shutil.copytree(tree, root, ignore=shutil.ignore_patterns("__pycache__", "site-packages"))
            with open(os.path.join(root, "ctxcurate.toml"), "w") as f:
                f.write('[presets.default]\nfiles = ["**/*.py"]\n')
            roots.append(root)
        transport, on_log = await session(roots[0])
        async with transport as (read, write):
            async with ClientSession(read, write, logging_callback=on_log) as s:
                await s.initialize()
                times = []
                for _ in range(3):
                    start = time.perf_counter()
                    r = await s.call_tool("build", {})
                    times.append(time.perf_counter() - start)
                st = stats_of(r)
        cli = []
        for _ in range(2):
            start = time.perf_counter()
            cli_build(roots[1])
            cli.append(time.perf_counter() - start)
        print(f"tree: {st['files']} files, {st['tokens']} tokens, {st['part']['total_bytes']} bytes")
        print("mcp build: first {:.2f} s, warm {:.2f} s, {:.2f} s".format(*times))
        print("ctxcurate build (a process each): cold {:.2f} s, disk cache warm {:.2f} s".format(*cli))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[2] == "--measure":
        asyncio.run(measure(sys.argv[3]))
        sys.exit(0)
    asyncio.run(checks())
    if failures:
        print(f"{len(failures)} check{'' if len(failures) == 1 else 's'} failed", flush=True)
        sys.exit(1)
    print("all checks passed", flush=True)
